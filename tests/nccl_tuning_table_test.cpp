// dtcalc's copy of NCCL's tuning model (nccl_selection.h over the graphs of
// nccl_topology.h) against the tables NCCL itself printed (tests/data/README.md):
// NCCL 2.29.2 for 2, 4 and 6 H100 SXM of one node, and NCCL 2.30.4 (whose
// tuning rules and constants for these shapes are 2.29's) for 1 x 8 and 2 x 8
// H200 over InfiniBand: every latency and bandwidth, for every algorithm and
// protocol of all-gather, reduce-scatter and all-reduce. NCCL prints them
// rounded to 0.1, so each must agree within 0.05 (and 0.01 % of the bandwidth).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "collective/nccl/nccl_selection.h"
#include "collective/nccl/nccl_shape.h"
#include "collective/nccl/nccl_topology.h"
#include "config/preset.h"
#include "config/system_source.h"
#include "network/cluster_shape.h"
#include "nccl_run.h"

using namespace dtcalc;
using namespace dtcalc::testing;

namespace {

struct PrintedTuning {
    int nodes = 0;
    int gpus_per_node = 0;
    std::string collective;  // NCCL's name: AllGather, ReduceScatter, AllReduce
    std::string algorithm;   // Tree, Ring, NVLS, NVLSTree, PAT
    std::string protocol;    // LL, LL128, Simple
    double latency_us = 0;
    double bandwidth_gbps = 0;  // 0: NCCL has the pair off
};

std::vector<PrintedTuning> read_printed_tuning(const std::string& file) {
    std::ifstream in(std::string(DTCALC_TEST_DATA_DIR) + "/" + file);
    REQUIRE(in);
    std::vector<PrintedTuning> out;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::stringstream fields(line);
        PrintedTuning t;
        std::string cell;
        std::getline(fields, cell, ',');
        t.nodes = std::stoi(cell);
        std::getline(fields, cell, ',');
        t.gpus_per_node = std::stoi(cell);
        std::getline(fields, t.collective, ',');
        std::getline(fields, t.algorithm, ',');
        std::getline(fields, t.protocol, ',');
        std::getline(fields, cell, ',');
        t.latency_us = std::stod(cell);
        std::getline(fields, cell, ',');
        t.bandwidth_gbps = std::stod(cell);
        out.push_back(t);
    }
    return out;
}

CollectiveKind kind_of(const std::string& c) {
    if (c == "AllGather") return CollectiveKind::AllGather;
    if (c == "ReduceScatter") return CollectiveKind::ReduceScatter;
    REQUIRE(c == "AllReduce");
    return CollectiveKind::AllReduce;
}

// NCCL's printed names ("NVLSTree", "LL128") as NCCL_ALGO / NCCL_PROTO take them.
NcclAlgorithm algorithm_of(const std::string& a) {
    const auto algorithm = parse_nccl_algorithm(a);
    REQUIRE(algorithm);
    return *algorithm;
}

NcclProtocol protocol_of(const std::string& p) {
    const auto protocol = parse_nccl_protocol(p);
    REQUIRE(protocol);
    return *protocol;
}

// Checks every printed entry on `system` shaped as each row says; returns how
// many pairs NCCL had on.
int check_printed_tuning(const System& system, const std::vector<PrintedTuning>& printed) {
    const NcclParameters& p = *system.nccl();
    int on = 0;
    for (const PrintedTuning& t : printed) {
        CAPTURE(t.nodes);
        CAPTURE(t.gpus_per_node);
        CAPTURE(t.collective);
        CAPTURE(t.algorithm);
        CAPTURE(t.protocol);
        const Network network = shape_cluster(system.network, t.nodes, t.gpus_per_node, system.node_gpus());
        const CommGroup group = whole_network_group(network);
        const NcclShape shape = nccl_shape(group);
        const NcclRates rates = nccl_rates(network, group, shape, p);
        const NcclTuning tuning = nccl_tuning(kind_of(t.collective), shape, rates, p, algorithm_of(t.algorithm),
                                              protocol_of(t.protocol));
        if (t.bandwidth_gbps == 0) {
            CHECK_FALSE(tuning.on());  // off in NCCL, off in dtcalc
            continue;
        }
        ++on;
        REQUIRE(tuning.on());
        CHECK(std::abs(tuning.latency_ns / 1000.0 - t.latency_us) <= 0.05 + 1e-9);
        CHECK(std::abs(tuning.bandwidth_gbps - t.bandwidth_gbps) <= 0.05 + 1e-4 * t.bandwidth_gbps);
    }
    return on;
}

}  // namespace

