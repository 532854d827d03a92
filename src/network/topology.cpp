#include "network/topology.h"

#include <algorithm>

namespace dtcalc {

std::optional<Topology> parse_topology(std::string_view name) {
    if (name == "Ring") return Topology::Ring;
    if (name == "Switch") return Topology::Switch;
    if (name == "FullyConnected") return Topology::FullyConnected;
    if (name == "Mesh2D") return Topology::Mesh2D;
    if (name == "Torus2D") return Topology::Torus2D;
    if (name == "Torus3D") return Topology::Torus3D;
    return std::nullopt;
}

std::string_view topology_name(Topology topology) {
    switch (topology) {
        case Topology::Ring: return "Ring";
        case Topology::Switch: return "Switch";
        case Topology::FullyConnected: return "FullyConnected";
        case Topology::Mesh2D: return "Mesh2D";
        case Topology::Torus2D: return "Torus2D";
        case Topology::Torus3D: return "Torus3D";
    }
    return "?";
}

bool is_grid_topology(Topology topology) {
    return topology == Topology::Mesh2D || topology == Topology::Torus2D || topology == Topology::Torus3D;
}

int topology_axes(Topology topology) {
    switch (topology) {
        case Topology::Mesh2D:
        case Topology::Torus2D: return 2;
        case Topology::Torus3D: return 3;
        default: return 1;
    }
}

int hops_between(Topology topology, int npus, int a, int b) {
    if (a == b) return 0;
    switch (topology) {
        case Topology::FullyConnected: return 1;
        case Topology::Switch: return 2;
        case Topology::Mesh2D: return a < b ? b - a : a - b;
        case Topology::Ring:
        case Topology::Torus2D:
        case Topology::Torus3D: {
            const int forward = ((b - a) % npus + npus) % npus;
            return std::min(forward, npus - forward);
        }
    }
    return 0;
}

int hops_at_distance(Topology topology, int npus, int group_size, int distance) {
    distance = ((distance % group_size) + group_size) % group_size;
    if (distance == 0) return 0;
    if (topology == Topology::Mesh2D) return std::max(distance, group_size - distance);  // the wrap goes back along the line
    if (topology != Topology::Ring && !is_grid_topology(topology)) return hops_between(topology, npus, 0, 1);
    // Members 0..group_size-1; member i sends to (i + distance) mod group_size.
    // Without wrap the ring distance is `distance`; with wrap it is
    // group_size - distance positions back. Worst case over the members.
    const int straight = hops_between(topology, npus, 0, distance);
    const int wrapped = hops_between(topology, npus, group_size - distance, 0);
    return std::max(straight, wrapped);
}

}  // namespace dtcalc
