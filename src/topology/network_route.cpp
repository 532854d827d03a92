#include "topology/network_route.h"

#include "core/error.h"
#include "topology/dimension_order_route.h"
#include "topology/grid_blocks.h"

namespace dtcalc {
namespace {

void check_npu(const Network& network, std::int64_t npu, const std::string& name) {
    const std::int64_t total = network.total_npus();
    if (npu < 0 || npu >= total)
        throw InputError({name, 0, 0, ""}, "NPU " + std::to_string(npu) + " is outside the network (it has NPUs 0 to " +
                                               std::to_string(total - 1) + ")");
}

std::int64_t with_coordinate(const Network& network, std::vector<int> coordinates, int dimension, int value) {
    coordinates[static_cast<std::size_t>(dimension)] = value;
    return network.npu_at(coordinates);
}

}  // namespace

int NetworkRoute::hops() const {
    int n = 0;
    for (const RouteLeg& leg : legs) n += leg.hops;
    return n;
}

double NetworkRoute::latency_ns() const {
    double ns = 0;
    for (const RouteLeg& leg : legs) ns += leg.latency_ns;
    return ns;
}

std::vector<std::int64_t> NetworkRoute::npus() const {
    std::vector<std::int64_t> out{src};
    for (const RouteLeg& leg : legs) out.push_back(leg.to);
    return out;
}

NetworkRoute route_in_network(const Network& network, std::int64_t src, std::int64_t dst, const std::string& src_name,
                              const std::string& dst_name) {
    check_npu(network, src, src_name);
    check_npu(network, dst, dst_name);
    NetworkRoute route{src, dst, {}};
    std::vector<int> at = network.coordinates(src);
    const std::vector<int> target = network.coordinates(dst);
    const int count = static_cast<int>(network.dimensions.size());
    for (int d = 0; d < count;) {
        const Dimension& dim = network.dimensions[static_cast<std::size_t>(d)];
        if (is_grid_topology(dim.topology)) {
            const GridBlock block = *grid_block_at(network, d);
            GridCoordinates from{0, 0, 0}, to{0, 0, 0};
            for (int a = 0; a < block.shape.axes; ++a) {
                from[static_cast<std::size_t>(a)] = at[static_cast<std::size_t>(d + a)];
                to[static_cast<std::size_t>(a)] = target[static_cast<std::size_t>(d + a)];
            }
            for (const GridHop& hop : dimension_order_route(block.shape, block.shape.node_at(from), block.shape.node_at(to))) {
                const GridCoordinates next = block.shape.coordinates(hop.to);
                const int dimension = d + hop.link.axis;
                RouteLeg leg;
                leg.from = network.npu_at(at);
                at[static_cast<std::size_t>(dimension)] = next[static_cast<std::size_t>(hop.link.axis)];
                leg.to = network.npu_at(at);
                leg.dimension = dimension;
                leg.topology = dim.topology;
                leg.axis = hop.link.axis;
                leg.direction = hop.link.direction == LinkDirection::Forward ? 1 : -1;
                leg.latency_ns = network.dimensions[static_cast<std::size_t>(dimension)].latency_ns;
                route.legs.push_back(leg);
            }
            d += block.shape.axes;
            continue;
        }
        const auto i = static_cast<std::size_t>(d);
        if (at[i] != target[i]) {
            if (dim.topology == Topology::Ring) {
                const int n = dim.npus;
                const int forward = ((target[i] - at[i]) % n + n) % n;
                const int step = forward <= n - forward ? 1 : -1;
                while (at[i] != target[i]) {
                    RouteLeg leg{network.npu_at(at), 0, d, dim.topology, -1, step, 1, dim.latency_ns};
                    at[i] = (at[i] + step + n) % n;
                    leg.to = network.npu_at(at);
                    route.legs.push_back(leg);
                }
            } else {
                const int hops = hops_between(dim.topology, dim.npus, at[i], target[i]);
                RouteLeg leg{network.npu_at(at), with_coordinate(network, at, d, target[i]), d, dim.topology, -1, 0,
                             hops, hops * dim.latency_ns};
                at[i] = target[i];
                route.legs.push_back(leg);
            }
        }
        ++d;
    }
    return route;
}

}  // namespace dtcalc
