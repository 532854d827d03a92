#pragma once
// Dimension-order routing on a mesh or torus: a message first moves along x
// until its x coordinate is the destination's, then along y, then along z
// (XY routing on a 2D mesh, XYZ on a 3D torus). Along each axis it moves as
// axis_displacement() says (grid_shape.h). The route is deterministic, so the
// links a message crosses are known in closed form.
//
// Seed 004's examples on a 4x4 mesh: 1 -> 2 -> 3 -> 7 and 14 -> 13 -> 9 -> 5.
#include <cstdint>
#include <vector>

#include "topology/grid_shape.h"

namespace dtcalc {

struct GridHop {
    std::int64_t from = 0;
    std::int64_t to = 0;
    DirectedLink link;
};

/// The hops from `src` to `dst` (both in [0, shape.npus())); empty when src == dst.
std::vector<GridHop> dimension_order_route(const GridShape& shape, std::int64_t src, std::int64_t dst);

/// Hops along each axis, without listing them.
GridCoordinates route_hops_per_axis(const GridShape& shape, const GridCoordinates& src, const GridCoordinates& dst);

}  // namespace dtcalc
