#pragma once
// Where a collective's congestion comes from: for each phase on a Mesh2D or
// Torus grid, the step of the phase that costs most, every message of it
// routed (topology/link_load.h), and its most loaded directed links. Links are
// named by network NPU ids, for the grid at coordinate 0 of the other
// dimensions (every copy of the grid carries the same). Phases on Ring, Switch
// and FullyConnected dimensions give every message its own link: they are
// listed without links. `dtcalc collective --links` prints this.
#include <cstdint>
#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "topology/grid_traffic.h"

namespace dtcalc {

struct ReportedLink {
    std::int64_t from = 0;   ///< network NPU id
    std::int64_t to = 0;
    int dimension = 0;       ///< network dimension of the link's axis
    char axis = 'x';
    int direction = 1;       ///< +1 / -1
    std::int64_t messages = 0;
    double busy_ns = 0;      ///< messages x bytes / bandwidth: how long the step keeps it busy
};

struct PhaseLinks {
    int phase = 0;                    ///< index into CollectiveResult::phases
    int dimension = 0;
    CollectiveKind kind = CollectiveKind::AllReduce;
    AlgorithmChoice algorithm;
    bool on_grid = false;
    std::string where;                ///< "Mesh2D 4x4, along x" or "Mesh2D 4x4, whole grid"
    int steps = 0;                    ///< steps of the phase like the one shown
    std::uint64_t message_bytes = 0;
    double step_ns = 0;               ///< what one such step costs
    std::int64_t messages = 0;        ///< messages in flight in that step (over the whole group)
    TrafficSummary summary;
    std::vector<ReportedLink> busiest;
};

/// `result` must be collective_time(network, system, backend, query)'s. Throws
/// InputError (key "--links") for a backend that does not price links.
std::vector<PhaseLinks> collective_links(const Network& network, const SystemConfig& system, NetworkBackend backend,
                                         const CollectiveQuery& query, const CollectiveResult& result,
                                         std::size_t top_links);

}  // namespace dtcalc
