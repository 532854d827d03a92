#include "collective/collective_links.h"

#include <algorithm>
#include <optional>

#include "collective/algorithm_steps.h"
#include "collective/grid_collective.h"
#include "collective/phase_plan.h"
#include "core/error.h"
#include "topology/link_load.h"

namespace dtcalc {
namespace {

// For all phases together: about 0.3 s of routing at ~18 ns a message
// (bench/mesh_bench.cpp), one message per NPU of the largest network (2^24).
constexpr std::int64_t kMaxRoutedMessages = std::int64_t{1} << 24;

std::string where_on_grid(const GridPhase& g) {
    const std::string shape = grid_label(g.block.shape);
    if (g.axis < 0) return shape + ", whole grid";
    return shape + ", along " + std::string(1, axis_name(g.axis));
}

void fill_links(PhaseLinks& out, const GridPhase& g, const GridTraffic& traffic, std::uint64_t bytes,
                std::size_t top_links, std::int64_t& routed) {
    const std::int64_t messages = message_count(traffic);
    routed += std::min(messages, kMaxRoutedMessages + 1);
    if (routed > kMaxRoutedMessages)
        throw InputError({"--links", 0, 0, ""},
                         "phase " + std::to_string(out.phase) + " sends " + std::to_string(messages) +
                             " messages in one step, too many to route one by one (at most " +
                             std::to_string(kMaxRoutedMessages) + " for all phases); its time comes from a closed form");
    const LinkLoads loads = route_traffic(traffic, g.block.latency_ns);
    out.messages = loads.flows;
    out.summary = loads.summary;
    for (const LinkLoadEntry& e : loads.busiest(top_links)) {
        ReportedLink link;
        link.from = g.block.network_npu(e.link.from);
        link.to = g.block.network_npu(e.to);
        link.dimension = g.block.first_dimension + e.link.axis;
        link.axis = axis_name(e.link.axis);
        link.direction = e.link.direction == LinkDirection::Forward ? 1 : -1;
        link.messages = e.messages;
        link.busy_ns = static_cast<double>(e.messages) * static_cast<double>(bytes) /
                       astra_bytes_per_ns(g.block.bandwidth_gbps[static_cast<std::size_t>(e.link.axis)]);
        out.busiest.push_back(link);
    }
}

}  // namespace

std::vector<PhaseLinks> collective_links(const Network& network, const SystemConfig& system, NetworkBackend backend,
                                         const CollectiveQuery& query, const CollectiveResult& result,
                                         std::size_t top_links) {
    if (backend != NetworkBackend::AstraUnaware && backend != NetworkBackend::AstraAware)
        throw InputError({"--links", 0, 0, ""}, "links are modelled by the astra-unaware and astra-aware backends only");
    std::vector<PhaseLinks> out;
    if (result.phases.empty()) return out;
    std::int64_t routed = 0;  // messages routed so far, against kMaxRoutedMessages

    if (query.kind == CollectiveKind::SendRecv) {
        const PhaseBreakdown& p = result.phases.front();
        PhaseLinks row;
        row.dimension = p.dimension;
        row.kind = p.kind;
        row.algorithm = p.algorithm;
        row.steps = 1;
        row.message_bytes = query.bytes;
        if (const auto g = grid_phase(network, query.group, p.dimension, false)) {
            GridTraffic t;
            t.shape = g->block.shape;
            t.members = g->members;
            t.axis = g->axis;
            t.pattern = TrafficPattern::FirstToSecond;
            row.on_grid = true;
            row.where = where_on_grid(*g);
            row.step_ns = grid_send_cost(*g, backend, query.bytes).total_ns;
            fill_links(row, *g, t, query.bytes, top_links, routed);
        }
        out.push_back(row);
        return out;
    }

    check_phase_algorithms(query.kind, query.group, system);
    const std::vector<PlannedPhase> planned = plan_phases(query.kind, query.group, system, result.chunk_bytes);
    for (std::size_t i = 0; i < planned.size() && i < result.phases.size(); ++i) {
        const PlannedPhase& ph = planned[i];
        PhaseLinks row;
        row.phase = static_cast<int>(i);
        row.dimension = ph.dimension;
        row.kind = ph.kind;
        row.algorithm = ph.algorithm;
        const AlgorithmSteps steps = algorithm_steps(ph.kind, ph.algorithm.kind, ph.npus, ph.data_bytes);
        const auto g = grid_phase(network, query.group, ph.dimension, ph.algorithm.flat);
        if (!g) {
            for (const StepRun& run : steps.runs) {
                row.steps += run.count;
                row.message_bytes = std::max(row.message_bytes, run.message_bytes);
            }
            out.push_back(row);
            continue;
        }
        // The most expensive step of the phase.
        const StepRun* worst = nullptr;
        for (const StepRun& run : steps.runs) {
            const double ns = grid_step_cost(*g, backend, ph.algorithm.kind, run).total_ns;
            if (!worst || ns > row.step_ns) {
                worst = &run;
                row.step_ns = ns;
            }
        }
        row.on_grid = true;
        row.where = where_on_grid(*g);
        if (!worst) {
            out.push_back(row);
            continue;
        }
        for (const StepRun& run : steps.runs)
            if (run.message_bytes == worst->message_bytes && run.peer_distance == worst->peer_distance)
                row.steps += run.count;
        row.message_bytes = worst->message_bytes;
        fill_links(row, *g, step_traffic(*g, ph.algorithm.kind, *worst), worst->message_bytes, top_links, routed);
        out.push_back(row);
    }
    return out;
}

}  // namespace dtcalc
