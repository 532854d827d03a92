#include "topology/grid_blocks.h"

#include <string>

#include "core/error.h"

namespace dtcalc {
namespace {

GridBlock make_block(const Network& network, int first) {
    const Dimension& d0 = network.dimensions[static_cast<std::size_t>(first)];
    GridBlock block;
    block.topology = d0.topology;
    block.first_dimension = first;
    block.shape.kind = d0.topology == Topology::Mesh2D ? GridKind::Mesh : GridKind::Torus;
    block.shape.axes = topology_axes(d0.topology);
    const int count = static_cast<int>(network.dimensions.size());
    if (first + block.shape.axes > count)
        throw InputError({"", 0, 0, "network"},
                         std::string(topology_name(d0.topology)) + " spans " + std::to_string(block.shape.axes) +
                             " consecutive dimensions, but dimension " + std::to_string(first) + " has only " +
                             std::to_string(count - first) + " left");
    for (int a = 0; a < block.shape.axes; ++a) {
        const Dimension& d = network.dimensions[static_cast<std::size_t>(first + a)];
        if (d.topology != d0.topology)
            throw InputError({"", 0, 0, "network"},
                             std::string(topology_name(d0.topology)) + " spans " +
                                 std::to_string(block.shape.axes) + " consecutive dimensions, but dimension " +
                                 std::to_string(first + a) + " is " + std::string(topology_name(d.topology)));
        const auto i = static_cast<std::size_t>(a);
        block.shape.size[i] = d.npus;
        block.bandwidth_gbps[i] = d.bandwidth_gbps;
        block.latency_ns[i] = d.latency_ns;
    }
    for (int k = 0; k < first; ++k) block.inner_npus *= network.dimensions[static_cast<std::size_t>(k)].npus;
    return block;
}

}  // namespace

std::optional<GridBlock> grid_block_at(const Network& network, int dimension) {
    if (dimension < 0 || dimension >= static_cast<int>(network.dimensions.size())) return std::nullopt;
    if (!is_grid_topology(network.dimensions[static_cast<std::size_t>(dimension)].topology)) return std::nullopt;
    int first = 0;
    while (first < static_cast<int>(network.dimensions.size())) {
        const Topology t = network.dimensions[static_cast<std::size_t>(first)].topology;
        const int span = is_grid_topology(t) ? topology_axes(t) : 1;
        if (dimension < first + span) return make_block(network, first);
        first += span;
    }
    return std::nullopt;
}

std::vector<GridBlock> grid_blocks(const Network& network) {
    std::vector<GridBlock> out;
    int first = 0;
    while (first < static_cast<int>(network.dimensions.size())) {
        const Topology t = network.dimensions[static_cast<std::size_t>(first)].topology;
        if (!is_grid_topology(t)) {
            ++first;
            continue;
        }
        out.push_back(make_block(network, first));
        first += out.back().shape.axes;
    }
    return out;
}

}  // namespace dtcalc
