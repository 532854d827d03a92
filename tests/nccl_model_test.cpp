// The nccl backend end to end through collective_time() on the shipped presets.
// Every expected value is worked out by hand in the comment beside it from the
// preset's hardware facts, NCCL's rules (nccl_topology.h) and NCCL's tuning
// tables (tuning.cc). H100: 18 NVLinks x 20.6 GB/s (SM90_NVLINK_BW) = 370.8 GB/s
// per GPU; NDR NIC 50 GB/s line rate, payload 50 x 0.983 = 49.15 GB/s; PCIe Gen5
// x16 48 GB/s; Intel host (net overhead 1 us).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_model.h"
#include "collective/nccl/nccl_topology.h"
#include "config/preset.h"
#include "core/error.h"
#include "network/cluster_shape.h"
#include "nccl_run.h"

using namespace dtcalc;
using namespace dtcalc::testing;

TEST_CASE("NCCL's graph search and channel rules on H100 NDR nodes, for 1, 2, 4 and 8 GPUs per node") {
    const NcclParameters p = *load_preset("h100-ib-ndr400", kDirs).system.nccl();
    // One node of 8: intra steps 60, 50, 40, 30 ...; floor(370.8/60) = 6 channels
    // (360 GB/s, the best: 50 gives 350, 40 and 30 give 360, not more; 24 < 0.49
    // x 60 stops). ncclTopoDupChannels: 60 >= 50, so 12 x 30; pass 2 finds no
    // faster step for 12. Postset: 24 channels; p2p pow2Up(24) = 32, per peer
    // pow2Up(2 x 18) = 64 capped at 32. NVLS: 8 heads, (8+1) s <= 370.8: s = 40.
    const NcclTopology one = nccl_topology(p, 8, 1, 0);
    CHECK(one.nics == 0);
    CHECK(one.ring.channels == 12);
    CHECK(one.ring.bw_intra == 30.0);
    CHECK(one.channels == 24);
    CHECK(one.p2p_channels == 32);
    CHECK(one.p2p_channels_per_peer == 32);
    CHECK(one.nvls.channels == 8);
    CHECK(one.nvls.bw_intra == 40.0);
    CHECK(one.nvls_channels == 16);

    // 8 GPUs per node, 8 NICs: inter steps start at min(NIC 50, PCIe 48) = 48;
    // one channel per NIC (2 x 48 > 50), NVLink allows floor(370.8 x 8/7 / 48) = 8:
    // 8 x 48 = 384 >= 370.8, done. No dup (48 < 50 with more than 4 channels on
    // sm90). Postset 16 (48 > 45 but 16 is not < 16). p2p 16 channels; per peer
    // min(36, ceil(50/14) = 4) = 4, halved while 4 x ceil(ranks/8) > 16:
    // 16 ranks keep 4, 80 ranks get 1. NVLS heads: one per NIC, s = 40, inter 48.
    const NcclTopology g8 = nccl_topology(p, 8, 2, 50.0);
    CHECK(g8.nics == 8);
    CHECK(g8.ring.channels == 8);
    CHECK(g8.ring.bw_inter == 48.0);
    CHECK(g8.channels == 16);
    CHECK(g8.p2p_channels == 16);
    CHECK(g8.p2p_channels_per_peer == 4);
    CHECK(g8.nvls.channels == 8);
    CHECK(g8.nvls.bw_intra == 40.0);
    CHECK(g8.nvls.bw_inter == 48.0);
    // The tree graph: pass 2 would raise the intra speed above 48, but 48 is
    // NCCL's first step: the ring's 8 x 48.
    CHECK(g8.tree.channels == 8);
    CHECK(g8.tree.bw_intra == 48.0);
    CHECK(g8.tree.bw_inter == 48.0);
    CHECK(nccl_topology(p, 8, 10, 50.0).p2p_channels_per_peer == 1);

    // 4 GPUs per node: 4 NICs x 1 channel at 48 = 192 (24 gives 8 x 24, not
    // more); dup (only 4 channels) to 8 x 24; pass 2: 30 fits one per NIC, < 8.
    // Postset 16: four channels per NIC.
    const NcclTopology g4 = nccl_topology(p, 4, 2, 50.0);
    CHECK(g4.nics == 4);
    CHECK(g4.ring.channels == 8);
    CHECK(g4.ring.bw_inter == 24.0);
    CHECK(g4.channels == 16);
    CHECK(g4.p2p_channels_per_peer == 4);
    // Tree: the ring's 8 x 24, intra speed raised 30, 40, 42, 45, 48 (below 2 x
    // 24 = 48 before each step; 8 x 48 = 384 <= 370.8 x 4/3).
    CHECK(g4.tree.channels == 8);
    CHECK(g4.tree.bw_intra == 48.0);
    CHECK(g4.tree.bw_inter == 24.0);

    // 2 GPUs: 2 x 48 -> dup 4 x 24 -> 8 channels on 2 NICs.
    const NcclTopology g2 = nccl_topology(p, 2, 2, 50.0);
    CHECK(g2.nics == 2);
    CHECK(g2.ring.channels == 4);
    CHECK(g2.channels == 8);
    CHECK(g2.p2p_channels == 8);
    CHECK(g2.nvls.channels == 2);

    // 1 GPU: 1 x 48 -> dup 2 x 24 -> 4 channels on its one NIC; no NVLS.
    const NcclTopology g1 = nccl_topology(p, 1, 2, 50.0);
    CHECK(g1.nics == 1);
    CHECK(g1.ring.channels == 2);
    CHECK(g1.ring.bw_inter == 24.0);
    CHECK(g1.channels == 4);
    CHECK(g1.p2p_channels == 4);
    CHECK(g1.p2p_channels_per_peer == 4);
    CHECK(g1.nvls.channels == 0);
    // Tree: no NVLink in the chain, so the intra speed rises to 2 x 24 = 48.
    CHECK(g1.tree.channels == 2);
    CHECK(g1.tree.bw_intra == 48.0);
    // One node: the tree graph is the ring's.
    CHECK(one.tree.channels == 12);
    CHECK(one.tree.bw_intra == 30.0);
}

