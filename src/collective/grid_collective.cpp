#include "collective/grid_collective.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "topology/link_load.h"
#include "topology/traffic_formulas.h"

namespace dtcalc {
namespace {

GridCoordinates box_of(const GridBlock& block, const CommGroup& group) {
    GridCoordinates members{1, 1, 1};
    for (int a = 0; a < block.shape.axes; ++a) {
        const auto d = static_cast<std::size_t>(block.first_dimension + a);
        members[static_cast<std::size_t>(a)] = d < group.members.size() ? group.members[d] : 1;
    }
    return members;
}

[[noreturn]] void mixed_flat_group() {
    throw InputError({"", 0, 0, "collective"},
                     "a flat (one*) algorithm over a Mesh2D/Torus grid and other dimensions is not modelled; "
                     "use per-dimension algorithms, or a group inside the grid");
}

}  // namespace

std::optional<GridPhase> grid_phase(const Network& network, const CommGroup& group, int dimension, bool flat) {
    const auto& dims = network.dimensions;
    if (!flat) {
        if (dimension < 0 || dimension >= static_cast<int>(dims.size()) ||
            !is_grid_topology(dims[static_cast<std::size_t>(dimension)].topology))
            return std::nullopt;
        const std::optional<GridBlock> block = grid_block_at(network, dimension);
        return GridPhase{*block, box_of(*block, group), dimension - block->first_dimension};
    }
    int first_grid = -1;
    for (std::size_t d = 0; d < group.members.size() && d < dims.size(); ++d) {
        if (group.members[d] <= 1) continue;
        if (first_grid < 0 && is_grid_topology(dims[d].topology)) first_grid = static_cast<int>(d);
    }
    if (first_grid < 0) return std::nullopt;
    const std::optional<GridBlock> block = grid_block_at(network, first_grid);
    for (std::size_t d = 0; d < group.members.size() && d < dims.size(); ++d) {
        const int di = static_cast<int>(d);
        if (group.members[d] > 1 && (di < block->first_dimension || di >= block->first_dimension + block->shape.axes))
            mixed_flat_group();
    }
    return GridPhase{*block, box_of(*block, group), -1};
}

GridTraffic step_traffic(const GridPhase& phase, AlgorithmKind algorithm, const StepRun& run) {
    GridTraffic t;
    t.shape = phase.block.shape;
    t.members = phase.members;
    t.axis = phase.axis;
    switch (algorithm) {
        case AlgorithmKind::Ring: t.pattern = TrafficPattern::RingNeighbour; break;
        case AlgorithmKind::Direct: t.pattern = TrafficPattern::AllPairs; break;
        case AlgorithmKind::HalvingDoubling:
            t.pattern = TrafficPattern::XorPartner;
            t.distance = run.peer_distance;
            break;
        case AlgorithmKind::DoubleBinaryTree:
            throw InputError({"", 0, 0, "collective"},
                             "doubleBinaryTree is not modelled on " + std::string(topology_name(phase.block.topology)) +
                                 " dimensions (use ring, direct or halvingDoubling there)");
    }
    return t;
}

TrafficSummary step_summary(const GridPhase& phase, const GridTraffic& traffic) {
    if (const auto formula = traffic_formula(traffic, phase.block.latency_ns)) return *formula;
    // No formula: route every message. Along one axis every line of the box
    // carries the same load, so one line stands for all.
    GridTraffic one = traffic;
    if (one.axis >= 0)
        for (int a = 0; a < one.shape.axes; ++a)
            if (a != one.axis) one.members[static_cast<std::size_t>(a)] = 1;
    return route_traffic(one, phase.block.latency_ns).summary;
}

StepCost grid_traffic_cost(const GridBlock& block, NetworkBackend backend, const TrafficSummary& summary,
                           std::uint64_t bytes) {
    StepCost cost;
    double busiest = 0;  // max_a L_a b / B_a
    double queued = 0;   // max_a (L_a - 1) b / B_a
    double forwarded = 0;
    double hop_serialization = 0;
    for (int a = 0; a < block.shape.axes; ++a) {
        const auto i = static_cast<std::size_t>(a);
        const double serialization = static_cast<double>(bytes) / astra_bytes_per_ns(block.bandwidth_gbps[i]);
        const auto load = static_cast<double>(summary.max_link_messages[i]);
        const int hops = summary.longest_route_hops[i];
        cost.latency_ns += hops * block.latency_ns[i];
        if (load > 0) {
            busiest = std::max(busiest, load * serialization);
            queued = std::max(queued, (load - 1) * serialization);
        }
        forwarded += hops * std::floor(block.latency_ns[i] + serialization);
        hop_serialization += hops * serialization;
    }
    if (backend == NetworkBackend::AstraAware) {
        cost.bandwidth_ns = hop_serialization + queued;
        cost.total_ns = forwarded + std::floor(queued);
    } else {
        cost.bandwidth_ns = busiest;
        cost.total_ns = std::floor(cost.latency_ns + busiest);
    }
    return cost;
}

StepCost grid_step_cost(const GridPhase& phase, NetworkBackend backend, AlgorithmKind algorithm, const StepRun& run) {
    const GridTraffic traffic = step_traffic(phase, algorithm, run);
    return grid_traffic_cost(phase.block, backend, step_summary(phase, traffic), run.message_bytes);
}

StepCost grid_send_cost(const GridPhase& phase, NetworkBackend backend, std::uint64_t bytes) {
    GridTraffic traffic;
    traffic.shape = phase.block.shape;
    traffic.members = phase.members;
    traffic.axis = phase.axis;
    traffic.pattern = TrafficPattern::FirstToSecond;
    return grid_traffic_cost(phase.block, backend, step_summary(phase, traffic), bytes);
}

}  // namespace dtcalc
