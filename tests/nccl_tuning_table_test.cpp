// dtcalc's copy of NCCL's tuning model (nccl_selection.h over the graphs of
// nccl_topology.h) against the tables NCCL 2.29.2 itself printed for 2, 4 and
// 6 H100 SXM GPUs of one node (tests/data/README.md): every latency and
// bandwidth, for every algorithm and protocol of all-gather, reduce-scatter
// and all-reduce. NCCL prints them rounded to 0.1, so each must agree within
// 0.05 (and 0.01 % of the bandwidth).
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
#include "network/cluster_shape.h"
#include "nccl_run.h"

using namespace dtcalc;
using namespace dtcalc::testing;

namespace {

struct PrintedTuning {
    int gpus = 0;
    std::string collective;  // NCCL's name: AllGather, ReduceScatter, AllReduce
    std::string algorithm;   // Tree, Ring, NVLS, NVLSTree, PAT
    std::string protocol;    // LL, LL128, Simple
    double latency_us = 0;
    double bandwidth_gbps = 0;  // 0: NCCL has the pair off
};

std::vector<PrintedTuning> read_printed_tuning() {
    std::ifstream in(std::string(DTCALC_TEST_DATA_DIR) + "/nccl_2.29.2_tuning_h100_1node.csv");
    REQUIRE(in);
    std::vector<PrintedTuning> out;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::stringstream fields(line);
        PrintedTuning t;
        std::string cell;
        std::getline(fields, cell, ',');
        t.gpus = std::stoi(cell);
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

NcclAlgorithm algorithm_of(const std::string& a) {
    if (a == "Tree") return NcclAlgorithm::Tree;
    if (a == "Ring") return NcclAlgorithm::Ring;
    if (a == "NVLS") return NcclAlgorithm::Nvls;
    if (a == "NVLSTree") return NcclAlgorithm::NvlsTree;
    REQUIRE(a == "PAT");
    return NcclAlgorithm::Pat;
}

NcclProtocol protocol_of(const std::string& p) {
    if (p == "LL") return NcclProtocol::LL;
    if (p == "LL128") return NcclProtocol::LL128;
    REQUIRE(p == "Simple");
    return NcclProtocol::Simple;
}

}  // namespace

TEST_CASE("NCCL's tuning as dtcalc copies it matches what NCCL 2.29.2 printed for 2, 4 and 6 H100 GPUs") {
    const std::vector<PrintedTuning> printed = read_printed_tuning();
    REQUIRE(printed.size() == 135);  // 3 communicators x 3 collectives x 5 algorithms x 3 protocols
    const Preset preset = load_preset("h100-ib-ndr400", kDirs);
    const NcclParameters& p = *preset.system.nccl();
    // Above 64 B x 2^23 no tree correction applies: the time is latency + size / bandwidth.
    const double size = 8.0 * GiB;
    int on = 0;
    for (const PrintedTuning& t : printed) {
        CAPTURE(t.gpus);
        CAPTURE(t.collective);
        CAPTURE(t.algorithm);
        CAPTURE(t.protocol);
        const Network network = shape_cluster(preset.system.network, 1, t.gpus);
        const CommGroup group = whole_network_group(network);
        const NcclShape shape = nccl_shape(group);
        const NcclRates rates = nccl_rates(network, group, shape, p);
        const CollectiveKind kind = kind_of(t.collective);
        const NcclAlgorithm a = algorithm_of(t.algorithm);
        const NcclProtocol pr = protocol_of(t.protocol);
        const double at_zero = nccl_tuning_time_ns(kind, 0, shape, rates, p, a, pr);
        const double at_size = nccl_tuning_time_ns(kind, static_cast<std::uint64_t>(size), shape, rates, p, a, pr);
        if (t.bandwidth_gbps == 0) {
            CHECK(at_zero < 0);  // off in NCCL, off in dtcalc
            continue;
        }
        ++on;
        REQUIRE(at_zero >= 0);
        CHECK(std::abs(at_zero / 1000.0 - t.latency_us) <= 0.05 + 1e-9);
        CHECK(std::abs(size / (at_size - at_zero) - t.bandwidth_gbps) <= 0.05 + 1e-4 * t.bandwidth_gbps);
    }
    CHECK(on == 45);  // 3 x (ring: 3 collectives x 3 protocols; tree all-reduce x 3; NVLS all-reduce, AG, RS)
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