TEST_CASE("NCCL's graph search on A100 HDR nodes uses the SM80 figures") {
    const NcclParameters p = *load_preset("a100-ib-hdr200", kDirs).system.nccl();
    // One node: 12 x 20.0 = 240 GB/s; default intra steps 40, 30, 20 ...:
    // 6 x 40 = 240, done; dup (sm80 always doubles at >= 25) to 12 x 20: 24 channels.
    const NcclTopology one = nccl_topology(p, 8, 1, 0);
    CHECK(one.ring.channels == 12);
    CHECK(one.ring.bw_intra == 20.0);
    CHECK(one.channels == 24);
    CHECK(one.nvls.channels == 0);  // no NVLS before sm90
    // Across nodes: HDR 25 GB/s, PCIe Gen4 24: steps 48, 30, 28, 24 -> start at
    // 24, one channel per NIC: 8 x 24 = 192 (12 gives 16 x 12, not more); no dup
    // below 25 GB/s; 16 channels. p2p per peer ceil(25/14) = 2.
    const NcclTopology g8 = nccl_topology(p, 8, 2, 25.0);
    CHECK(g8.nics == 8);
    CHECK(g8.ring.channels == 8);
    CHECK(g8.ring.bw_inter == 24.0);
    CHECK(g8.channels == 16);
    CHECK(g8.p2p_channels_per_peer == 2);
    // Tree: from 24 the default inter steps 28 and 30 fit 240 x 8/7 = 274.3
    // with 8 channels, 48 (384) does not: 8 x 30 inside the node.
    CHECK(g8.tree.channels == 8);
    CHECK(g8.tree.bw_intra == 30.0);
    CHECK(g8.tree.bw_inter == 24.0);
}

