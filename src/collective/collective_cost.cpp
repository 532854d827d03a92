#include "collective/collective_cost.h"

#include <algorithm>
#include <array>
#include <optional>
#include <span>

#include "collective/algorithm_steps.h"
#include "collective/chunk_pipeline.h"
#include "collective/grid_collective.h"
#include "collective/link_cost.h"
#include "collective/nccl/nccl_model.h"
#include "collective/phase_plan.h"
#include "core/error.h"
#include "core/units.h"

namespace dtcalc {
namespace {

// A flat (one*) phase treats the group as one ring of P members numbered with
// dimension 0 fastest. A message is charged to the first dimension in which
// the two members differ: for a partner `distance` positions away that is the
// dimension holding that distance's lowest non-zero digit; a step that talks
// to every peer (direct) is as slow as its slowest dimension.
StepCost flat_step_cost(const Network& network, const CommGroup& group, NetworkBackend backend, const StepRun& run) {
    const std::vector<int> dims = group.spanned_dimensions();
    StepCost worst;
    std::int64_t stride = 1;
    for (int d : dims) {
        const int members = group.members[static_cast<std::size_t>(d)];
        const Dimension& dim = network.dimensions[static_cast<std::size_t>(d)];
        StepRun local = run;
        if (run.messages_per_step > 1) {
            local.peer_distance = members - 1;
        } else {
            const std::int64_t digit = (run.peer_distance / stride) % members;
            if (digit == 0 && !(run.peer_distance < stride * members && run.peer_distance >= stride)) {
                stride *= members;
                continue;
            }
            local.peer_distance = static_cast<int>(std::max<std::int64_t>(digit, 1));
        }
        const StepCost cost = step_cost(dim, members, backend, local);
        if (cost.total_ns > worst.total_ns) worst = cost;
        if (run.messages_per_step <= 1) break;
        stride *= members;
    }
    return worst;
}

PhaseBreakdown price_phase(const Network& network, const CommGroup& group, const SystemConfig& system,
                           NetworkBackend backend, const PlannedPhase& planned) {
    PhaseBreakdown out;
    out.dimension = planned.dimension;
    out.kind = planned.kind;
    out.algorithm = planned.algorithm;
    out.npus = planned.npus;
    const AlgorithmSteps steps = algorithm_steps(planned.kind, planned.algorithm.kind, planned.npus, planned.data_bytes);
    const Dimension& dim = network.dimensions[static_cast<std::size_t>(planned.dimension)];
    // Mesh2D/Torus dimensions share links: priced by routing (collective/grid_collective.h).
    const std::optional<GridPhase> grid = grid_phase(network, group, planned.dimension, planned.algorithm.flat);
    for (const StepRun& run : steps.runs) {
        const StepCost cost = grid                     ? grid_step_cost(*grid, backend, planned.algorithm.kind, run)
                              : planned.algorithm.flat ? flat_step_cost(network, group, backend, run)
                                                       : step_cost(dim, planned.npus, backend, run);
        out.steps += run.count;
        out.bytes_per_step = std::max(out.bytes_per_step, run.message_bytes);
        out.latency_ns += run.count * cost.latency_ns;
        out.bandwidth_ns += run.count * cost.bandwidth_ns;
        out.time_ns += run.count * cost.total_ns;
        if (run.reduces) out.reduction_ns += run.count * reduction_ns(run.message_bytes, system.local_mem_bw_gbps);
    }
    out.endpoint_ns = (out.steps + 1) * system.endpoint_delay_ns;
    out.time_ns += out.endpoint_ns + out.reduction_ns;
    return out;
}

CollectiveResult send_recv_time(const Network& network, const SystemConfig& system, NetworkBackend backend,
                                const CollectiveQuery& query) {
    // From the group's first NPU to its neighbour along the outermost spanned
    // dimension (the next pipeline stage, say): one message, no chunks.
    CollectiveResult result;
    const std::vector<int> dims = query.group.spanned_dimensions();
    if (dims.empty()) return result;
    const int d = dims.back();
    const int members = query.group.members[static_cast<std::size_t>(d)];
    const StepRun run{1, query.bytes, 1, 1, false};
    const std::optional<GridPhase> grid = grid_phase(network, query.group, d, false);
    const StepCost cost = grid ? grid_send_cost(*grid, backend, query.bytes)
                               : step_cost(network.dimensions[static_cast<std::size_t>(d)], members, backend, run);
    PhaseBreakdown phase;
    phase.dimension = d;
    phase.kind = CollectiveKind::SendRecv;
    phase.npus = 2;
    phase.steps = 1;
    phase.bytes_per_step = query.bytes;
    phase.latency_ns = cost.latency_ns;
    phase.bandwidth_ns = cost.bandwidth_ns;
    phase.endpoint_ns = system.endpoint_delay_ns;
    phase.time_ns = cost.total_ns + system.endpoint_delay_ns;
    result.time_ns = phase.time_ns;
    result.chunks = 1;
    result.chunk_bytes = query.bytes;
    result.phases.push_back(phase);
    return result;
}

}  // namespace

CollectiveResult collective_time(const Network& network, const SystemConfig& system, NetworkBackend backend,
                                 const CollectiveQuery& query) {
    if (query.bytes > kMaxMessageBytes) throw InputError({"", 0, 0, "size"}, byte_size_out_of_range(query.bytes));
    if (backend == NetworkBackend::Nccl) return nccl_collective_time(network, system, query);
    if (query.kind == CollectiveKind::SendRecv) return send_recv_time(network, system, backend, query);

    CollectiveResult result;
    const std::uint64_t p = static_cast<std::uint64_t>(query.group.size());
    if (p <= 1) return result;
    const std::uint64_t splits = static_cast<std::uint64_t>(system.preferred_dataset_splits);
    std::uint64_t chunk = 0;
    if (query.kind == CollectiveKind::AllGather) {
        chunk = std::max<std::uint64_t>(query.bytes / p / splits, 1);
    } else {
        chunk = std::max(query.bytes / splits, p);
    }
    result.chunks = system.preferred_dataset_splits;
    result.chunk_bytes = chunk;

    check_phase_algorithms(query.kind, query.group, system);
    const std::vector<PlannedPhase> planned = plan_phases(query.kind, query.group, system, chunk);

    std::vector<PipelinePhase> pipeline;
    pipeline.reserve(planned.size());
    result.phases.reserve(planned.size());
    const bool flat = !planned.empty() && planned.front().algorithm.flat;
    for (const PlannedPhase& ph : planned) {
        result.phases.push_back(price_phase(network, query.group, system, backend, ph));
        const PhaseBreakdown& priced = result.phases.back();
        const Dimension& dim = network.dimensions[static_cast<std::size_t>(ph.dimension)];
        pipeline.push_back({flat ? 0 : ph.dimension, priced.time_ns,
                            link_serialization_ns(dim, backend, priced.bytes_per_step)});
    }
    std::array<double, 64> waits;
    std::vector<double> many_waits;
    std::span<double> wait_span(waits.data(), pipeline.size());
    if (pipeline.size() > waits.size()) {
        many_waits.resize(pipeline.size());
        wait_span = many_waits;
    }
    result.time_ns = run_chunk_pipeline(pipeline, result.chunks, system.active_chunks_per_dimension, wait_span);
    for (std::size_t i = 0; i < result.phases.size(); ++i) result.phases[i].wait_ns = wait_span[i];
    return result;
}

}  // namespace dtcalc
