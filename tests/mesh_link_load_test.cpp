// Link loads on meshes and tori: hand-computed cases on the seed's 4x4 mesh,
// then every closed form (traffic_formulas.h) against the general
// computation that routes every message (link_load.h), over many shapes.
//
// 4x4 mesh, NPU id = x + 4y (see mesh_topology_test.cpp).
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "topology/dimension_order_route.h"
#include "topology/grid_traffic.h"
#include "topology/link_load.h"
#include "topology/traffic_formulas.h"

using namespace dtcalc;

namespace {

const GridShape kMesh4x4{GridKind::Mesh, 2, {4, 4, 1}};
const AxisLatencies kLatency{50, 50, 50};

GridTraffic traffic(const GridShape& shape, GridCoordinates members, int axis, TrafficPattern pattern,
                    std::int64_t distance = 1) {
    GridTraffic t;
    t.shape = shape;
    t.members = members;
    t.axis = axis;
    t.pattern = pattern;
    t.distance = distance;
    return t;
}

std::int64_t load_of(const LinkLoads& loads, std::int64_t from, int axis, LinkDirection direction) {
    return loads.messages[static_cast<std::size_t>(link_index(loads.shape, from, axis, direction))];
}

}  // namespace

TEST_CASE("direct all-to-all on the 4x4 mesh: the busiest link carries 16 messages") {
    // 16 x 15 = 240 messages. The x link 1 -> 2 of a row carries every message
    // from that row's columns {0,1} to columns {2,3} of any row: 2 x 2 x 4 = 16.
    // The y link 5 -> 9 (column 1, row 1 -> 2) carries every message into
    // column 1 from rows {0,1} to rows {2,3}, from any column: 2 x 2 x 4 = 16.
    // The x link 0 -> 1 carries column 0 to columns {1,2,3}: 1 x 3 x 4 = 12.
    const LinkLoads loads = route_traffic(traffic(kMesh4x4, {4, 4, 1}, -1, TrafficPattern::AllPairs), kLatency);
    CHECK(loads.flows == 240);
    CHECK(load_of(loads, 1, 0, LinkDirection::Forward) == 16);
    CHECK(load_of(loads, 6, 0, LinkDirection::Backward) == 16);  // 2 -> 1 in row 1, the mirror image
    CHECK(load_of(loads, 5, 1, LinkDirection::Forward) == 16);
    CHECK(load_of(loads, 0, 0, LinkDirection::Forward) == 12);
    CHECK(load_of(loads, 3, 0, LinkDirection::Forward) == 0);  // no link past the border
    CHECK(loads.summary.max_link_messages[0] == 16);
    CHECK(loads.summary.max_link_messages[1] == 16);
    CHECK(loads.summary.longest_route_total_hops() == 6);  // corner to corner: 3 + 3
    CHECK(loads.summary.longest_route_latency_ns == 300);
    // Every message crosses |dx| + |dy| links. Along x: the sum of |a - b| over ordered
    // pairs on 0..3 is 2 x (1+2+3 + 1+2 + 1) = 20, times 16 choices of the source's and the
    // destination's y = 320; the same along y: 640 link crossings in all.
    std::int64_t total = 0;
    for (std::int64_t m : loads.messages) total += m;
    CHECK(total == 640);
    const auto top = loads.busiest(3);
    REQUIRE(top.size() == 3);
    CHECK(top[0].messages == 16);
    CHECK(top[0].link.from == 1);  // lowest link index among the 16s: node 1, x, forward
    CHECK(top[0].to == 2);
}

TEST_CASE("the snake ring on the 4x4 mesh never shares a link and every step is one hop") {
    const std::vector<GridCoordinates> order = ring_order({4, 4, 1}, 2);
    REQUIRE(order.size() == 16);
    std::set<std::int64_t> seen;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::int64_t a = kMesh4x4.node_at(order[i]);
        const std::int64_t b = kMesh4x4.node_at(order[(i + 1) % order.size()]);
        seen.insert(a);
        CHECK(dimension_order_route(kMesh4x4, a, b).size() == 1);  // neighbours, also last -> first
    }
    CHECK(seen.size() == 16);
    // The cycle: row 0 left to right, rows 1..3 zig-zag over columns 3..1, back down column 0.
    std::vector<std::int64_t> ids;
    for (const auto& c : order) ids.push_back(kMesh4x4.node_at(c));
    CHECK(ids == std::vector<std::int64_t>{0, 1, 2, 3, 7, 6, 5, 9, 10, 11, 15, 14, 13, 12, 8, 4});
    const LinkLoads loads = route_traffic(traffic(kMesh4x4, {4, 4, 1}, -1, TrafficPattern::RingNeighbour), kLatency);
    CHECK(loads.flows == 16);
    CHECK(loads.summary.max_messages() == 1);
    CHECK(loads.summary.longest_route_total_hops() == 1);
}

TEST_CASE("a ring along x on the 4x4 mesh: all rows at once, the way back 3 hops") {
    // Each row: 0->1, 1->2, 2->3 forward, and 3->0 back over three backward links.
    const LinkLoads loads = route_traffic(traffic(kMesh4x4, {4, 4, 1}, 0, TrafficPattern::RingNeighbour), kLatency);
    CHECK(loads.flows == 16);
    CHECK(loads.summary.max_messages() == 1);
    CHECK(loads.summary.longest_route_total_hops() == 3);
    std::int64_t used = 0;
    for (std::int64_t m : loads.messages) used += m > 0;
    CHECK(used == 24);  // 4 rows x (3 forward + 3 backward)
}

