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

int farthest_hops_within(Topology topology, int npus, int group_size, int max_distance) {
    const int last = std::min(max_distance, group_size - 1);
    if (last < 1) return 0;
    if (topology != Topology::Ring) {
        int hops = 0;
        for (int d = 1; d <= last; ++d) hops = std::max(hops, hops_at_distance(topology, npus, group_size, d));
        return hops;
    }
    // On a Ring of N, a group of G sends from member i to i + d. Straight on,
    // that is min(d, N - d) hops, largest at d = min(last, N / 2). The wrap
    // from member G - d to member 0 is min(G - d, N - G + d) hops: it rises
    // and falls in d, peaking at d = G - N / 2, so the integers either side of
    // that peak (kept within 1..last) and the ends hold its largest value.
    const int straight = std::min(last, npus / 2);
    auto wrapped = [&](int d) { return std::min(group_size - d, npus - group_size + d); };
    const int peak = group_size - npus / 2;
    int hops = std::max({straight, wrapped(1), wrapped(last)});
    for (const int d : {peak - 1, peak, peak + 1})
        if (d >= 1 && d <= last) hops = std::max(hops, wrapped(d));
    return hops;
}

}  // namespace dtcalc