TEST_CASE("an 8-byte all-reduce is latency: 8-25 us on one node, 15-60 us on 2 and 10 nodes") {
    const Preset node = load_preset("hgx-h100", kDirs);
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    // One node, NCCL's model: ring/LL base 6.6 + 14 steps x 0.6 = 15.0 us; tree/LL
    // 6.8 + 2 x 7 x 0.6 = 15.2 us; Simple and LL128 cost more. ring/LL. NCCL
    // launches 8 B on 1 of the 24 channels (ring LL: 8 B x 8 ranks per thread,
    // under 512 threads x 64 B) with 96 threads (512 halved to 64, at least 3
    // warps): the lanes drive 360 x (1/24) x (96/512) = 2.8125 GB/s, LL 0.5 of
    // it = 1.40625. The 8 bytes add 8 x 14/8 = 14 B of data and one 1-byte step
    // of fill: 15 B / 1.40625 GB/s = 10.667 ns.
    const Run one = run(node, CollectiveKind::AllReduce, 8);
    CHECK(one.algorithm == "ring/LL");
    CHECK(one.us == doctest::Approx(15.0 + 15.0 / 1.40625 * 1e-3).epsilon(1e-7));
    CHECK(one.us >= 8.0);
    CHECK(one.us <= 25.0);
    // Two nodes: tree/LL 6.8 + 2 x (7 x 0.6 + 1 x 5.0) = 25.2 us; ring/LL 6.6 + 28
    // steps x max(0.6, net overhead 1.0) + 2 x 2.7 = 40.0 us. The tree runs 8 B
    // on 1 of its 16 channels (under 512 threads x 8 B): NVLink 360 / 16 = 22.5
    // (the one NIC it reaches, x 2 on two nodes, is faster), 0.92 of it = 20.7 =
    // the per-channel cap 41.4 x the 8 graph channels / 16; LL / 3.8 = 5.447,
    // halved for the two trees: 2.7237 GB/s, so 8 B add 2.937 ns.
    const Run two = run(ib, CollectiveKind::AllReduce, 8, 2, 8);
    CHECK(two.algorithm == "tree/LL");
    CHECK(two.us == doctest::Approx(25.2 + 8.0 / (20.7 / 3.8 / 2.0) * 1e-3).epsilon(1e-7));
    CHECK(two.us >= 15.0);
    CHECK(two.us <= 60.0);
    // Ten nodes: NCCL's estimate charges floor(log2 10) = 3 network steps each
    // way, 6.8 + 2 x (4.2 + 3 x 5.0) = 45.2 us, which picks tree/LL; as it runs
    // the message climbs and comes down the 4 edges of the tree NCCL builds
    // over 10 nodes (1 -> 2 -> 4 -> 8 -> 0): 6.8 + 2 x (4.2 + 4 x 5.0) = 55.2 us.
    const Run ten = run(ib, CollectiveKind::AllReduce, 8, 10, 8);
    CHECK(ten.algorithm == "tree/LL");
    CHECK(ten.us == doctest::Approx(55.2).epsilon(1e-4));
    CHECK(ten.us >= 15.0);
    CHECK(ten.us <= 60.0);
}

TEST_CASE("the algorithm and protocol per size are NCCL's model's choice") {
    const Preset node = load_preset("hgx-h100", kDirs);
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    // One node of 8, 1 GiB all-reduce: nvls 25 us + S / (8 heads x 40 x 0.85 x
    // 7/8 x 2 x 8/14 = 272 GB/s) = 3972 us; ring/Simple 56 us + S / (12 x 30 x
    // 8/14) = 5275 us; tree/Simple 64.4 us + S / (min(360 x 0.92, 12 x 38.7) / 2)
    // = 6549 us. NVLS.
    CHECK(run(node, CollectiveKind::AllReduce, GiB).algorithm == "nvls/Simple");
    // One node of 4: NVLS has 4 heads at 60 (5 x 60 <= 370.8): 4 x 60 x 0.85 x 3/4
    // x 2 x 4/6 = 204 GB/s; the ring 360 x 4/6 = 240 GB/s: ring/Simple at 1 GiB.
    CHECK(run(node, CollectiveKind::AllReduce, GiB, 1, 4).algorithm == "ring/Simple");
    // Two nodes of 8, 16 GiB: NCCL rates by the intra speed up to two nodes;
    // nvls-tree 8 heads x min(40 x 0.85 x 7/8 x 2 = 59.5, 48 x 2, 57.7) x 16/30 =
    // 246 GB/s beats the ring's 8 x 48 x 16/30 = 205 and the tree's
    // min(384 x 0.92, 8 x 41.4) / 2 = 166.
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 2, 8).algorithm == "nvls-tree/Simple");
    // Two nodes of 4, 16 GiB: NVLS heads 4 (one per NIC) at 48 (5 x 48 <= 370.8):
    // nvls-tree 4 x min(48 x 0.85 x 3/4 x 2 = 61.2, 48 x 2, 57.7) x 8/14 = 131.9
    // GB/s; ring 8 x 24 x 8/14 = 109.7. The tree graph raises the ring's intra
    // speed 24 to 30, 40, 42, 45, 48 (each below 2 x 24, and 8 channels fit
    // 370.8 x 4/3 = 494.4 up to 61.8 each), and two nodes are rated by it:
    // tree min(8 x 48 x 0.92 = 353.3, 8 x 41.4 = 331.2) / 2 = 165.6. The tree.
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 2, 4).algorithm == "tree/Simple");
    // Two nodes of 2: nvls-tree 2 x min(48 x 0.85 x 1/2 x 2 = 40.8, 96, 57.7) x
    // 4/6 = 54.4 GB/s; ring 4 x 24 x 4/6 = 64; tree graph 4 x 48 (370.8 x 2 fits
    // 15 such): min(4 x 48 x 0.92 = 176.6, 4 x 41.4 = 165.6) / 2 = 82.8. The tree.
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 2, 2).algorithm == "tree/Simple");
    // Two nodes of 1: tree graph 2 x 48 (no NVLink to fit): min(88.3, 2 x 41.4 =
    // 82.8) / 2 = 41.4 GB/s against the ring's 2 x 24 x 2/2 = 48. The ring.
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 2, 1).algorithm == "ring/Simple");
    // Ten nodes of 4 rate the tree by its inter-node speed: min(8 x 24 x 0.92 =
    // 176.6, 8 x 36.0) / 2 = 88.3 GB/s against the ring's 8 x 24 x 40/78 = 98.5
    // (nvls-tree 4 x min(61.2, 48, 45.5) x 40/78 = 93.3). The ring.
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 10, 4).algorithm == "ring/Simple");
    // Ten nodes of 8, all-gather: LL128 min(384 x 0.92, 8 x 36.7) = 293.6 GB/s
    // with 14 + 70 x 1.9 + 9 x 4 = 183 us against Simple 384 GB/s with 8.4 + 70 x
    // 3.4 + 9 x 14 = 372.4 us (both x 80/79): they cross at 189.4 us /
    // (1/297.3 - 1/388.9) = 239 MB. 128 MiB LL128, 256 MiB Simple.
    CHECK(run(ib, CollectiveKind::AllGather, 128 * MiB, 10, 8).algorithm == "ring/LL128");
    CHECK(run(ib, CollectiveKind::AllGather, 256 * MiB, 10, 8).algorithm == "ring/Simple");
    // One GPU on each of 2 nodes, 8 B all-gather: ring/LL 6.6 + 1 network step
    // at the tree's LL latency (one GPU per node) 5.0 = 11.6 us; PAT 8 + 1 x 14/3.5
    // + 2 x 2.8 = 17.6 us. Ring.
    CHECK(run(ib, CollectiveKind::AllGather, 8, 2, 1).algorithm == "ring/LL");
    // One GPU on each of 8 nodes, 1 MiB all-gather (graph 2 x 24 = 48 GB/s):
    // ring/LL 41.6 us + S / (min(20.4, 24) x 8/7) = 86.6 us; ring/LL128 73.5 + S /
    // (44.16 x 8/7) = 94.3 us; ring/Simple 106.4 + S / 54.9 = 125.5 us; PAT 8 + 3 x 4
    // + 8 x 2.8 = 42.4 us + S / (48 x 0.75) = 71.5 us. PAT.
    CHECK(run(ib, CollectiveKind::AllGather, MiB, 8, 1).algorithm == "pat/Simple");
    // PAT needs one GPU per node.
    CHECK(run(ib, CollectiveKind::AllGather, MiB, 8, 2).algorithm != "pat/Simple");
}

