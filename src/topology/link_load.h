#pragma once
// The general link-load computation: route every message of one step by
// dimension-order routing and count, for each directed link, the messages
// crossing it; note the route with the most latency.
//
// No packets and no per-hop walk: along one axis a route is one contiguous run
// of links in one line of the grid (two runs when it wraps round a torus), so
// each message adds +1/-1 to a difference array of that line in O(1), and one
// prefix sum per line at the end gives every link's load. Cost: O(messages x
// axes + links); a direct all-to-all on P NPUs is P(P-1) messages, so O(P^2).
//
// This is the reference the closed forms (traffic_formulas.h) are tested
// against, the fallback where no formula exists, and what `--links` and
// `dtcalc route` show.
#include <cstdint>
#include <vector>

#include "topology/grid_shape.h"
#include "topology/grid_traffic.h"

namespace dtcalc {

struct LinkLoadEntry {
    DirectedLink link;
    std::int64_t to = 0;        ///< the NPU the link arrives at
    std::int64_t messages = 0;  ///< messages of the step crossing it
};

struct LinkLoads {
    GridShape shape;
    std::vector<std::int64_t> messages;  ///< per link_index(); 0 for mesh border slots
    std::int64_t flows = 0;              ///< messages routed
    TrafficSummary summary;

    /// The `count` most loaded links, most messages first, ties by link index.
    std::vector<LinkLoadEntry> busiest(std::size_t count) const;
};

class LinkLoadCounter {
public:
    LinkLoadCounter(const GridShape& shape, const AxisLatencies& latency_ns);

    void add_flow(const GridCoordinates& src, const GridCoordinates& dst);
    LinkLoads finish() const;

private:
    void add_run(int axis, const GridCoordinates& at, int move);

    GridShape shape_;
    AxisLatencies latency_ns_;
    std::array<std::int64_t, 3> offset_{};  ///< where each axis's difference arrays start
    std::vector<std::int64_t> diff_;        ///< per axis, direction, line: positions 0..n
    std::int64_t flows_ = 0;
    GridCoordinates longest_hops_{0, 0, 0};
    double longest_latency_ = -1;
};

/// Every message of one step, routed and counted.
LinkLoads route_traffic(const GridTraffic& traffic, const AxisLatencies& latency_ns);

}  // namespace dtcalc
