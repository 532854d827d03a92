#pragma once
// The route of one message across a whole network, for `dtcalc route`.
//
// Dimension-order routing throughout: the message fixes its coordinate in
// dimension 0 first, then 1, and so on (innermost first). Inside a Mesh2D or
// Torus block that is XY(Z) routing (dimension_order_route.h); along a Ring
// it goes the shorter way round (half way: forwards), one hop per link; a
// Switch is one 2-hop leg through the switch; FullyConnected one direct hop.
#include <cstdint>
#include <string>
#include <vector>

#include "network/network.h"

namespace dtcalc {

struct RouteLeg {
    std::int64_t from = 0;
    std::int64_t to = 0;
    int dimension = 0;       ///< network dimension whose link it crosses
    Topology topology = Topology::Ring;
    int axis = -1;           ///< axis inside a Mesh2D/Torus block (0 = x), else -1
    int direction = 0;       ///< +1 / -1 along a ring or grid axis; 0 through a switch or a direct link
    int hops = 1;            ///< 2 through a switch
    double latency_ns = 0;   ///< hops x the dimension's latency
};

struct NetworkRoute {
    std::int64_t src = 0;
    std::int64_t dst = 0;
    std::vector<RouteLeg> legs;

    int hops() const;
    double latency_ns() const;
    std::vector<std::int64_t> npus() const;  ///< src, each NPU passed, dst
};

/// Throws InputError naming `src_name` / `dst_name` (e.g. "SRC") when an NPU is
/// outside the network, and (key "network") for a malformed grid.
NetworkRoute route_in_network(const Network& network, std::int64_t src, std::int64_t dst,
                              const std::string& src_name = "SRC", const std::string& dst_name = "DST");

}  // namespace dtcalc