TEST_CASE("predicted times from the derived channels and rates") {
    const Preset node = load_preset("hgx-h100", kDirs);
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    // NVLS on 8 GPUs (nccl_nvls_pipeline.h): 64 MiB per channel is not below
    // 64 x 8 heads x 128 KiB, so NCCL keeps its 128 KiB chunk and NVLS runs at
    // 0.85 x 360 x 8/9 = 272 GB/s algbw; one 16 x 8 x 128 KiB = 16 MiB loop
    // fills: (1073741824 + 16777216) / 272 = 4009261.18 ns; + 25 us.
    CHECK(run(node, CollectiveKind::AllReduce, GiB).us == doctest::Approx(4034.26118).epsilon(1e-7));
    // 256 MiB: 16 MiB per channel < 64 MiB, so 64 KiB chunks and 8 MiB loops;
    // each loop's 8 heads x 0.33 = 2.64 us: 1 / rate = 1/272 + 2640 x
    // (1/8388608 - 1/16777216) ns/B = 0.00383383 -> 260.836 GB/s; 25 us +
    // (268435456 + 8388608) / 260.836
    // = 1086.2955 us (measured 1081.14 us). 32 MiB: 2 MiB per channel < 8 x 8 x
    // 64 KiB, so 32 KiB chunks and 4 MiB loops: 1/272 + 2640 x (1/4194304 -
    // 1/16777216) -> 241.0487 GB/s; 25 us + (33554432 + 4194304) / 241.0487 =
    // 181.6021 us (measured 182.87 us).
    CHECK(run(node, CollectiveKind::AllReduce, 256 * MiB).us == doctest::Approx(1086.2955).epsilon(1e-6));
    CHECK(run(node, CollectiveKind::AllReduce, 32 * MiB).us == doctest::Approx(181.6021).epsilon(1e-6));
    // Ring all-gather on 8 GPUs: 32.2 us + fill 524288 / (360/24) = 34952.5 ns +
    // 1073741824 x 7/8 / 360 = 2609789.2 ns.
    const Run ag = run(node, CollectiveKind::AllGather, GiB);
    CHECK(ag.channels == 24);
    CHECK(ag.us == doctest::Approx(2676.9417).epsilon(1e-7));
    // Ten nodes, 16 GiB ring all-gather: 16 channels on 8 NICs, two per NIC.
    // Each channel moves m = 16 GiB / (80 x 16) = 13421772.8 B per ring step in
    // 2 MiB chunks of two slices: 6 full chunks and 838860.8 B (> 32 KiB, two
    // slices), 14 sends. 13421772.8 / 22.43 + 14 x 4550 = 662084.88 ns:
    // 20.27198 GB/s per channel, 40.54396 per NIC (below 49.15), 324.3517 GB/s
    // per node. Latency 8.4 + 70 x max(3.4, 3 x 1.0) = 246.4 us: each of the 9
    // network steps' 14 us is hidden behind the step's data after its first 1
    // MiB send, (13421772.8 - 1048576) / (324.3517/16) = 610359.5 ns. Fill:
    // that first send, a whole slice, before the next node can pass it on,
    // 1048576 / (324.3517/16) = 51725.4 ns; 17179869184 x 79/80 / 324.3517 =
    // 52304705.3 ns. In all 52602.83 us (measured 52314.1 us).
    const Run ag10 = run(ib, CollectiveKind::AllGather, 16 * GiB, 10, 8);
    CHECK(ag10.nics == 8);
    CHECK(ag10.channels == 16);
    CHECK(ag10.us == doctest::Approx(52602.831).epsilon(1e-7));
    // Two nodes of 8, 16 GiB NVLS-tree all-reduce: every head runs all 16 NVLS
    // channels, so each NIC carries 16, each sending 128 KiB chunks:
    // 131072 / (131072/49.15 + 14000 ns) = 8.1 GB/s x 16 = 130 > 49.15, so the 8
    // NICs move 393.2 GB/s, once per direction on two nodes; NVLS inside the
    // node, 0.85 x 360 x 8/9 = 272 GB/s, is below that, and NCCL's per-head
    // figure below both: 8 heads x 57.7 (two nodes) x 16/30 = 246.1867 GB/s.
    // Latency 25 + 2 x 1 x 20.9 = 66.8 us. Fill: one 16 x 8 x 131072 B =
    // 16777216 B loop through the NVLS inside the node, 61680.9 ns (the
    // default chunk: 272 GB/s, nccl_nvls_pipeline.h), then up the tree (depth
    // 1) and down, both at 272: 123361.9 ns; the loops after the first stream:
    // (17179869184 - 16777216) / 246.18667 = 69715756.2 ns. In all 69967.60 us
    // (measured on such nodes with NCCL 2.26.2, nccl-tests#309: 68652 us).
    CHECK(run(ib, CollectiveKind::AllReduce, 16 * GiB, 2, 8).us == doctest::Approx(69967.599).epsilon(1e-6));
    // Ten nodes of 8, 32 MiB NVLS-tree all-reduce: 2 MiB per channel, 64 KiB
    // chunks (4 nodes and more): 65536 / (65536/49.15 + 14000 ns) x 16 = 68.4 >
    // 49.15, the NICs carry 8 x 49.15 = 393.2 GB/s, twice per direction: 196.6
    // GB/s (below NVLS's 260.836 with 64 KiB chunks, as on one node above);
    // the heads' figure 8 x 45.5 x 80/158 = 184.3038 streams. Latency 25 + 2 x
    // 4 x 20.9 = 192.2 us (the tree's 4 edges each way; NCCL's estimate, 3,
    // gives its choice 150.4); fill: one 16 x 8 x 65536 = 8388608 B loop through
    // NVLS inside the node, 8388608 / 260.836 = 32160.5 ns, and through the
    // tree (depth 4) 4 x 8388608 / 260.836 = 128641.9 ns up (the NICs' 393.2
    // to the climb alone, NVLS binding) and 4 x 8388608 / 196.6 = 170673.6 ns
    // down; the three loops after the first stream: (33554432 - 8388608) /
    // 184.3038 = 136545.3 ns. In all 660221.3 ns (measured: 798.5 us).
    CHECK(run(ib, CollectiveKind::AllReduce, 32 * MiB, 10, 8).us == doctest::Approx(660.2213).epsilon(1e-6));
    // Ten nodes: NCCL's nvls-tree, 8 x min(59.5, 48, 45.5) x 80/158 = 184.3 GB/s
    // and 25 + 2 x 3 x 20.9 = 150.4 us, against the ring's 384 x 80/158 = 194.4
    // GB/s and 1.4 x 736.4 us: nvls-tree up to ~3.1 GB, the ring beyond. The NICs
    // carry an NVLS tree's data twice per direction (196.6 GB/s) and a ring's at
    // 324.3517 bus (the same m as the all-gather above). As it runs, the ring's
    // 18 network steps hide their latency as above: 8.4 + 140 x 3.4 = 484.4 us
    // + fill (the first 1 MiB send) 51725.4 ns + 17179869184 x 158/80 /
    // 324.3517 = 104609410.6 ns: 105145.54 us (measured 105854 us).
    CHECK(run(ib, CollectiveKind::AllReduce, 2 * GiB, 10, 8).algorithm == "nvls-tree/Simple");
    const Run ring10 = run(ib, CollectiveKind::AllReduce, 16 * GiB, 10, 8);
    CHECK(ring10.algorithm == "ring/Simple");
    CHECK(ring10.us == doctest::Approx(105145.536).epsilon(1e-7));
    // One GPU on each of 8 nodes, 1 MiB PAT all-gather: latency 8 + log2(8) x
    // 14/3.5 + 8 x 2.8 = 42.4 us already holds every step's network latency, so
    // the NIC streams at its payload, 49.15 x 0.75 = 36.8625 GB/s:
    // 917504 / 36.8625 = 24889.9 ns.
    CHECK(run(ib, CollectiveKind::AllGather, MiB, 8, 1).us == doctest::Approx(67.28990).epsilon(1e-6));
}