TEST_CASE("NCCL's tuning as dtcalc copies it matches what NCCL 2.29.2 printed for 2, 4 and 6 H100 GPUs") {
    const std::vector<PrintedTuning> printed = read_printed_tuning("nccl_2.29.2_tuning_h100.csv");
    REQUIRE(printed.size() == 135);  // 3 communicators x 3 collectives x 5 algorithms x 3 protocols
    // 3 x (ring: 3 collectives x 3 protocols; tree all-reduce x 3; NVLS all-reduce, AG, RS)
    CHECK(check_printed_tuning(load_preset("h100-ib-ndr400", kDirs).system, printed) == 45);
}

TEST_CASE("NCCL's tuning as dtcalc copies it matches what NCCL 2.30.4 printed for 1 x 8 and 2 x 8 H200") {
    // The catalogue's H200 (18 NVLinks x SM90_NVLINK_BW, NVLS) with 8 NDR
    // NICs a node, as the cluster's ConnectX-7 InfiniBand. On 2 x 8 the tree
    // is the TREE pattern (one GPU per NIC): NCCL printed its all-reduce at
    // 16.6 / 124.8 / 140.8 GB/s, 0.85 x 19.5 / 146.8 / 165.6.
    SystemSource source;
    source.gpu = "h200";
    source.nodes = 2;
    const System h200 = resolve_system(source, kDirs).system;
    const std::vector<PrintedTuning> printed = read_printed_tuning("nccl_2.30.4_tuning_h200.csv");
    REQUIRE(printed.size() == 90);  // 2 communicators x 3 collectives x 5 algorithms x 3 protocols
    // 1 x 8: 15 as above; 2 x 8: ring 9, tree 3, NVLS-tree all-reduce 1.
    CHECK(check_printed_tuning(h200, printed) == 28);
}

TEST_CASE("NCCL's graphs for one node of 2, 4 and 6 H100 GPUs: the tree of two and the NVLS inter-node speed") {
    const NcclParameters p = *load_preset("h100-ib-ndr400", kDirs).system.nccl();
    // The path: 18 NVLinks x SM90_NVLINK_BW 20.6 = 370.8 GB/s. The ring (all
    // shapes): 6 x 60 found, doubled to 12 x 30; 12 x 40 = 480 does not fit.
    // The tree of two GPUs needs the ring's 12 channels (init.cc) and runs
    // 6 each way: 6 x 60 = 360 <= 370.8, so 12 x 60. NCCL printed its
    // all-reduce Simple bandwidth as 232.2 = min(0.92 x 720, 12 x
    // perChMaxTreeBws 38.7 = 464.4) / 2; with the ring's 12 x 30 it would be
    // 0.92 x 360 / 2 = 165.6, which NCCL printed for 4 and 6 GPUs.
    const NcclTopology two = nccl_topology(p, 2, 1, 0);
    CHECK(two.ring.channels == 12);
    CHECK(two.ring.bw_intra == 30.0);
    CHECK(two.tree.channels == 12);
    CHECK(two.tree.bw_intra == 60.0);
    CHECK(nccl_topology(p, 4, 1, 0).tree.bw_intra == 30.0);
    // NVLS: (G + 1) s <= 370.8 gives s = 60 for 2 and 4 GPUs, 50 for 6 (7 x 60
    // = 420), 40 for 8 (9 x 50 = 450); pass 2 raises the inter-node speed a
    // step at a time while below 2 s, to the top step, 60. NCCL's all-reduce
    // figure is heads x min(s x 0.85 x (heads-1)/heads x 2, inter) x n/steps:
    // 4 GPUs 4 x min(76.5, 60) x 4/6 = 160 (printed 160.0), 6 GPUs 6 x
    // min(70.83, 60) x 6/10 = 216 (printed 216.0); without the raise 204 and 255.
    const NcclTopology four = nccl_topology(p, 4, 1, 0);
    CHECK(four.nvls.bw_intra == 60.0);
    CHECK(four.nvls.bw_inter == 60.0);
    const NcclTopology six = nccl_topology(p, 6, 1, 0);
    CHECK(six.nvls.bw_intra == 50.0);
    CHECK(six.nvls.bw_inter == 60.0);
    const NcclTopology eight = nccl_topology(p, 8, 1, 0);
    CHECK(eight.nvls.bw_intra == 40.0);
    CHECK(eight.nvls.bw_inter == 60.0);
}

