// Mesh and torus geometry, XY routing, and how networks with Mesh2D/Torus
// entries are read. Expected values are worked out by hand on the seed's
// 4x4 mesh (seed 004, Part 1): NPU id = x + 4y, so
//      y=3: 12 13 14 15
//      y=2:  8  9 10 11
//      y=1:  4  5  6  7
//      y=0:  0  1  2  3
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "config/network_config.h"
#include "core/error.h"
#include "temp_file.h"
#include "topology/dimension_order_route.h"
#include "topology/grid_blocks.h"
#include "topology/grid_shape.h"
#include "topology/network_route.h"
#include "input_error.h"

using dtcalc::testing::error_of;

using namespace dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

const GridShape kMesh4x4{GridKind::Mesh, 2, {4, 4, 1}};

std::vector<std::int64_t> path_of(const GridShape& shape, std::int64_t src, std::int64_t dst) {
    std::vector<std::int64_t> path{src};
    for (const GridHop& hop : dimension_order_route(shape, src, dst)) path.push_back(hop.to);
    return path;
}

}  // namespace

TEST_CASE("a 4x4 mesh: corners have 2 links, edges 3, inner NPUs 4") {
    for (std::int64_t corner : {0, 3, 12, 15}) CHECK(degree(kMesh4x4, corner) == 2);
    for (std::int64_t edge : {1, 2, 4, 8, 7, 11, 13, 14}) CHECK(degree(kMesh4x4, edge) == 3);
    for (std::int64_t inner : {5, 6, 9, 10}) CHECK(degree(kMesh4x4, inner) == 4);
    CHECK(neighbours(kMesh4x4, 5) == std::vector<std::int64_t>{1, 4, 6, 9});
    CHECK(neighbours(kMesh4x4, 0) == std::vector<std::int64_t>{1, 4});
    // 2 x 4 x 3 = 24 bidirectional links: 48 directed ones exist.
    int directed = 0;
    for (std::int64_t k = 0; k < link_slots(kMesh4x4); ++k) directed += link_exists(kMesh4x4, link_at(kMesh4x4, k));
    CHECK(directed == 48);
}

TEST_CASE("a torus wraps: every NPU has two neighbours per axis") {
    const GridShape torus{GridKind::Torus, 2, {4, 4, 1}};
    for (std::int64_t n = 0; n < 16; ++n) CHECK(degree(torus, n) == 4);
    CHECK(neighbours(torus, 0) == std::vector<std::int64_t>{1, 3, 4, 12});
    const GridShape cube{GridKind::Torus, 3, {4, 4, 4}};
    CHECK(degree(cube, 0) == 6);
    CHECK(cube.coordinates(21) == GridCoordinates{1, 1, 1});  // 1 + 4 + 16
}

TEST_CASE("XY routing: the seed's two examples") {
    CHECK(path_of(kMesh4x4, 1, 7) == std::vector<std::int64_t>{1, 2, 3, 7});
    CHECK(path_of(kMesh4x4, 14, 5) == std::vector<std::int64_t>{14, 13, 9, 5});
    // x first, then y: 0 -> 15 goes along the bottom row, then up the right column.
    CHECK(path_of(kMesh4x4, 0, 15) == std::vector<std::int64_t>{0, 1, 2, 3, 7, 11, 15});
    CHECK(path_of(kMesh4x4, 15, 0) == std::vector<std::int64_t>{15, 14, 13, 12, 8, 4, 0});
    CHECK(dimension_order_route(kMesh4x4, 6, 6).empty());
    const auto hops = dimension_order_route(kMesh4x4, 1, 7);
    CHECK(hops[0].link.axis == 0);
    CHECK(hops[0].link.direction == LinkDirection::Forward);
    CHECK(hops[2].link.axis == 1);
}

TEST_CASE("torus routing takes the shorter way round, forwards at half way") {
    const GridShape torus{GridKind::Torus, 2, {4, 4, 1}};
    CHECK(path_of(torus, 0, 3) == std::vector<std::int64_t>{0, 3});             // x: 0 -> 3 backwards, 1 hop
    CHECK(path_of(torus, 0, 2) == std::vector<std::int64_t>{0, 1, 2});          // half way: forwards
    CHECK(path_of(torus, 3, 12) == std::vector<std::int64_t>{3, 0, 12});        // x 3 -> 0 forwards, y 0 -> 3 back
    CHECK(axis_displacement(torus, 0, 3, 1) == 2);  // (1 - 3) mod 4 = 2 forwards, tie
    CHECK(axis_displacement(torus, 0, 1, 0) == -1);
    const GridShape cube{GridKind::Torus, 3, {4, 4, 4}};
    // (0,0,0) -> (3,2,1): x back 1, y forwards 2, z forwards 1.
    CHECK(route_hops_per_axis(cube, {0, 0, 0}, {3, 2, 1}) == GridCoordinates{1, 2, 1});
}

TEST_CASE("network YAML: a Mesh2D entry spans two npus_count entries") {
    const std::string path = write_temp_file("mesh.yml",
                                             "topology: [ Mesh2D ]\nnpus_count: [ 4, 4 ]\n"
                                             "bandwidth: [ 100 ]\nlatency: [ 50 ]\n");
    const Network n = load_astra_network_yaml(path);
    REQUIRE(n.dimensions.size() == 2);
    CHECK(n.total_npus() == 16);
    for (const Dimension& d : n.dimensions) {
        CHECK(d.topology == Topology::Mesh2D);
        CHECK(d.npus == 4);
        CHECK(d.bandwidth_gbps == 100);
        CHECK(d.latency_ns == 50);
    }
    const auto block = grid_block_at(n, 1);
    REQUIRE(block);
    CHECK(block->first_dimension == 0);
    CHECK(grid_label(block->shape) == "Mesh2D 4x4");
}