TEST_CASE("one GPU per node: NCCL's latency holds each step's network latency, the NIC streams at its payload") {
    // tuning.cc (ncclTopoTuneModel): with ppn = 1 every ring step is an
    // inter-node step and costs the tree's network latency, "fully exposed"; a
    // per-send cost in the bandwidth would charge each step a second time. As
    // a Simple ring runs, a step's later slices hide part of that latency.
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    // 4 nodes of 1, ring all-gather, Simple, 1 MiB: 4 channels on the one NIC
    // (nccl_topology: 2 x 24, postset 4), bus min(360, 49.15) = 49.15 GB/s;
    // each channel's step, 1 MiB / (4 x 4) = 65536 B, goes in two 32 KiB sends,
    // and the second, 32768 / (49.15/4) = 2666.78 ns, hides that much of each
    // network step's 14 us as the ring runs: 8.4 + 3 x 11.33322 = 42.39967 us
    // (NCCL's model: 8.4 + 3 x 14 = 50.4); fill: the first 32 KiB send, which
    // the next node waits for whole, 32768 B over 49.15/4 GB/s = 2666.78 ns;
    // 1048576 x 3/4 / 49.15 = 16000.65 ns. In all 61.06711 us.
    const Run ring = run(ib, CollectiveKind::AllGather, MiB, 4, 1, NcclForce::only(NcclAlgorithm::Ring, NcclProtocol::Simple));
    CHECK(ring.algorithm == "ring/Simple");
    CHECK(ring.channels == 4);
    CHECK(ring.us == doctest::Approx(61.06711).epsilon(1e-6));
    // Tree all-reduce, Simple, 64 KiB: 8.4 + 2 x (0 x 4 + log2(4) x 14) = 64.4 us;
    // on four nodes a node's NIC carries 2S per direction, and node 2 reduces
    // two children's streams through it, so the NIC streams at NCCL's rating of
    // the tree, 0.92 x 0.85 (one GPU per node: the TREE pattern): the link is
    // 2 x 49.15 x 0.782 / 2 = 38.4353 GB/s; bus min(38.4353, 4 channels x 36.0)
    // = 38.4353, algbw 19.21765 GB/s: 65536 / 19.21765 = 3410.20 ns.
    const Run tree =
        run(ib, CollectiveKind::AllReduce, 64 * 1024, 4, 1, NcclForce::only(NcclAlgorithm::Tree, NcclProtocol::Simple));
    CHECK(tree.algorithm == "tree/Simple");
    CHECK(tree.us == doctest::Approx(67.81020).epsilon(1e-6));
}