TEST_CASE("halving-doubling on a line of 4: the distance-2 step loads the middle link twice") {
    // Pairs (0,2) and (1,3): 0->2 and 1->3 both cross 1 -> 2.
    const LinkLoads loads =
        route_traffic(traffic(kMesh4x4, {4, 1, 1}, 0, TrafficPattern::XorPartner, 2), kLatency);
    CHECK(load_of(loads, 1, 0, LinkDirection::Forward) == 2);
    CHECK(load_of(loads, 2, 0, LinkDirection::Backward) == 2);
    CHECK(loads.summary.max_messages() == 2);
    CHECK(loads.summary.longest_route_total_hops() == 2);
}

TEST_CASE("direct all-to-all on a 4x4 torus: the busiest link carries 12 messages") {
    // Along a ring of 4, distances 1 and 2 go forwards (2 is a tie): each forward
    // link carries 1 + 2 = 3 of a line's messages; times the 4 choices of the
    // other coordinate: 12. Longest route 2 + 2 hops.
    const GridShape torus{GridKind::Torus, 2, {4, 4, 1}};
    const LinkLoads loads = route_traffic(traffic(torus, {4, 4, 1}, -1, TrafficPattern::AllPairs), kLatency);
    CHECK(loads.summary.max_link_messages[0] == 12);
    CHECK(loads.summary.max_link_messages[1] == 12);
    CHECK(load_of(loads, 0, 0, LinkDirection::Backward) == 4);  // distance 1 backwards only: 1 x 4
    CHECK(loads.summary.longest_route_total_hops() == 4);
}

namespace {

std::string describe(const GridTraffic& t) {
    std::ostringstream out;
    out << grid_label(t.shape) << " members " << t.members[0] << "x" << t.members[1] << "x" << t.members[2]
        << " axis " << t.axis << " pattern " << static_cast<int>(t.pattern) << " distance " << t.distance;
    return out.str();
}

void check_formula(const GridTraffic& t, const AxisLatencies& latency, int& compared) {
    const auto formula = traffic_formula(t, latency);
    if (!formula) return;
    ++compared;
    const TrafficSummary routed = route_traffic(t, latency).summary;
    INFO(describe(t));
    CHECK(formula->max_link_messages == routed.max_link_messages);
    CHECK(formula->longest_route_latency_ns == routed.longest_route_latency_ns);
    CHECK(formula->longest_route_total_hops() == routed.longest_route_total_hops());
}

void all_patterns(const GridShape& shape, const GridCoordinates& members, const AxisLatencies& latency,
                  int& compared) {
    for (int axis = -1; axis < shape.axes; ++axis) {
        for (TrafficPattern p : {TrafficPattern::RingNeighbour, TrafficPattern::AllPairs, TrafficPattern::FirstToSecond})
            check_formula(traffic(shape, members, axis, p), latency, compared);
        const std::int64_t extent = axis < 0 ? box_size(members) : members[static_cast<std::size_t>(axis)];
        for (std::int64_t d = 1; d < extent; d *= 2)
            check_formula(traffic(shape, members, axis, TrafficPattern::XorPartner, d), latency, compared);
    }
}

}  // namespace

TEST_CASE("every closed form equals routing every message") {
    int compared = 0;
    for (const AxisLatencies& latency : {AxisLatencies{50, 50, 50}, AxisLatencies{10, 30, 20}}) {
        for (GridKind kind : {GridKind::Mesh, GridKind::Torus}) {
            for (int x = 2; x <= 6; ++x)
                for (int y = 2; y <= 5; ++y) {
                    const GridShape shape{kind, 2, {x, y, 1}};
                    for (int mx = 1; mx <= x; ++mx)
                        for (int my = 1; my <= y; ++my) all_patterns(shape, {mx, my, 1}, latency, compared);
                }
            for (int x = 2; x <= 4; ++x)
                for (int y = 2; y <= 3; ++y)
                    for (int z = 2; z <= 4; ++z) {
                        const GridShape shape{kind, 3, {x, y, z}};
                        for (const GridCoordinates& m : {GridCoordinates{x, y, z}, GridCoordinates{x, 1, z},
                                                         GridCoordinates{2, y, z - 1}, GridCoordinates{x - 1, y, 1}})
                            all_patterns(shape, m, latency, compared);
                    }
        }
    }
    CHECK(compared > 3000);
}

TEST_CASE("the ring order is a ring of distinct members in every box") {
    for (int x = 1; x <= 5; ++x)
        for (int y = 1; y <= 5; ++y)
            for (int z = 1; z <= 3; ++z) {
                const GridCoordinates members{x, y, z};
                const auto order = ring_order(members, 3);
                std::set<GridCoordinates> distinct(order.begin(), order.end());
                CHECK(distinct.size() == static_cast<std::size_t>(x * y * z));
                for (std::size_t i = 0; i + 1 < order.size(); ++i) {
                    int moved = 0;
                    for (std::size_t a = 0; a < 3; ++a) moved += std::abs(order[i][a] - order[i + 1][a]);
                    CHECK(moved == 1);  // consecutive members are grid neighbours
                }
            }
}