TEST_CASE("network YAML: grids next to other dimensions") {
    const std::string path = write_temp_file("mixed.yml",
                                             "topology: [ Switch, Torus3D, Mesh2D ]\nnpus_count: [ 8, 4, 4, 2, 3, 2 ]\n"
                                             "bandwidth: [ 400, 50, 25 ]\nlatency: [ 100, 500, 700 ]\n");
    const Network n = load_astra_network_yaml(path);
    REQUIRE(n.dimensions.size() == 6);
    CHECK(n.total_npus() == 8 * 32 * 6);
    CHECK(n.dimensions[3].topology == Topology::Torus3D);
    CHECK(n.dimensions[3].bandwidth_gbps == 50);
    CHECK(n.dimensions[5].topology == Topology::Mesh2D);
    CHECK(n.dimensions[5].latency_ns == 700);
    const auto blocks = grid_blocks(n);
    REQUIRE(blocks.size() == 2);
    CHECK(blocks[0].first_dimension == 1);
    CHECK(blocks[0].inner_npus == 8);
    CHECK(grid_label(blocks[0].shape) == "Torus3D 4x4x2");
    CHECK(blocks[1].first_dimension == 4);
    CHECK(blocks[1].inner_npus == 256);
    CHECK(blocks[1].network_npu(1) == 256);
}

TEST_CASE("network YAML: mesh and torus errors name the entry") {
    SUBCASE("X and Y not both given") {
        const std::string path = write_temp_file("mesh16.yml",
                                                 "topology: [ Mesh2D ]\nnpus_count: [ 16 ]\n"
                                                 "bandwidth: [ 100 ]\nlatency: [ 50 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(path); }) ==
              path + ":2:15: npus_count: has 1 entries but 'topology' needs 2 (one per dimension; Mesh2D and "
                     "Torus2D take two, X then Y, and Torus3D three)");
    }
    SUBCASE("an axis of size 1") {
        const std::string path = write_temp_file("mesh41.yml",
                                                 "topology: [ Mesh2D ]\nnpus_count: [ 4, 1 ]\n"
                                                 "bandwidth: [ 100 ]\nlatency: [ 50 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(path); }) ==
              path + ":2:18: npus_count[1]: Mesh2D needs at least 2 NPUs along each axis (got 1 along y); "
                     "use Ring for a single line");
    }
    SUBCASE("one bandwidth per topology entry, not per axis") {
        const std::string path = write_temp_file("meshbw.yml",
                                                 "topology: [ Mesh2D ]\nnpus_count: [ 4, 4 ]\n"
                                                 "bandwidth: [ 100, 100 ]\nlatency: [ 50 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(path); }) ==
              path + ":3:14: bandwidth: has 2 entries but 'topology' has 1 (one per dimension)");
    }
    SUBCASE("a misspelt grid name lists the grids") {
        const std::string path = write_temp_file("mesh2.yml",
                                                 "topology: [ Mesh ]\nnpus_count: [ 4, 4 ]\n"
                                                 "bandwidth: [ 100 ]\nlatency: [ 50 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(path); }) ==
              path + ":1:13: topology[0]: unknown topology 'Mesh' (expected Ring, Switch, FullyConnected, Mesh2D, "
                     "Torus2D or Torus3D)");
    }
}

TEST_CASE("a programmatic network whose grid axes do not pair up is an error") {
    Network n;
    n.dimensions = {{Topology::Mesh2D, 4, 100, 50}, {Topology::Ring, 4, 100, 50}};
    CHECK(error_of([&] { (void)grid_block_at(n, 0); }) ==
          "network: Mesh2D spans 2 consecutive dimensions, but dimension 1 is Ring");
    n.dimensions = {{Topology::Torus3D, 4, 100, 50}, {Topology::Torus3D, 4, 100, 50}};
    CHECK(error_of([&] { (void)grid_block_at(n, 1); }) ==
          "network: Torus3D spans 3 consecutive dimensions, but dimension 0 has only 2 left");
}

TEST_CASE("routes across a whole network: dimension order, innermost first") {
    Network n;
    // dim 0: Switch of 2; dims 1-2: a 4x4 mesh; dim 3: Ring of 4. NPU = s + 2(x + 4y) + 32 r.
    n.dimensions = {{Topology::Switch, 2, 100, 500},
                    {Topology::Mesh2D, 4, 100, 50},
                    {Topology::Mesh2D, 4, 100, 50},
                    {Topology::Ring, 4, 100, 20}};
    // From s=0,(1,0),r=0 = 2 to s=1,(3,1),r=3 = 1 + 2*7 + 96 = 111:
    // switch (2 hops), x+ x+ y+ (3 hops), ring 0 -> 3 the short way back (1 hop).
    const NetworkRoute route = route_in_network(n, 2, 111);
    CHECK(route.npus() == std::vector<std::int64_t>{2, 3, 5, 7, 15, 111});
    CHECK(route.hops() == 2 + 3 + 1);
    CHECK(route.latency_ns() == 2 * 500 + 3 * 50 + 20);
    CHECK(route.legs[0].topology == Topology::Switch);
    CHECK(route.legs[3].axis == 1);
    CHECK(route.legs[4].direction == -1);
    CHECK(error_of([&] { route_in_network(n, 0, 128); }) == "DST: NPU 128 is outside the network (it has NPUs 0 to 127)");
    CHECK(error_of([&] { route_in_network(n, -1, 3); }) == "SRC: NPU -1 is outside the network (it has NPUs 0 to 127)");
}