TEST_CASE("--algo ring forces the ring, as NCCL_ALGO=Ring does") {
    const Preset h100 = load_preset("hgx-h100", kDirs);
    const Run r = run(h100, CollectiveKind::AllReduce, GiB, 1, 8, NcclForce::only(NcclAlgorithm::Ring, std::nullopt));
    // 8.4 + 14 x 3.4 = 56 us; fill 524288 / (360/24) = 34952.5 ns (step 1 GiB/192,
    // capped at 512 KiB); 1073741824 x 14/8 / 360 = 5219578.3 ns.
    CHECK(r.algorithm == "ring/Simple");
    CHECK(r.us == doctest::Approx(5310.5308).epsilon(1e-7));
}

TEST_CASE("an algorithm NCCL does not have for the collective is an error naming what there is") {
    const Preset h100 = load_preset("hgx-h100", kDirs);
    try {
        run(h100, CollectiveKind::AllGather, MiB, 1, 8, NcclForce::only(NcclAlgorithm::Tree, std::nullopt));
        FAIL("expected an InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) ==
              "nccl: NCCL_ALGO / NCCL_PROTO leave tree; LL, LL128, Simple for all-gather on 8 GPUs in 1 node, "
              "and none of them runs there (available: ring/LL, ring/LL128, ring/Simple, nvls/Simple): "
              "tree: runs all-reduce only");
    }
}

