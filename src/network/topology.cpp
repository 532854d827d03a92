#include "network/topology.h"

#include <algorithm>

namespace dtcalc {

std::optional<Topology> parse_topology(std::string_view name) {
    if (name == "Ring") return Topology::Ring;
    if (name == "Switch") return Topology::Switch;
    if (name == "FullyConnected") return Topology::FullyConnected;
    return std::nullopt;
}

std::string_view topology_name(Topology topology) {
    switch (topology) {
        case Topology::Ring: return "Ring";
        case Topology::Switch: return "Switch";
        case Topology::FullyConnected: return "FullyConnected";
    }
    return "?";
}

int hops_between(Topology topology, int npus, int a, int b) {
    if (a == b) return 0;
    switch (topology) {
        case Topology::FullyConnected: return 1;
        case Topology::Switch: return 2;
        case Topology::Ring: {
            const int forward = ((b - a) % npus + npus) % npus;
            return std::min(forward, npus - forward);
        }
    }
    return 0;
}

int hops_at_distance(Topology topology, int npus, int group_size, int distance) {
    distance = ((distance % group_size) + group_size) % group_size;
    if (distance == 0) return 0;
    if (topology != Topology::Ring) return hops_between(topology, npus, 0, 1);
    // Members 0..group_size-1; member i sends to (i + distance) mod group_size.
    // Without wrap the ring distance is `distance`; with wrap it is
    // group_size - distance positions back. Worst case over the members.
    const int straight = hops_between(topology, npus, 0, distance);
    const int wrapped = hops_between(topology, npus, group_size - distance, 0);
    return std::max(straight, wrapped);
}

}  // namespace dtcalc