TEST_CASE("NCCL's choice on 2, 4 and 6 H100 GPUs as NCCL 2.29.2's log names it") {
    // g{2,4,6}_auto.log (tests/data/README.md): "AllReduce: 268435456 Bytes ->
    // Algo RING proto SIMPLE channel{Lo..Hi}={0..23}" on 2 and 4 GPUs, "Algo
    // NVLS proto SIMPLE channel{Lo..Hi}={0..15}" on 6, at every size from
    // 256 MiB to 8 GiB. From the printed tables: 4 GPUs ring 28.8 us / 240
    // GB/s beats NVLS 25.0 / 160 above 3.8 us x (1/160 - 1/240)^-1 ~ 1.8 KB;
    // 6 GPUs NVLS 25.0 / 216 ties the ring's 216 GB/s and has the smaller
    // latency (42.4), so it wins at every size from there.
    const Preset preset = load_preset("h100-ib-ndr400", kDirs);
    for (std::uint64_t bytes = 256 * MiB; bytes <= 8 * GiB; bytes *= 2) {
        CAPTURE(bytes);
        const Run two = run(preset, CollectiveKind::AllReduce, bytes, 1, 2);
        CHECK(two.algorithm == "ring/Simple");
        CHECK(two.channels == 24);
        const Run four = run(preset, CollectiveKind::AllReduce, bytes, 1, 4);
        CHECK(four.algorithm == "ring/Simple");
        CHECK(four.channels == 24);
        const Run six = run(preset, CollectiveKind::AllReduce, bytes, 1, 6);
        CHECK(six.algorithm == "nvls/Simple");
        CHECK(six.channels == 16);
    }
}

TEST_CASE("an all-reduce, all-gather or reduce-scatter of 0 bytes runs nothing, as NCCL discards it") {
    // src/enqueue.cc, taskAppend: "Empty collectives can be discarded" (count
    // 0), before any algorithm is chosen: no kernel, no time. Point-to-point
    // is not discarded there: a send/recv of 0 bytes keeps its launch latency.
    const Preset preset = load_preset("h100-ib-ndr400", kDirs);
    for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter}) {
        CAPTURE(collective_kind_name(kind));
        CHECK(nccl_discards(kind, 0));
        CHECK_FALSE(nccl_discards(kind, 8));
        const Run r = run(preset, kind, 0, 2, 4);
        CHECK(r.us == 0.0);
        CHECK(r.algorithm == "none");
        CHECK(r.channels == 0);
        CHECK(r.nics == 4);
        // The smallest non-empty size is NCCL's latency: more than 0.
        CHECK(run(preset, kind, 64, 2, 4).us > 5.0);
    }
    CHECK_FALSE(nccl_discards(CollectiveKind::SendRecv, 0));
    const Run p2p = run(preset, CollectiveKind::SendRecv, 0, 2, 4);
    CHECK(p2p.algorithm == "p2p/Simple");
    CHECK(p2p.us > 0.0);
}