TEST_CASE("a forced algorithm that does not run says why") {
    // The message names each algorithm left on and NCCL's reason it does not
    // run, with its most permissive protocol (Simple) so that "runs Simple
    // only" does not hide the reason that stands (tuning.cc: NVLS is disabled
    // across nodes without CollNet; NVLS-tree on one node; PAT with more than
    // one GPU per node; A100's NVSwitch has no multicast, so no NVLS graph).
    auto message = [](const System& system, CollectiveKind kind, long long nodes, long long gpus,
                      const NcclForce& force) -> std::string {
        try {
            run(system, kind, MiB, nodes, gpus, force);
        } catch (const InputError& e) {
            const std::string what = e.what();
            const std::size_t at = what.find("): ");
            return at == std::string::npos ? what : what.substr(at + 3);
        }
        return "no error";
    };
    const System ib = load_preset("h100-ib-ndr400", kDirs).system;
    const System a100 = load_preset("dgx-a100", kDirs).system;
    CHECK(message(ib, CollectiveKind::AllGather, 2, 8, NcclForce::only(NcclAlgorithm::Nvls, std::nullopt)) ==
          "nvls: runs on one node (across nodes NCCL needs CollNet; nvls-tree is its multi-node form)");
    CHECK(message(ib, CollectiveKind::AllReduce, 2, 8,
                  NcclForce::only(NcclAlgorithm::Nvls, NcclProtocol::LL)) == "nvls: runs Simple only");
    CHECK(message(ib, CollectiveKind::AllReduce, 1, 8, NcclForce::only(NcclAlgorithm::NvlsTree, std::nullopt)) ==
          "nvls-tree: runs across nodes (nvls on one node)");
    CHECK(message(ib, CollectiveKind::ReduceScatter, 2, 8, NcclForce::only(NcclAlgorithm::Pat, std::nullopt)) ==
          "pat: runs with one GPU per node on several nodes");
    CHECK(message(ib, CollectiveKind::AllReduce, 2, 1, NcclForce::only(NcclAlgorithm::Pat, std::nullopt)) ==
          "pat: runs all-gather and reduce-scatter only");
    CHECK(message(a100, CollectiveKind::AllReduce, 1, 8, NcclForce::only(NcclAlgorithm::Nvls, std::nullopt)) ==
          "nvls: needs NVLink SHARP (NVSwitch multicast, sm90 or later) and 2 GPUs or more");
    // What runs is not an error.
    CHECK(message(ib, CollectiveKind::AllReduce, 2, 8, NcclForce::only(NcclAlgorithm::NvlsTree, std::nullopt)) ==
          "no error");
}

TEST_CASE("one-node presets and the multi-node preset at one node agree") {
    const Preset node = load_preset("hgx-h100", kDirs);
    const Preset cluster = load_preset("h100-ib-ndr400", kDirs);
    for (auto kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                      CollectiveKind::AllToAll, CollectiveKind::SendRecv}) {
        for (std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{64 * 1024}, 32 * MiB, 4 * GiB}) {
            for (long long gpus : {2, 4, 8}) {
                const Run a = run(node, kind, bytes, 1, gpus);
                const Run b = run(cluster, kind, bytes, 1, gpus);
                CHECK(a.us == b.us);
                CHECK(a.algorithm == b.algorithm);
            }
        }
    }
}

