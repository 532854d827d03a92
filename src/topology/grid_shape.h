#pragma once
// The geometry of a mesh or torus of 2 or 3 axes: NPU ids and coordinates,
// neighbours, directed links, and how far dimension-order routing moves along
// one axis.
//
// NPU id = x + X*y (+ X*Y*z): axis 0 (x) varies fastest, as network
// dimensions do. On the seed's 4x4 mesh NPU 1 is (1,0), NPU 7 is (3,1).
//
// Links are bidirectional; each direction is a separate directed link with
// its own bandwidth (full duplex, as "GB/s per link per direction" says).
// Directed link (node, axis, direction) leaves `node` towards its neighbour one
// position further (+) or back (-) along `axis`. A mesh has no link past its
// border, so a corner NPU of a 2D mesh has 2 neighbours, an edge NPU 3 and an
// inner one 4; on a torus the last position links back to the first, and every
// NPU has 2 neighbours per axis (a 2-long torus axis links the pair twice).
//
// Moving along one axis from position a to b:
//   mesh:  b - a positions (sign = direction), never past the border;
//   torus: the shorter way round; at exactly half way round, forwards (+).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace dtcalc {

enum class GridKind { Mesh, Torus };

using GridCoordinates = std::array<int, 3>;

struct GridShape {
    GridKind kind = GridKind::Mesh;
    int axes = 2;                       ///< 2 or 3
    GridCoordinates size{1, 1, 1};      ///< NPUs along each axis; unused axes are 1

    bool wraps() const { return kind == GridKind::Torus; }
    std::int64_t npus() const;
    std::int64_t stride(int axis) const;  ///< id distance between neighbours along `axis`
    GridCoordinates coordinates(std::int64_t node) const;
    std::int64_t node_at(const GridCoordinates& coordinates) const;
};

/// "Mesh2D 4x4", "Torus3D 4x4x4".
std::string grid_label(const GridShape& shape);
/// "x", "y", "z".
char axis_name(int axis);

enum class LinkDirection { Forward = 0, Backward = 1 };  ///< +1 / -1 along the axis

struct DirectedLink {
    std::int64_t from = 0;
    int axis = 0;
    LinkDirection direction = LinkDirection::Forward;
};

/// Dense index of a directed link, in [0, link_slots(shape)); mesh border slots exist but carry nothing.
inline std::int64_t link_index(const GridShape& shape, std::int64_t from, int axis, LinkDirection direction) {
    return (from * shape.axes + axis) * 2 + static_cast<int>(direction);
}
inline std::int64_t link_slots(const GridShape& shape) { return shape.npus() * shape.axes * 2; }
DirectedLink link_at(const GridShape& shape, std::int64_t index);

bool link_exists(const GridShape& shape, const DirectedLink& link);
/// The NPU a link arrives at.
std::int64_t link_target(const GridShape& shape, const DirectedLink& link);

/// Distinct neighbours of `node`, ascending.
std::vector<std::int64_t> neighbours(const GridShape& shape, std::int64_t node);
/// Bidirectional links at `node`: distinct neighbours (corner 2, edge 3, inner 4 on a 2D mesh).
int degree(const GridShape& shape, std::int64_t node);

/// Signed positions dimension-order routing moves along `axis` to go from
/// position `from` to position `to` (see the header comment).
int axis_displacement(const GridShape& shape, int axis, int from, int to);

}  // namespace dtcalc
