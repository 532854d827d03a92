#include "topology/grid_shape.h"

#include <algorithm>

namespace dtcalc {

std::int64_t GridShape::npus() const {
    std::int64_t n = 1;
    for (int a = 0; a < axes; ++a) n *= size[static_cast<std::size_t>(a)];
    return n;
}

std::int64_t GridShape::stride(int axis) const {
    std::int64_t s = 1;
    for (int a = 0; a < axis; ++a) s *= size[static_cast<std::size_t>(a)];
    return s;
}

GridCoordinates GridShape::coordinates(std::int64_t node) const {
    GridCoordinates c{0, 0, 0};
    for (int a = 0; a < axes; ++a) {
        const int n = size[static_cast<std::size_t>(a)];
        c[static_cast<std::size_t>(a)] = static_cast<int>(node % n);
        node /= n;
    }
    return c;
}

std::int64_t GridShape::node_at(const GridCoordinates& c) const {
    std::int64_t id = 0;
    for (int a = axes; a-- > 0;) id = id * size[static_cast<std::size_t>(a)] + c[static_cast<std::size_t>(a)];
    return id;
}

std::string grid_label(const GridShape& shape) {
    std::string label = shape.kind == GridKind::Mesh ? "Mesh" : "Torus";
    label += std::to_string(shape.axes) + "D ";
    for (int a = 0; a < shape.axes; ++a) {
        if (a) label += "x";
        label += std::to_string(shape.size[static_cast<std::size_t>(a)]);
    }
    return label;
}

char axis_name(int axis) { return static_cast<char>('x' + axis); }

DirectedLink link_at(const GridShape& shape, std::int64_t index) {
    DirectedLink link;
    link.direction = static_cast<LinkDirection>(index % 2);
    index /= 2;
    link.axis = static_cast<int>(index % shape.axes);
    link.from = index / shape.axes;
    return link;
}

bool link_exists(const GridShape& shape, const DirectedLink& link) {
    if (shape.wraps()) return true;
    const int position = shape.coordinates(link.from)[static_cast<std::size_t>(link.axis)];
    const int n = shape.size[static_cast<std::size_t>(link.axis)];
    return link.direction == LinkDirection::Forward ? position + 1 < n : position > 0;
}

std::int64_t link_target(const GridShape& shape, const DirectedLink& link) {
    GridCoordinates c = shape.coordinates(link.from);
    const auto a = static_cast<std::size_t>(link.axis);
    const int n = shape.size[a];
    c[a] = (c[a] + (link.direction == LinkDirection::Forward ? 1 : n - 1)) % n;
    return shape.node_at(c);
}

std::vector<std::int64_t> neighbours(const GridShape& shape, std::int64_t node) {
    std::vector<std::int64_t> out;
    for (int a = 0; a < shape.axes; ++a)
        for (LinkDirection d : {LinkDirection::Forward, LinkDirection::Backward}) {
            const DirectedLink link{node, a, d};
            if (!link_exists(shape, link)) continue;
            const std::int64_t other = link_target(shape, link);
            if (other != node) out.push_back(other);
        }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

int degree(const GridShape& shape, std::int64_t node) { return static_cast<int>(neighbours(shape, node).size()); }

int axis_displacement(const GridShape& shape, int axis, int from, int to) {
    const int straight = to - from;
    if (!shape.wraps() || straight == 0) return straight;
    const int n = shape.size[static_cast<std::size_t>(axis)];
    const int forward = ((straight % n) + n) % n;  // positions going +
    const int backward = n - forward;              // positions going -
    return forward <= backward ? forward : -backward;
}

}  // namespace dtcalc
