#pragma once
// Closed forms for the traffic of one step on a mesh or torus (the
// TrafficSummary of grid_traffic.h), each tested against the general
// link-load computation (link_load.h) on many shapes.
//
// Along one line: members at positions 0..m-1 of an axis of n positions, d
// the XorPartner distance (m and d powers of two). Busiest directed link, in
// messages, and the longest route, in hops:
//
//   pattern        mesh axis (a line)            torus axis (a ring), m = n
//   RingNeighbour  1,  m-1 (the way back)        1,  1
//   AllPairs       floor(m/2) ceil(m/2),  m-1    k(k+1)/2,  k   with k = floor(n/2)
//   XorPartner     d,  d                         d,  d
//   FirstToSecond  1,  1                         1,  1
//
// A mesh line: the link p -> p+1 carries every message from positions <= p
// to positions > p, (p+1)(m-1-p) of them for AllPairs; the XorPartner pairs
// of a block of 2d all cross its middle link. A ring: a message routed
// forwards over distance j loads j forward links, and the n messages of each
// distance 1..k spread evenly, so each forward link carries 1 + 2 + ... + k
// (the half-way messages go forwards; backwards carries fewer). A torus axis
// only partly in the group (m < n): RingNeighbour's way back is
// min(m-1, n-m+1) hops; AllPairs is the mesh line's when 2(m-1) < n (no route
// wraps), else that one line's m(m-1) messages are routed (link_load.h).
//
// The whole box as one group (P members):
//   AllPairs       each axis a carries its line's load times P/m_a: the part
//                  of a route along axis a runs in the line fixed by the
//                  destination's coordinates on the axes before a and the
//                  source's on the axes after, P/m_a (source, destination)
//                  choices per line pair; longest = sum of the lines' longest
//                  (corner to corner). A 32x32 mesh: 16*16*32 = 8192 messages.
//   XorPartner     flips one axis's coordinate: that line's formula.
//   RingNeighbour  ring_order(): 1 message per link on every axis it spans;
//                  1 hop per step for an even P (a Hamiltonian cycle), else
//                  the snake's way back from (m_x-1, m_y-1, ...) to the origin.
//
// Returns nullopt where no formula applies (the caller routes every message):
// XorPartner over a group that is not a power of two, FirstToSecond over a
// whole box.
#include <optional>

#include "topology/grid_traffic.h"

namespace dtcalc {

std::optional<TrafficSummary> traffic_formula(const GridTraffic& traffic, const AxisLatencies& latency_ns);

}  // namespace dtcalc
