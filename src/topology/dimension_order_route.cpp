#include "topology/dimension_order_route.h"

#include <cstdlib>

namespace dtcalc {

std::vector<GridHop> dimension_order_route(const GridShape& shape, std::int64_t src, std::int64_t dst) {
    std::vector<GridHop> hops;
    GridCoordinates at = shape.coordinates(src);
    const GridCoordinates target = shape.coordinates(dst);
    std::int64_t node = src;
    for (int a = 0; a < shape.axes; ++a) {
        const auto i = static_cast<std::size_t>(a);
        const int move = axis_displacement(shape, a, at[i], target[i]);
        const LinkDirection direction = move > 0 ? LinkDirection::Forward : LinkDirection::Backward;
        for (int step = 0; step < std::abs(move); ++step) {
            const DirectedLink link{node, a, direction};
            const std::int64_t next = link_target(shape, link);
            hops.push_back({node, next, link});
            node = next;
        }
        at[i] = target[i];
    }
    return hops;
}

GridCoordinates route_hops_per_axis(const GridShape& shape, const GridCoordinates& src, const GridCoordinates& dst) {
    GridCoordinates hops{0, 0, 0};
    for (int a = 0; a < shape.axes; ++a) {
        const auto i = static_cast<std::size_t>(a);
        hops[i] = std::abs(axis_displacement(shape, a, src[i], dst[i]));
    }
    return hops;
}

}  // namespace dtcalc
