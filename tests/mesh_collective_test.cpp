// Collectives on meshes and tori through the collective engine, worked out by
// hand, and a Torus3D seen as [Ring, Ring, Ring].
//
// Units as in collective_cost_test.cpp: bandwidth 953.67431640625 GB/s makes
// B = 1024 B/ns exactly (ASTRA-sim reads 1 GB as 2^30 B: (1e9/2^20) * 2^30 / 1e9);
// local-mem-bw 1024 GB/s, so a local reduction of m bytes costs 3 floor(m/1024);
// endpoint delay 10 ns per step plus one; latency 50 ns per hop; one chunk.
//
// A grid step (collective/grid_collective.h), L the busiest link's messages, h
// the longest route's hops, b the message bytes:
//   unaware: floor(h * 50 + L * b / 1024)
//   aware:   h * floor(50 + b / 1024) + floor((L - 1) * b / 1024)
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "collective/comm_group.h"
#include "config/preset.h"
#include "core/error.h"
#include "input_error.h"

using dtcalc::testing::error_of;

using namespace dtcalc;

namespace {

constexpr double kGbps1024 = 953.67431640625;
constexpr std::uint64_t kMiB = 1048576;
constexpr auto Unaware = NetworkBackend::AstraUnaware;
constexpr auto Aware = NetworkBackend::AstraAware;

SystemConfig make_system(const std::vector<AlgorithmChoice>& per_dim) {
    SystemConfig s;
    for (auto& list : s.implementation) list = per_dim;
    s.preferred_dataset_splits = 1;
    s.active_chunks_per_dimension = 1;
    s.endpoint_delay_ns = 10;
    s.local_mem_bw_gbps = 1024;
    s.collective_optimization = CollectiveOptimization::LocalBWAware;
    return s;
}

Network grid(Topology topology, std::vector<int> sizes) {
    Network n;
    for (int s : sizes) n.dimensions.push_back({topology, s, kGbps1024, 50});
    return n;
}

double time_of(const Network& net, const SystemConfig& sys, NetworkBackend backend, CollectiveKind kind,
               std::uint64_t bytes) {
    return collective_time(net, sys, backend, {kind, bytes, whole_network_group(net)}).time_ns;
}

double time_of(const Network& net, const SystemConfig& sys, NetworkBackend backend, CollectiveKind kind,
               std::uint64_t bytes, const CommGroup& group) {
    return collective_time(net, sys, backend, {kind, bytes, group}).time_ns;
}

constexpr AlgorithmChoice kRing{AlgorithmKind::Ring, false};
constexpr AlgorithmChoice kDirect{AlgorithmKind::Direct, false};
constexpr AlgorithmChoice kHalvingDoubling{AlgorithmKind::HalvingDoubling, false};
constexpr AlgorithmChoice kOneRing{AlgorithmKind::Ring, true};
constexpr AlgorithmChoice kOneDirect{AlgorithmKind::Direct, true};

}  // namespace

TEST_CASE("ring all-reduce along x, then y, on a 4x4 mesh (localBWAware)") {
    // reduce-scatter along x on 1 MiB: 3 steps of 256 KiB; each row's way back
    // 3 -> 0 is 3 hops, no link shared: floor(150 + 256) = 406 per step.
    //   3 x 406 + 4 x 10 + 3 x 3 x floor(262144/1024) = 1218 + 40 + 2304 = 3562
    // all-reduce along y on 256 KiB: 6 steps of 64 KiB, floor(150 + 64) = 214.
    //   6 x 214 + 7 x 10 + 3 x 3 x 64 = 1284 + 70 + 576 = 1930
    // all-gather along x: 3 x 406 + 40 = 1258.                     Sum: 6750.
    const Network mesh = grid(Topology::Mesh2D, {4, 4});
    const SystemConfig sys = make_system({kRing, kRing});
    CHECK(time_of(mesh, sys, Unaware, CollectiveKind::AllReduce, kMiB) == 6750);
    // Aware: a ring step is 3 x floor(50 + 256) = 918 along x, 3 x floor(50 + 64) = 342 along y:
    //   (2754 + 40 + 2304) + (2052 + 70 + 576) + (2754 + 40) = 10590
    CHECK(time_of(mesh, sys, Aware, CollectiveKind::AllReduce, kMiB) == 10590);
}

TEST_CASE("the 2D-torus all-reduce: every ring step one hop, as on [Ring, Ring]") {
    // Closed form, X x Y torus, one chunk of D, ring reduce-scatter along x, all-reduce
    // along y, all-gather along x, every step one hop on a link of its own:
    //   T = 2(X-1) floor(lat + D/X/B) + 2(Y-1) floor(lat + D/(XY)/B)     steps
    //     + (2X + 2Y - 1) x 10                                          endpoint delays
    //     + (X-1) 3 floor(D/X/1024) + (Y-1) 3 floor(D/(XY)/1024)        reductions
    // X = Y = 4, D = 1 MiB: 6 x 306 + 6 x 114 + 150 + 2304 + 576 = 5550.
    const double expected = 5550;
    const SystemConfig sys = make_system({kRing, kRing});
    CHECK(time_of(grid(Topology::Torus2D, {4, 4}), sys, Unaware, CollectiveKind::AllReduce, kMiB) == expected);
    CHECK(time_of(grid(Topology::Ring, {4, 4}), sys, Unaware, CollectiveKind::AllReduce, kMiB) == expected);
}

TEST_CASE("oneRing on a 4x4 mesh follows the snake: 30 one-hop steps") {
    // 16 members, blocks of 64 KiB: 30 x floor(50 + 64) + 31 x 10 + 15 x 3 x 64 = 3420 + 310 + 2880.
    const Network mesh = grid(Topology::Mesh2D, {4, 4});
    CHECK(time_of(mesh, make_system({kOneRing}), Unaware, CollectiveKind::AllReduce, kMiB) == 6610);
}

