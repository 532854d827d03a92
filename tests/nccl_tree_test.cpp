// A tree all-reduce as it runs (nccl_bandwidth.h): the chain of GPUs inside a
// node, the NICs across NCCL's two trees. Every expected value is worked out by
// hand in the comment beside it from the preset's hardware facts, NCCL's rules
// and the traffic each GPU and NIC carries.
#include <doctest/doctest.h>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_latency.h"
#include "config/preset.h"
#include "nccl_run.h"

using namespace dtcalc;
using namespace dtcalc::testing;

TEST_CASE("a tree all-reduce on two nodes: the NICs carry each byte once per direction, the node's chain twice") {
    // On two nodes each of NCCL's two trees is one edge between the nodes: a
    // node's NICs send its half up one tree and the other half down the other,
    // S per direction, while every inner GPU of the chain inside the node sends
    // each byte twice (up and down), 2S. Beyond two nodes an inner node's NICs also
    // carry 2S. So the tree's link (halved by the tree's factor 2) is
    // min(NVLink, 2 x node network) on two nodes, the doubled network alone with
    // one GPU per node (NCCL's tuning: `nNodes <= 2 ? bwIntra : bwInter`; its
    // maintainers: "2x less traffic on the network than on the intra-node
    // connections", NVIDIA/nccl#946). Forced tree/Simple, 16 GiB, H100 NDR.
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    const NcclForce tree_simple = NcclForce::only(NcclAlgorithm::Tree, NcclProtocol::Simple);
    // The tree as it runs streams at its links' rate: NCCL's 0.92 and its
    // per-channel caps, taken per graph channel, steer its choice only (the
    // caps here apply per running channel, twice the graph's, and do not bind).
    // 2 x 1: one NIC at its payload 49.15, doubled: 98.3; bus min(98.3, 4
    // channels x 41.4 = 165.6) = 98.3, algbw 49.15 GB/s (one H100 per node over
    // NDR, NCCL_ALGO=Tree: "busbw is 50" at its largest sizes, NVIDIA/nccl-tests#232,
    // where NCCL's tuning says 41.4; the network rate of the other shapes' 2S
    // rule would give half). 17179869184 / 49.15 = 349539556.1 ns; latency 8.4
    // + 2 x (0 x 4.0 + 1 x 14) = 36.4 us.
    const Run g1 = run(ib, CollectiveKind::AllReduce, 16 * GiB, 2, 1, tree_simple);
    CHECK(g1.algorithm == "tree/Simple");
    CHECK(g1.us == doctest::Approx(349575.9561).epsilon(1e-7));
    // 2 x 2: two NICs, 8 channels, four each: a 512 KiB step per send at
    // 512 KiB / (10666.9 ns + 14000 ns) = 21.25 GB/s per channel, so the NICs
    // bind, 2 x 49.15 = 98.3, doubled 196.6 (below NVLink's 360); bus min(196.6,
    // 8 x 41.4 = 331.2) = 196.6, algbw 98.3: 174769778.1 ns; latency 8.4 + 2 x
    // (1 x 4.0 + 1 x 14) = 44.4 us.
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 2, 2, tree_simple).us ==
          doctest::Approx(174814.1781).epsilon(1e-7));
    // 2 x 4: 4 NICs, 196.6, doubled 393.2 > 360: NVLink binds; bus min(360, 16
    // x 41.4 = 662.4) = 360, algbw 180: 95443717.7 ns; latency 8.4 + 2 x (3 x
    // 4.0 + 14) = 60.4 us. Before the two-node rule the NICs halved it (88.3 algbw).
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 2, 4, tree_simple).us ==
          doctest::Approx(95504.1177).epsilon(1e-7));
    // 4 x 4: an inner node's NICs carry 2S, and node 2 of NCCL's first tree
    // reduces two children's streams arriving through them: the NICs stream at
    // NCCL's rating of the tree, 0.92 x 0.85 (the TREE pattern: one NIC per
    // Hopper GPU) = 0.782, so link min(360, 2 x 196.6 x 0.782 / 2 = 153.7412)
    // = 153.7412; bus min(153.7412, 16 x 36.0 = 576), algbw 76.8706 GB/s:
    // 223490764.8 ns; latency 8.4 + 2 x (3 x 4.0 + 2 x 14) = 88.4 us.
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 4, 4, tree_simple).us ==
          doctest::Approx(223579.1648).epsilon(1e-7));
    // 3 x 4: NCCL's two trees over three nodes give the busiest node three
    // edges (nccl_tree_network_load 1.5): link min(360, 2 x 196.6 / 1.5 =
    // 262.13) = 262.13, algbw 131.07 GB/s: 131077333.9 ns; latency 8.4 + 2 x
    // (3 x 4.0 + 2 x 14) = 88.4 us (NCCL's tree over three nodes is 2 deep,
    // 1 -> 2 -> 0, where its estimate floor(log2 3) counts 1 edge).
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 3, 4, tree_simple).us ==
          doctest::Approx(131165.7339).epsilon(1e-6));
}

