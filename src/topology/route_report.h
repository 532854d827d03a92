#pragma once
// Writers for `dtcalc route`: a table a person reads, or JSON with the keys
// src, dst, hops, latency_ns, npus (the path) and legs (from, to, dimension,
// topology, step, hops, latency_ns).
#include <ostream>

#include "network/network.h"
#include "topology/network_route.h"

namespace dtcalc {

void write_route_table(std::ostream& out, const Network& network, const NetworkRoute& route);
void write_route_json(std::ostream& out, const NetworkRoute& route);

}  // namespace dtcalc
