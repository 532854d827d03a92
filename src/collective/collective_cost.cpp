#include "collective/collective_cost.h"

#include <algorithm>
#include <cmath>
#include <array>
#include <optional>
#include <span>

#include "collective/algorithm_steps.h"
#include "collective/chunk_pipeline.h"
#include "collective/grid_collective.h"
#include "collective/link_cost.h"
#include "collective/message_model.h"
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
    result.method = "closed form";
    result.chunks = 1;
    result.chunk_bytes = query.bytes;
    result.phases.push_back(phase);
    return result;
}

// Which cases the message model prices (message_model.h), and with what.
// The closed forms are exact for the congestion-unaware backend except where a
// rank's sends depend on when its receipts come in: doubleBinaryTree (roles,
// trees alternating per chunk) and direct all-reduce on a Ring (the all-gather
// sends are released one per completed bundle once every piece has arrived,
// and the pieces arrive from 1 to p/2 hops away). The congestion-aware backend
// has no closed form once chunks share links (they do at every step when the
// link never idles), so every one-dimensional case goes there.
std::optional<MessageModelInput> message_model_case(const Network& network, const SystemConfig& system,
                                                    NetworkBackend backend, const CollectiveQuery& query,
                                                    std::uint64_t chunk) {
    if (backend != NetworkBackend::AstraAware && backend != NetworkBackend::AstraUnaware) return std::nullopt;
    const std::vector<int> dims = query.group.spanned_dimensions();
    if (dims.size() != 1) return std::nullopt;
    const int d = dims.front();
    const Dimension& dim = network.dimensions[static_cast<std::size_t>(d)];
    const int members = query.group.members[static_cast<std::size_t>(d)];
    // A part of a Ring dimension is a line with wrap-around the long way: not modelled here.
    if (dim.topology == Topology::Ring && members != dim.npus) return std::nullopt;
    const std::vector<AlgorithmChoice>& algorithms = system.algorithms_for(query.kind);
    const AlgorithmChoice choice = algorithms.front().flat ? algorithms.front() : algorithms[static_cast<std::size_t>(d)];
    MessageModelInput in;
    in.topology = dim.topology;
    in.npus = members;
    in.bandwidth_gbps = dim.bandwidth_gbps;
    in.latency_ns = dim.latency_ns;
    in.congestion_aware = backend == NetworkBackend::AstraAware;
    in.kind = query.kind;
    in.algorithm = choice.kind;
    in.chunk_bytes = chunk;
    in.chunks = system.preferred_dataset_splits;
    in.active = system.active_chunks_per_dimension;
    in.endpoint_delay_ns = system.endpoint_delay_ns;
    in.local_mem_bw_gbps = system.local_mem_bw_gbps;
    if (!message_model_supports(in)) return std::nullopt;
    if (!in.congestion_aware) {
        const bool tree = in.algorithm == AlgorithmKind::DoubleBinaryTree;
        const bool ring_direct_all_reduce = in.algorithm == AlgorithmKind::Direct && in.topology == Topology::Ring &&
                                            in.kind == CollectiveKind::AllReduce;
        if (!tree && !ring_direct_all_reduce) return std::nullopt;
    }
    return in;
}

}  // namespace

CollectiveResult collective_time(const Network& network, const SystemConfig& system, NetworkBackend backend,
                                 const CollectiveQuery& query) {
    if (query.bytes > kMaxMessageBytes) throw InputError({"", 0, 0, "size"}, byte_size_out_of_range(query.bytes));
    auto same_for_all_ranks = [](CollectiveResult r) {
        r.ranks_min_ns = r.time_ns;
        r.ranks_max_ns = r.time_ns;
        return r;
    };
    if (backend == NetworkBackend::Nccl) return same_for_all_ranks(nccl_collective_time(network, system, query));
    if (query.kind == CollectiveKind::SendRecv) return same_for_all_ranks(send_recv_time(network, system, backend, query));

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
    result.method = "closed form";
    if (const std::optional<MessageModelInput> in = message_model_case(network, system, backend, query, chunk)) {
        const MessageModelResult m = run_message_model(*in);
        // The phase table keeps each chunk's own cost and the pipeline's slot
        // wait; what the messages add (chunks sharing links) is spread over the chunks.
        if (result.phases.size() == 1)
            result.phases.front().wait_ns =
                std::max(0.0, result.phases.front().wait_ns + (m.sys0_ns - result.time_ns) / result.chunks);
        result.time_ns = m.sys0_ns;
        result.ranks_min_ns = m.min_ns;
        result.ranks_max_ns = m.max_ns;
        result.rank_finish_ns = m.rank_finish_ns;
        result.method = m.method;
        return result;
    }
    result.ranks_min_ns = result.time_ns;
    result.ranks_max_ns = result.time_ns;
    return result;
}

}  // namespace dtcalc
