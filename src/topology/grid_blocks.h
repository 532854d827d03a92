#pragma once
// Where a network's meshes and tori are. A Mesh2D or Torus2D entry of the
// network spans 2 consecutive dimensions, a Torus3D 3 (topology.h): one
// dimension per coordinate axis, x first. Consecutive dimensions of one grid
// topology pair up from the first (Mesh2D, Mesh2D, Mesh2D, Mesh2D is two
// meshes). Each axis keeps its own bandwidth and latency (the network reader
// gives all axes of one entry the same).
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "network/network.h"
#include "topology/grid_shape.h"
#include "topology/grid_traffic.h"

namespace dtcalc {

struct GridBlock {
    Topology topology = Topology::Mesh2D;
    int first_dimension = 0;
    GridShape shape;
    std::array<double, 3> bandwidth_gbps{0, 0, 0};  ///< per axis, per link per direction
    AxisLatencies latency_ns{0, 0, 0};              ///< per axis, per hop
    std::int64_t inner_npus = 1;                    ///< NPUs of the dimensions inside the block

    /// The network's NPU id of block member `local`, all other dimensions at 0.
    std::int64_t network_npu(std::int64_t local) const { return local * inner_npus; }
};

/// The block holding dimension `dimension`, or nullopt when it is no grid
/// axis. Throws InputError (key "network") when a grid topology's consecutive
/// dimensions do not split into whole blocks.
std::optional<GridBlock> grid_block_at(const Network& network, int dimension);

/// Every block, innermost first.
std::vector<GridBlock> grid_blocks(const Network& network);

}  // namespace dtcalc
