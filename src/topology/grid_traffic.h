#pragma once
// The messages of one step of a collective algorithm on a mesh or torus, and
// what they add up to on the links.
//
// A group on a grid is the box of NPUs at coordinates [0, members[a]) on
// every axis a (as CommGroup has it). A step is one of four patterns, every
// message of the step in flight at once:
//
//   RingNeighbour  member i sends to the next member of a ring   (ring: every step)
//   AllPairs       every member sends to every other member      (direct)
//   XorPartner     member i sends to member i XOR distance       (halvingDoubling)
//   FirstToSecond  member 0 sends to member 1                    (send-recv)
//
// either along one axis (`axis` >= 0: the members of every line of the box
// along that axis form one group, all lines at once — the phases of a
// dimension-wise algorithm), or over the whole box as one group (`axis` < 0:
// a flat `one*` algorithm). Flat member numbers run x fastest, as NPU ids do;
// a flat ring follows ring_order() instead, so that ring neighbours are grid
// neighbours.
//
// What a step costs depends only on its TrafficSummary: the busiest directed
// link along each axis (messages crossing it) and the route with the most
// latency. link_load.h computes it by routing every message;
// traffic_formulas.h gives it in closed form where a formula exists.
#include <array>
#include <cstdint>
#include <vector>

#include "topology/grid_shape.h"

namespace dtcalc {

enum class TrafficPattern { RingNeighbour, AllPairs, XorPartner, FirstToSecond };

struct GridTraffic {
    GridShape shape;                     ///< the whole grid: routes may leave the box on a torus
    GridCoordinates members{1, 1, 1};    ///< the group's box
    int axis = -1;                       ///< the phase's axis, or -1 for the whole box as one group
    TrafficPattern pattern = TrafficPattern::RingNeighbour;
    std::int64_t distance = 1;           ///< XorPartner: partner distance, in member numbers
};

/// Per-axis latency of one hop (ns), the weights that make a route "longest".
using AxisLatencies = std::array<double, 3>;

struct TrafficSummary {
    std::array<std::int64_t, 3> max_link_messages{0, 0, 0};  ///< busiest directed link along each axis
    /// Per-axis hops of the route with the most latency (ties: the most hops).
    GridCoordinates longest_route_hops{0, 0, 0};
    double longest_route_latency_ns = 0;

    int longest_route_total_hops() const { return longest_route_hops[0] + longest_route_hops[1] + longest_route_hops[2]; }
    std::int64_t max_messages() const;
};

/// Box members (of `members`, per axis) in ring order: consecutive members, and
/// the last and the first, are grid neighbours whenever the box has an even
/// number of members over two or more axes (a Hamiltonian cycle: the first
/// line is walked along one axis, the rest as a snake over the others, and the
/// way back runs down that axis's first column). Otherwise a snake
/// (boustrophedon, x fastest), whose last member routes back to the first.
/// Either way no directed link carries two of the ring's messages.
std::vector<GridCoordinates> ring_order(const GridCoordinates& members, int axes);

/// Members of a box numbered x fastest.
GridCoordinates box_member(const GridCoordinates& members, std::int64_t number);
std::int64_t box_size(const GridCoordinates& members);

/// Messages of one step, counted without generating them.
std::int64_t message_count(const GridTraffic& traffic);

/// Calls `flow(src, dst)` once per message of one step, as grid coordinates.
template <class Flow>
void for_each_flow(const GridTraffic& traffic, Flow&& flow);

// for_each_flow: the messages of one step, generated on the fly so that a
// million of them need no storage.
namespace grid_traffic_detail {

/// The 1-D pattern on positions 0..m-1: calls pair(i, j) for each message i -> j.
template <class Pair>
void line_pattern(TrafficPattern pattern, int m, std::int64_t distance, Pair&& pair) {
    switch (pattern) {
        case TrafficPattern::RingNeighbour:
            for (int i = 0; i < m; ++i) pair(i, (i + 1) % m);
            break;
        case TrafficPattern::AllPairs:
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < m; ++j)
                    if (i != j) pair(i, j);
            break;
        case TrafficPattern::XorPartner:
            for (int i = 0; i < m; ++i) {
                const std::int64_t j = static_cast<std::int64_t>(i) ^ distance;
                if (j < m) pair(i, static_cast<int>(j));
            }
            break;
        case TrafficPattern::FirstToSecond: pair(0, 1); break;
    }
}

}  // namespace grid_traffic_detail

template <class Flow>
void for_each_flow(const GridTraffic& traffic, Flow&& flow) {
    const GridCoordinates& m = traffic.members;
    if (box_size(m) <= 1) return;
    if (traffic.axis >= 0) {
        const auto a = static_cast<std::size_t>(traffic.axis);
        if (m[a] <= 1) return;
        GridCoordinates line_members = m;
        line_members[a] = 1;
        const std::int64_t lines = box_size(line_members);
        for (std::int64_t l = 0; l < lines; ++l) {
            GridCoordinates src = box_member(line_members, l);
            GridCoordinates dst = src;
            grid_traffic_detail::line_pattern(traffic.pattern, m[a], traffic.distance, [&](int i, int j) {
                src[a] = i;
                dst[a] = j;
                flow(static_cast<const GridCoordinates&>(src), static_cast<const GridCoordinates&>(dst));
            });
            if (traffic.pattern == TrafficPattern::FirstToSecond) break;  // one message in all
        }
        return;
    }
    const std::int64_t p = box_size(m);
    switch (traffic.pattern) {
        case TrafficPattern::RingNeighbour: {
            const std::vector<GridCoordinates> order = ring_order(m, traffic.shape.axes);
            for (std::size_t i = 0; i < order.size(); ++i) flow(order[i], order[(i + 1) % order.size()]);
            break;
        }
        case TrafficPattern::AllPairs: {
            std::vector<GridCoordinates> member(static_cast<std::size_t>(p));
            for (std::int64_t i = 0; i < p; ++i) member[static_cast<std::size_t>(i)] = box_member(m, i);
            for (const GridCoordinates& s : member)
                for (const GridCoordinates& d : member)
                    if (s != d) flow(s, d);
            break;
        }
        case TrafficPattern::XorPartner:
            for (std::int64_t i = 0; i < p; ++i) {
                const std::int64_t j = i ^ traffic.distance;
                if (j < p) flow(box_member(m, i), box_member(m, j));
            }
            break;
        case TrafficPattern::FirstToSecond: {
            const std::vector<GridCoordinates> order = ring_order(m, traffic.shape.axes);
            flow(order[0], order[1]);
            break;
        }
    }
}

}  // namespace dtcalc