TEST_CASE("NCCL's tree across nodes keeps all NIC traffic on one GPU where no second GPU shares the NIC's switch") {
    // search.cc: one GPU per node forces the TREE pattern; from sm90 on, the
    // balanced tree (a NIC's traffic split between two GPUs on its PCIe
    // switch) finds nothing with one GPU per NIC, and "Try a simpler tree"
    // keeps the TREE pattern. Ampere has no such fallback.
    const NcclParameters h100 = *load_preset("h100-ib-ndr400", kDirs).system.nccl();
    CHECK_FALSE(nccl_topology(h100, 8, 1, 0).tree_nic_on_one_gpu);  // one node: no NIC
    CHECK(nccl_topology(h100, 1, 2, 50.0).tree_nic_on_one_gpu);
    CHECK(nccl_topology(h100, 2, 2, 50.0).tree_nic_on_one_gpu);
    CHECK(nccl_topology(h100, 8, 10, 50.0).tree_nic_on_one_gpu);
    NcclParameters shared = h100;  // two GPUs per NIC, on its switch
    shared.hardware.gpus_per_nic = 2;
    CHECK_FALSE(nccl_topology(shared, 8, 2, 50.0).tree_nic_on_one_gpu);
    CHECK(nccl_topology(shared, 1, 2, 50.0).tree_nic_on_one_gpu);  // one GPU per node: always
    const NcclParameters a100 = *load_preset("a100-ib-hdr200", kDirs).system.nccl();
    CHECK_FALSE(nccl_topology(a100, 8, 2, 25.0).tree_nic_on_one_gpu);
    CHECK(nccl_topology(a100, 1, 2, 25.0).tree_nic_on_one_gpu);
}

TEST_CASE("2 x 4 H100 all-reduce: NCCL's choice runs the ring at 2 MiB and the tree at 4 MiB") {
    // NCCL's tuning on 2 x 4 over NDR (two nodes: the graphs' intra-node
    // speeds). Ring graph 8 x 24; tree 8 x 48 (intra raised), TREE pattern.
    //   ring/LL128: 14.0 + 12 x 1.9 (NVLink steps) + 2 x 4.0 (network) = 44.8
    //     us; bus min(8 x 24 x 0.92 = 176.64, 8 x 36.7) x 8/14 = 100.94 GB/s.
    //   tree/LL128: 14.0 + 2 x (3 x 1.25 + 1 x 8.5) = 38.5 us; bus min(384 x
    //     0.92, 8 x 41.4 = 331.2) -> LL128 min(331.2 x 120/128, 8 x 36.7 =
    //     293.6) / 2 = 146.8, x 0.85 (TREE pattern) = 124.78 GB/s, then
    //     treeCorrectionFactor LL128: 2 MiB = 64 B x 2^15: 0.6 -> 74.87;
    //     4 MiB: 0.8 -> 99.82.
    //   2 MiB: ring 44.8 + 20.78 = 65.58 us, tree 38.5 + 28.01 = 66.51 us;
    //   4 MiB: ring 44.8 + 41.55 = 86.35 us, tree 38.5 + 42.02 = 80.52 us
    //   (NVLS-tree 82.70 and 98.60, Simple and LL slower).
    const Preset preset = load_preset("h100-ib-ndr400", kDirs);
    const Network network = shape_cluster(preset.system.network, 2, 4, preset.system.node_gpus());
    const CommGroup group = whole_network_group(network);
    const NcclShape shape = nccl_shape(group);
    const NcclParameters& p = *preset.system.nccl();
    const NcclRates rates = nccl_rates(network, group, shape, p);
    const auto us = [&](std::uint64_t bytes, NcclAlgorithm a) {
        return nccl_tuning_time_ns(CollectiveKind::AllReduce, bytes, shape, rates, p, a, NcclProtocol::LL128) / 1000.0;
    };
    CHECK(us(2 * MiB, NcclAlgorithm::Ring) == doctest::Approx(65.58).epsilon(2e-4));
    CHECK(us(2 * MiB, NcclAlgorithm::Tree) == doctest::Approx(66.51).epsilon(2e-4));
    CHECK(us(4 * MiB, NcclAlgorithm::Ring) == doctest::Approx(86.35).epsilon(2e-4));
    CHECK(us(4 * MiB, NcclAlgorithm::Tree) == doctest::Approx(80.52).epsilon(2e-4));
    CHECK(run(preset, CollectiveKind::AllReduce, 2 * MiB, 2, 4).algorithm == "ring/LL128");
    CHECK(run(preset, CollectiveKind::AllReduce, 4 * MiB, 2, 4).algorithm == "tree/LL128");
}