TEST_CASE("a tree on one node: an inner GPU of the chain sends each byte twice, a chain of two once") {
    // NCCL_ALGO=Tree on one node runs a chain. Simple splits each GPU's threads
    // between the reduce going up and the broadcast coming down
    // (src/device/all_reduce.h, runTreeSplit), so both directions stream at once:
    // an inner GPU sends each byte up and down, 2S; the two ends send it once.
    // The node's NVLink rate is NCCL's graph, 12 channels x 30 GB/s = 360 GB/s;
    // 24 channels run, each capped at 38.7 GB/s (929 GB/s, not binding). 4 GiB.
    const Preset h100 = load_preset("hgx-h100", kDirs);
    const NcclForce tree_simple = NcclForce::only(NcclAlgorithm::Tree, NcclProtocol::Simple);
    // 2 GPUs: no inner GPU, algbw 360 GB/s as the ring's: 4294967296 / 360 =
    // 11930464.7 ns; latency 8.4 + 2 x (1 x 4.0) = 16.4 us.
    const Run two = run(h100, CollectiveKind::AllReduce, 4 * GiB, 1, 2, tree_simple);
    CHECK(two.algorithm == "tree/Simple");
    CHECK(two.us == doctest::Approx(11946.8647).epsilon(1e-7));
    // 4 GPUs: the two inner GPUs send 2S, algbw 180 GB/s: 23860929.4 ns;
    // latency 8.4 + 2 x (3 x 4.0) = 32.4 us.
    CHECK(run(h100, CollectiveKind::AllReduce, 4 * GiB, 1, 4, tree_simple).us ==
          doctest::Approx(23893.3294).epsilon(1e-7));
}

TEST_CASE("a tree's latency as it runs counts the edges of the tree NCCL builds; its choice keeps NCCL's estimate") {
    // NCCL's tuning charges floor(log2 N) network steps each way
    // (src/graph/tuning.cc: log2i(nNodes)); the tree ncclGetBtree builds is
    // ceil(log2 N) deep. H100 over NDR, 8 GPUs a node, LL (network 5.0 us per
    // step, NVLink 0.6, base 6.8) and NVLS-tree (network 20.9, NVLink 25, base 0).
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    const NcclParameters& params = *ib.system.nccl();
    auto shape = [](std::int64_t nodes) {
        NcclShape s;
        s.nodes = nodes;
        s.gpus_per_node = 8;
        s.ranks = nodes * 8;
        return s;
    };
    // 8 nodes (a power of two): both 3 edges; tree/LL 6.8 + 2 x (7 x 0.6 + 3 x 5.0) = 45.2 us.
    CHECK(nccl_tree_latency_ns(shape(8), params, NcclProtocol::LL) == doctest::Approx(45200.0));
    CHECK(nccl_tree_run_latency_ns(shape(8), params, NcclProtocol::LL) == doctest::Approx(45200.0));
    // 10 nodes: the estimate 3 edges (45.2 us), the tree 4: 6.8 + 2 x (4.2 + 20) = 55.2 us.
    CHECK(nccl_tree_latency_ns(shape(10), params, NcclProtocol::LL) == doctest::Approx(45200.0));
    CHECK(nccl_tree_run_latency_ns(shape(10), params, NcclProtocol::LL) == doctest::Approx(55200.0));
    // NVLS-tree on 5 nodes: estimate 2 edges, 25 + 4 x 20.9 = 108.6 us (NCCL's
    // printed latency for 5 x 8, `collective --tuning`); the tree 3: 25 + 6 x 20.9 = 150.4 us.
    CHECK(nccl_nvls_tree_latency_ns(shape(5), params) == doctest::Approx(108600.0));
    CHECK(nccl_nvls_tree_run_latency_ns(shape(5), params) == doctest::Approx(150400.0));
}