// While NCCL's choice holds, a larger size never takes less time. Where the
// choice changes it may: NCCL's own model is not monotone in size (its tree
// correction factors). On 2 x 4 H100 all-reduce it runs ring/LL128 at 2 MiB
// (tree/LL128 there is rated 0.6 x 0.85 of its bandwidth: treeCorrectionFactor
// and the one-GPU-per-NIC tree) and tree/LL128 at 4 MiB (0.8 x 0.85).
TEST_CASE("time never falls as the size grows under one choice, and is finite from 0 B to 64 GiB") {
    for (const char* name : {"hgx-h100", "h100-ib-ndr400", "dgx-a100", "a100-ib-hdr200"}) {
        const Preset preset = load_preset(name, kDirs);
        for (long long nodes : {1LL, 2LL, 16LL}) {
            if (preset.system.network.dimensions.size() < 2 && nodes > 1) continue;
            for (long long gpus : {1LL, 2LL, 4LL, 8LL}) {
                if (nodes * gpus == 1) continue;
                for (auto kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather,
                                  CollectiveKind::ReduceScatter, CollectiveKind::AllToAll, CollectiveKind::SendRecv}) {
                    double previous = 0;
                    std::string previous_choice;
                    for (std::uint64_t bytes = 1; bytes <= 64 * GiB; bytes *= 2) {
                        const Run r = run(preset, kind, bytes, nodes, gpus);
                        INFO(name << " nodes " << nodes << " gpus " << gpus << " " << collective_kind_name(kind)
                                  << " " << bytes);
                        CHECK(std::isfinite(r.us));
                        CHECK(r.us > 0);
                        if (r.algorithm == previous_choice) CHECK(r.us >= previous);
                        previous = r.us;
                        previous_choice = r.algorithm;
                    }
                    CHECK(run(preset, kind, 0, nodes, gpus).us >= 0);
                }
            }
        }
    }
}

TEST_CASE("one GPU is free") {
    const Run r = run(load_preset("hgx-h100", kDirs), CollectiveKind::AllReduce, GiB, 1, 1);
    CHECK(r.us == 0);
}

TEST_CASE("the nccl backend without NCCL parameters is an error") {
    Preset h100 = load_preset("hgx-h100", kDirs);
    h100.system.config.nccl.reset();
    try {
        run(h100, CollectiveKind::AllReduce, MiB);
        FAIL("expected an InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) ==
              "backend: the nccl backend needs a preset with an [nccl] table (e.g. hgx-h100, h100-ib-ndr400)");
    }
}

TEST_CASE("a training step's copies of one group share the NICs their GPUs share") {
    // 2 nodes of 8 H100 SXM on NDR; a group of one GPU per node (a data-parallel
    // group beside tensor parallelism 8), alone or with a copy on every GPU.
    auto cluster = [](long long nics) { return catalogue_system("h100-sxm", "ndr400", 2, std::nullopt, nics); };
    // nccl_nic_share: the group's GPUs per NIC over all 8 GPUs' per NIC.
    // 8 NICs: 1 / 1. 4 NICs (2 GPUs each): one GPU per node 1 / 2; two per node
    // (packed on one NIC) 2 / 2. One NIC: 1 / 8, and 4 / 8 for four per node.
    const System eight = cluster(8), four = cluster(4), one = cluster(1);
    auto share = [](const System& s, long long g) {
        const NcclParameters& p = *s.nccl();
        return nccl_nic_share(p, nccl_topology(p, g, 2, 50.0), g, 8);
    };
    CHECK(share(eight, 1) == 1.0);
    CHECK(share(four, 1) == 0.5);
    CHECK(share(four, 2) == 1.0);
    CHECK(share(one, 1) == 0.125);
    CHECK(share(one, 4) == 0.5);

    // End to end: an all-gather of 1 GiB over the two GPUs (nodes 0 and 1's GPU
    // 0): NIC-bound, so with copies on every GPU of 4-NIC nodes its transfer
    // takes twice as long; with a NIC per GPU the copies change nothing.
    const CommGroup pair{{1, 2}};
    auto time = [&](const System& s, bool every) {
        const Network network = shape_cluster(s.network, 2, 8, s.node_gpus());
        return collective_time(network, s.config, s.backend,
                               {CollectiveKind::AllGather, 1 * GiB, pair, {}, every});
    };
    CHECK(time(eight, true).time_ns == time(eight, false).time_ns);
    const CollectiveResult alone = time(four, false), copies = time(four, true);
    REQUIRE(alone.phases.size() == 1);
    REQUIRE(copies.phases.size() == 1);
    CHECK(copies.phases[0].bandwidth_ns == doctest::Approx(2.0 * alone.phases[0].bandwidth_ns).epsilon(1e-9));
    CHECK(copies.phases[0].latency_ns == alone.phases[0].latency_ns);
}
