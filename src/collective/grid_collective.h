#pragma once
// Collective steps on mesh and torus dimensions: what the collective engine
// (collective/collective_cost.cpp) calls for a phase on a Mesh2D/Torus axis,
// in place of the per-dimension link cost of link_cost.h.
//
// Which messages a step sends (topology/grid_traffic.h):
//   ring              RingNeighbour (also ring all-to-all's steps)
//   direct            AllPairs
//   halvingDoubling   XorPartner at the step's peer distance
//   send-recv         FirstToSecond
//   doubleBinaryTree  not modelled on a grid (InputError)
// A phase on one grid axis runs the pattern on every line of the group's box
// along that axis at once (a dimension-wise algorithm: ring along x, then y);
// a flat `one*` phase takes the whole box as one group (a snake ring, a direct
// all-to-all routed XY), and its group must lie inside one grid.
//
// A step's cost, from its TrafficSummary (L_a the busiest directed link's
// messages along axis a, h_a the longest route's hops along a, b the message
// bytes, B_a = astra_bytes_per_ns(bandwidth_a), lat_a the per-hop latency):
//   astra-unaware:  floor( sum_a h_a lat_a  +  max_a L_a b / B_a )
//   astra-aware:    sum_a h_a floor(lat_a + b / B_a)  +  floor( max_a (L_a - 1) b / B_a )
// that is: the longest route's latency plus the busiest link's bytes over its
// bandwidth; the congestion-aware flavour forwards store-and-forward along the
// route and queues the busiest link's other messages ahead. With no shared
// link (L = 1) and one hop, both are exactly a Ring dimension's step
// (link_cost.h): a Torus3D and [Ring, Ring, Ring] give the same ring all-reduce.
// The summary comes from topology/traffic_formulas.h where a formula exists,
// else from routing every message (topology/link_load.h).
#include <cstdint>
#include <optional>

#include "collective/algorithm_steps.h"
#include "collective/backend.h"
#include "collective/comm_group.h"
#include "collective/link_cost.h"
#include "network/network.h"
#include "topology/grid_blocks.h"
#include "topology/grid_traffic.h"

namespace dtcalc {

struct GridPhase {
    GridBlock block;
    GridCoordinates members{1, 1, 1};  ///< the group's box on the grid
    int axis = -1;                     ///< the phase's axis in the grid, or -1 for a flat phase
};

/// The grid a phase on network dimension `dimension` (flat: the group's
/// dimensions) runs on; nullopt when it is no grid. Throws InputError (key
/// "collective") for a flat phase over a grid and other dimensions.
std::optional<GridPhase> grid_phase(const Network& network, const CommGroup& group, int dimension, bool flat);

/// The messages of one step of `algorithm`. Throws InputError (key
/// "collective") for doubleBinaryTree.
GridTraffic step_traffic(const GridPhase& phase, AlgorithmKind algorithm, const StepRun& run);

/// The step's summary: closed form where one exists, else every message routed.
TrafficSummary step_summary(const GridPhase& phase, const GridTraffic& traffic);

/// What the summary costs for messages of `bytes` (the header's formulas).
StepCost grid_traffic_cost(const GridBlock& block, NetworkBackend backend, const TrafficSummary& summary,
                           std::uint64_t bytes);

/// One step of `run` of `algorithm` on the phase's grid.
StepCost grid_step_cost(const GridPhase& phase, NetworkBackend backend, AlgorithmKind algorithm, const StepRun& run);

/// A send-recv of `bytes` from the group's first NPU to its neighbour along the phase's axis.
StepCost grid_send_cost(const GridPhase& phase, NetworkBackend backend, std::uint64_t bytes);

}  // namespace dtcalc