TEST_CASE("direct all-to-all on a 4x4 mesh: 16 messages on the busiest link") {
    const Network mesh = grid(Topology::Mesh2D, {4, 4});
    // oneDirect: 240 messages of 64 KiB at once; busiest link 16 (mesh_link_load_test),
    // longest route 6 hops.
    //   unaware: floor(6 x 50 + 16 x 64) + 2 x 10 = 1324 + 20 = 1344
    //   aware:   6 x floor(50 + 64) + floor(15 x 64) + 20 = 684 + 960 + 20 = 1664
    CHECK(time_of(mesh, make_system({kOneDirect}), Unaware, CollectiveKind::AllToAll, kMiB) == 1344);
    CHECK(time_of(mesh, make_system({kOneDirect}), Aware, CollectiveKind::AllToAll, kMiB) == 1664);
    // Per dimension: the whole buffer along x, then along y; along a row of 4 the
    // middle link carries 2 x 2 = 4 messages of 256 KiB, the longest route is 3 hops:
    //   floor(150 + 4 x 256) + 20 = 1194 per phase.
    CHECK(time_of(mesh, make_system({kDirect, kDirect}), Unaware, CollectiveKind::AllToAll, kMiB) == 2 * 1194);
}

TEST_CASE("halving-doubling along a torus axis shares links at distance 2") {
    // Torus2D 4x2, group of the first 4 NPUs (one ring of 4 along x), all-reduce on 1 MiB:
    //   distance 1, 512 KiB: floor(50 + 512) = 562          (twice: first and last step)
    //   distance 2, 256 KiB: pairs (0,2), (1,3) go forwards (half way), every
    //     forward link carries 2 messages over 2 hops: floor(100 + 2 x 256) = 612   (twice)
    //   + 5 x 10 endpoint + one reduction 3 x 256 = 768
    const Network torus = grid(Topology::Torus2D, {4, 2});
    const CommGroup first4 = first_npus_group(torus, 4, "--npus");
    CHECK(time_of(torus, make_system({kHalvingDoubling, kHalvingDoubling}), Unaware, CollectiveKind::AllReduce, kMiB,
                  first4) == 2 * 562 + 2 * 612 + 50 + 768);
    // A Ring dimension does not see the sharing: floor(100 + 256) = 356 at distance 2.
    const Network rings = grid(Topology::Ring, {4, 2});
    CHECK(time_of(rings, make_system({kHalvingDoubling, kHalvingDoubling}), Unaware, CollectiveKind::AllReduce, kMiB,
                  first_npus_group(rings, 4, "--npus")) == 2 * 562 + 2 * 356 + 50 + 768);
}

TEST_CASE("send-recv on a mesh goes one hop to the neighbour") {
    // Outermost spanned dimension y: NPU 0 -> 4, floor(50 + 1024) + 10.
    const Network mesh = grid(Topology::Mesh2D, {4, 4});
    CHECK(time_of(mesh, make_system({kRing, kRing}), Unaware, CollectiveKind::SendRecv, kMiB) == 1084);
}

TEST_CASE("a Torus3D [4,4,4] is the lab's [Ring, Ring, Ring] when no link is shared") {
    const Preset lab = load_preset(std::string(DTCALC_PRESETS_DIR) + "/lab-system1.toml", {});
    Network torus = lab.system.network;
    for (Dimension& d : torus.dimensions) d.topology = Topology::Torus3D;
    SystemConfig one_ring = lab.system.config;
    for (auto& list : one_ring.implementation) list = {kOneRing};
    int checked = 0;
    for (NetworkBackend backend : {Unaware, Aware})
        for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                    CollectiveKind::AllGather, CollectiveKind::AllToAll})
            for (std::uint64_t bytes = 1024; bytes <= (1ull << 30); bytes *= 8)
                for (const SystemConfig* sys : {static_cast<const SystemConfig*>(&lab.system.config), static_cast<const SystemConfig*>(&one_ring)}) {
                    const double rings = time_of(lab.system.network, *sys, backend, kind, bytes);
                    const double grid_time = time_of(torus, *sys, backend, kind, bytes);
                    INFO(collective_kind_name(kind), " ", bytes, " B, ", network_backend_name(backend));
                    CHECK(grid_time == doctest::Approx(rings).epsilon(0.01));
                    CHECK(grid_time == rings);  // in fact to the nanosecond
                    ++checked;
                }
    CHECK(checked == 2 * 4 * 7 * 2);
}

TEST_CASE("mesh and torus collectives reject what they cannot model") {
    const Network mesh = grid(Topology::Mesh2D, {4, 4});
    CHECK(error_of([&] {
              time_of(mesh, make_system({{AlgorithmKind::DoubleBinaryTree, false}, kRing}), Unaware,
                      CollectiveKind::AllReduce, kMiB);
          }) == "collective: doubleBinaryTree is not modelled on Mesh2D dimensions (use ring, direct or "
                "halvingDoubling there)");
    Network mixed = mesh;
    mixed.dimensions.push_back({Topology::Switch, 2, kGbps1024, 50});
    CHECK(error_of([&] { time_of(mixed, make_system({kOneRing}), Unaware, CollectiveKind::AllReduce, kMiB); }) ==
          "collective: a flat (one*) algorithm over a Mesh2D/Torus grid and other dimensions is not modelled; use "
          "per-dimension algorithms, or a group inside the grid");
    // The same flat algorithm on a group inside the mesh is fine.
    CHECK(time_of(mixed, make_system({kOneRing}), Unaware, CollectiveKind::AllReduce, kMiB,
                  first_npus_group(mixed, 16, "--npus")) == 6610);
}
