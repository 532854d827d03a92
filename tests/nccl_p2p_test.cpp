// The nccl backend's point-to-point (send/recv, all-to-all) end to end on the
// shipped H100 NDR preset: NCCL's channel rules, the NIC's per-channel rate and
// per-chunk cost, the connection starts, the chunk tuning. Every expected value
// is worked out by hand beside it (nccl_p2p.h; H100: 18 NVLinks x 20.6 GB/s;
// NDR payload 50 x 0.983 = 49.15 GB/s).
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "collective/nccl/nccl_p2p.h"
#include "collective/nccl/nccl_shape.h"
#include "collective/nccl/nccl_topology.h"
#include "config/preset.h"
#include "nccl_run.h"

using namespace dtcalc;
using namespace dtcalc::testing;

TEST_CASE("point-to-point channels follow NCCL's rule") {
    const NcclParameters p = *load_preset("h100-ib-ndr400", kDirs).system.nccl();
    auto channels = [&](std::int64_t ranks, std::int64_t nodes, std::uint64_t bytes) {
        const NcclTopology t = nccl_topology(p, ranks / nodes, nodes, 50.0);
        return nccl_p2p_channels({ranks, nodes, ranks / nodes}, t, p, bytes).channels;
    };
    // One node, 32 p2p channels, 32 per peer: minimum 32 halved while minimum x
    // ranks > 32: 8 ranks -> 4, 4 ranks -> 8. Parts double past 32 x 512 KiB = 16 MiB.
    CHECK(channels(8, 1, 32 * MiB) == 4);    // 8 MiB parts
    CHECK(channels(8, 1, 64 * MiB) == 4);    // 16 MiB parts, not above 16 MiB
    CHECK(channels(8, 1, 128 * MiB) == 8);   // 32 MiB > 16 MiB: double
    CHECK(channels(8, 1, 256 * MiB) == 16);
    CHECK(channels(8, 1, 512 * MiB) == 32);
    CHECK(channels(4, 1, 32 * MiB) == 8);
    CHECK(channels(4, 1, 128 * MiB) == 8);
    CHECK(channels(4, 1, 256 * MiB) == 16);
    // Across nodes: 16 ranks (16 p2p channels, 4 per peer): minimum 1, parts
    // double past 128 KiB up to 4. 80 ranks: 1 per peer. 2 ranks of one GPU
    // each: 4 p2p channels, 4 per peer, minimum 2, then 4.
    CHECK(channels(16, 2, 4 * GiB) == 4);
    CHECK(channels(80, 10, 4 * GiB) == 1);
    CHECK(channels(2, 2, 4 * GiB) == 4);
    CHECK(channels(8, 1, 0) == 1);
}

TEST_CASE("send/recv: channels x 20.6 GB/s up to the NVLink rate; one channel through a NIC across 10 nodes") {
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    // 8 GPUs, 32 MiB: 4 channels x 20.6 = 82.4 GB/s; 8.4 us + 524288/20.6 ns fill +
    // 33554432/82.4 ns = 8400 + 25450.9 + 407214.0 = 441064.9 ns.
    CHECK(run(ib, CollectiveKind::SendRecv, 32 * MiB, 1, 8).us == doctest::Approx(441.06485).epsilon(1e-7));
    // 512 MiB: 32 channels, capped by 360 GB/s: 8400 + 25450.9 + 1491308.1 ns.
    CHECK(run(ib, CollectiveKind::SendRecv, 512 * MiB, 1, 8).us == doctest::Approx(1525.15896).epsilon(1e-7));
    // 80 ranks: one channel through the NIC, 1 / (1/16.37 + 1100/131072) =
    // 14.39270 GB/s (nccl_p2p.h); fill 131072/16.37 = 8006.84 ns; latency 8.4 + one
    // network step 14 us + one connection started, 3.9 us: 26300 + 8006.84 +
    // 2147483648/14.39270 = 149240803 ns.
    CHECK(run(ib, CollectiveKind::SendRecv, 2 * GiB, 10, 8).us == doctest::Approx(149240.8026).epsilon(1e-7));
}

TEST_CASE("all-to-all across 10 nodes is bound by the NICs") {
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    const std::uint64_t bytes = 17179868160;  // nccl-tests' 80-rank size
    // NIC: each sends to 9 others, at 49.15 x 0.925 = 45.46375 GB/s (72 remote
    // peers x 1 channel could move 1 / (1/(72 x 16.37) + 1100/131072) = 108.2):
    // S x 72/80 / 45.46375 = 340092520.8 ns (NVLink's S x 7/80 / (450 x 0.756) is
    // far less). The own share S/80 = 214748352 B copied on 1 channel at 130.7
    // GB/s holds back 1 of 16 p2p channels: 1643063.1 / 16 = 102691.4 ns. Per
    // peer S/80 on one channel: fill 131072 / 16.37 = 8006.8 ns; + 8.4 + 14 us;
    // 72 connections (72 remote peers x 1 channel) started in turn, 72 x 3.9 =
    // 280.8 us: 340506.419 us.
    CHECK(run(ib, CollectiveKind::AllToAll, bytes, 10, 8).us == doctest::Approx(340506.4191).epsilon(1e-7));
}

TEST_CASE("point-to-point across nodes starts one connection per remote peer and channel, in turn") {
    // nccl_p2p.h: the start is connections x p2p-network-connection-start-us,
    // added once whatever the size. 10 nodes, 32 MiB per rank:
    //   1 GPU per node:  9 remote peers x 2 channels = 18 connections, 70.2 us
    //   2 GPUs per node: 18 x 2 = 36, 140.4 us
    //   4 GPUs per node: 36 x 2 = 72, 280.8 us
    //   8 GPUs per node: 72 x 1 = 72, 280.8 us (NCCL halves the channels per
    //   peer to fit 80 ranks into the p2p channels)
    // Send/recv has one remote peer: its 2 channels (10 x 1), 7.8 us.
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    Preset none = ib;
    auto params = std::make_shared<NcclParameters>(*ib.system.nccl());
    CHECK(params->p2p_network_connection_start_us == 3.9);
    params->p2p_network_connection_start_us = 0;
    none.system.config.nccl = params;
    auto start_us = [&](CollectiveKind kind, long long gpus) {
        return run(ib, kind, 32 * MiB, 10, gpus).us - run(none, kind, 32 * MiB, 10, gpus).us;
    };
    CHECK(start_us(CollectiveKind::AllToAll, 1) == doctest::Approx(70.2).epsilon(1e-9));
    CHECK(start_us(CollectiveKind::AllToAll, 2) == doctest::Approx(140.4).epsilon(1e-9));
    CHECK(start_us(CollectiveKind::AllToAll, 4) == doctest::Approx(280.8).epsilon(1e-9));
    CHECK(start_us(CollectiveKind::AllToAll, 8) == doctest::Approx(280.8).epsilon(1e-9));
    CHECK(start_us(CollectiveKind::SendRecv, 1) == doctest::Approx(7.8).epsilon(1e-9));
    // One node: no proxy, no start.
    CHECK(run(ib, CollectiveKind::AllToAll, 32 * MiB, 1, 8).us == run(none, CollectiveKind::AllToAll, 32 * MiB, 1, 8).us);
    CHECK(nccl_p2p_connection_start_ns(*ib.system.nccl(), 72) == doctest::Approx(280800.0));
}

TEST_CASE("point-to-point through a NIC: channels add less than their count") {
    // 1 / rate = 1 / (channels x 16.37 GB/s) + 1.10 us / 131072 B (nccl_p2p.h):
    // 1 channel: 1 / (0.0610874 + 0.0083923) = 14.3927 GB/s (10 x 8 prints 15.2:
    // nccl-tests' mean over ranks, validate/nccl_tests_timing.h, gives 14.7);
    // 2: 1 / (0.0305437 + 0.0083923) = 25.6832 (measured 24.9, 10 x 1);
    // 4: 1 / (0.0152718 + 0.0083923) = 42.2580 (measured 39.0-46.3, 2-node pairs);
    // 72 connections: 108.216, above the NIC's 49.15 GB/s, which then binds.
    const NcclParameters p = *load_preset("h100-ib-ndr400", kDirs).system.nccl();
    CHECK(nccl_p2p_network_rate(p, 1000.0, 1, 131072) == doctest::Approx(14.392695).epsilon(1e-7));
    CHECK(nccl_p2p_network_rate(p, 1000.0, 2, 131072) == doctest::Approx(25.683165).epsilon(1e-7));
    CHECK(nccl_p2p_network_rate(p, 1000.0, 4, 131072) == doctest::Approx(42.257974).epsilon(1e-7));
    CHECK(nccl_p2p_network_rate(p, 1000.0, 72, 131072) == doctest::Approx(108.216096).epsilon(1e-7));
    CHECK(nccl_p2p_network_rate(p, 49.15, 72, 131072) == 49.15);
}

TEST_CASE("two ranks on two nodes: send/recv on four channels; all-to-all copies its own half on the same four") {
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    const std::uint64_t bytes = 16 * GiB;
    // Send/recv: 4 channels, 42.2580 GB/s; latency 8.4 + 14 us + 4 connections
    // x 3.9 us = 38 us; fill 131072 / 16.37 = 8006.84 ns; 17179869184 / 42.2580 =
    // 406547391.6 ns: 406593.398 us (the 45 pairs measured: 388.6-440.1 ms,
    // median 432.8).
    const Run sr = run(ib, CollectiveKind::SendRecv, bytes, 2, 1);
    CHECK(sr.channels == 4);
    CHECK(sr.us == doctest::Approx(406593.398).epsilon(1e-8));
    // All-to-all: half to the peer over the same 4 channels, 8589934592 / 42.2580
    // = 203273695.8 ns (no all-to-all share: one peer node); the own half copied
    // at 4 x 130.7 GB/s = 16430632.3 ns, on the peer's own channels (share 4 / 4);
    // + 22400 + 4 connections x 3900 + 8006.84 ns: 219750.335 us (median pair
    // measured: 238.2 ms out of place, 215.9 in place, where nothing is copied).
    CHECK(run(ib, CollectiveKind::AllToAll, bytes, 2, 1).us == doctest::Approx(219750.335).epsilon(1e-8));
}

TEST_CASE("point-to-point across nodes: NCCL sends smaller chunks for small operations") {
    // enqueue.cc tunes the network chunk: a quarter of 128 KiB below 128 KiB,
    // half below 1 MiB; each chunk pays the 1.10 us per-chunk cost.
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    // 512 KiB on two nodes of one GPU: 4 channels (min(4, 512 KiB / 64 KiB),
    // parts of 128 KiB, not above 128 KiB), 64 KiB chunks: 1 / (1 / (4 x 16.37)
    // + 1100 / 65536) = 31.19491 GB/s; 22.4 us + 4 connections x 3.9 us + fill
    // 65536 / 16.37 = 4003.4 ns + 524288 / 31.19491 = 16806.8 ns: 58.81026 us
    // (128 KiB chunks would give 58.41 us).
    const Run half = run(ib, CollectiveKind::SendRecv, 512 * 1024, 2, 1);
    CHECK(half.channels == 4);
    CHECK(half.us == doctest::Approx(58.810263).epsilon(1e-7));
    // 64 KiB: one channel (ceil(65536 / 65536)), 32 KiB chunks: 1 / (1 / 16.37 +
    // 1100 / 32768) = 10.56449 GB/s; 22.4 us + 1 connection x 3.9 us + 32768 /
    // 16.37 = 2001.7 ns + 65536 / 10.56449 = 6203.4 ns: 34.50513 us.
    const Run small = run(ib, CollectiveKind::SendRecv, 64 * 1024, 2, 1);
    CHECK(small.channels == 1);
    CHECK(small.us == doctest::Approx(34.505131).epsilon(1e-7));
}

TEST_CASE("send/recv between two GPUs of one node of a communicator across nodes: its channels, NVLink's rate") {
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    const NcclParameters& p = *ib.system.nccl();
    const Network network = shape_cluster(ib.system.network, 2, 8, ib.system.node_gpus());
    const CommGroup group = whole_network_group(network);
    const NcclShape shape = nccl_shape(group);
    const NcclRates rates = nccl_rates(network, group, shape, p);
    // 2 x 8, 16 GiB: the communicator's 4 channels per peer (a network peer's,
    // the least), as the network pair (two-ranks-on-two-nodes case above), in
    // its 128 KiB chunks, over NVLink at 4 x 20.6 = 82.4 GB/s: 8.4 us + fill
    // 131072 / 20.6 = 6362.72 ns + 17179869184 / 82.4 = 208493558.06 ns:
    // 208508320.78 ns.
    const NcclP2pCost pair = nccl_send_recv_node_pair_cost(16 * GiB, shape, rates, p);
    CHECK(pair.channels == 4);
    CHECK(pair.time_ns() == doctest::Approx(208508320.78).epsilon(1e-9));
}

TEST_CASE("all-to-all across nodes: GPUs that share a NIC share its rate") {
    // 2 nodes of 8 H100 SXM on NDR, as `--gpu h100-sxm --nic ndr400
    // --nics-per-node K` composes them, 4 GiB per rank: each GPU sends half of
    // it, 2 GiB, to the other node.
    auto cluster = [](long long nics) { return catalogue_system("h100-sxm", "ndr400", 2, 8, nics); };
    // One NIC for the 8 GPUs: it carries 8 x 2 GiB = 16 GiB at its payload,
    // 50 x 0.983 = 49.15 GB/s (the GPUs' 8 x 16 connections could feed it
    // 8 / (1/(16 x 16.37) + 1100/131072) = 655 GB/s): 17179869184 / 49.15 =
    // 349539556.4 ns. Besides: 2 channels per peer (4 ring channels, 4 p2p
    // channels, halved while 4 x ceil(16/8) > 4); latency 8.4 + 14 us; 8 remote
    // peers x 2 connections started, 16 x 3.9 = 62.4 us; fill 131072 / 16.37 =
    // 8006.84 ns; the own 256 MiB copied at 2 x 130.7 GB/s, holding back 2 of the
    // 4 p2p channels: 1026915.1 / 2 = 513457.6 ns. In all 350145.82 us.
    const Run one = run(cluster(1), CollectiveKind::AllToAll, 4 * GiB, 2, 8);
    CHECK(one.nics == 1);
    CHECK(one.channels == 2);
    CHECK(one.us == doctest::Approx(350145.82).epsilon(1e-6));
    // Eight NICs, one per GPU: each carries its GPU's 2 GiB, 8 x faster than the
    // one NIC; the rest is the same or smaller, so the time is about an eighth.
    const Run eight = run(cluster(8), CollectiveKind::AllToAll, 4 * GiB, 2, 8);
    CHECK(eight.nics == 8);
    CHECK(eight.us < one.us / 7.5);
    CHECK(eight.us > 2147483648 / 49.15 / 1000);
}

TEST_CASE("several NICs per GPU: NCCL's search and point-to-point use them all") {
    // 2 nodes of 8 H100 SXM with two HDR 200 Gb/s NICs under each GPU's PCIe
    // switch (`--nic hdr200 --nics-per-gpu 2`: 16 NICs per node).
    const System two = catalogue_system("h100-sxm", "hdr200", 2, std::nullopt, std::nullopt, 2);
    const NcclParameters& p = *two.nccl();
    CHECK(p.hardware.nics_per_node == 16);
    CHECK(p.hardware.nics_per_gpu == 2);
    // Search: one NIC's path min(25, PCIe Gen5 48) = 25 GB/s; the first sm90
    // inter step at most 25 is 24: min(16 NICs x 1, 8 GPUs' PCIe x floor(48 /
    // 24) = 16, NVLink floor(370.8 x 8/7 / 24) = 17) = 16 channels x 24 = 384 >=
    // 370.8, done; 24 < 25, no duplication; no faster step fits (30: 0). Postset
    // 32. With one NIC per GPU (8 NICs) the same search gives 8 x 24.
    const NcclTopology t = nccl_topology(p, 8, 2, 25.0);
    CHECK(t.nics == 16);
    CHECK(t.nics_per_gpu == 2);
    CHECK(t.gpus_per_nic == 1);
    CHECK(t.ring.channels == 16);
    CHECK(t.ring.bw_inter == 24.0);
    CHECK(t.channels == 32);
    // NVLS heads are GPUs: 8, not 16.
    CHECK(t.nvls.channels == 8);
    // NCCL counts a GPU's NICs until they carry its PCIe rate (48 GB/s, Gen5 x16):
    // 200 Gb/s NICs 25 + 25 = 50: two; 400 Gb/s: the first carries min(50, 48) =
    // 48: one, so a second NDR NIC per GPU is not used; four 100 Gb/s: 12.5 x 4 = 50: four.
    NcclHardware hw = p.hardware;
    CHECK(nccl_nics_per_gpu_in_use(hw, 25.0) == 2);
    CHECK(nccl_nics_per_gpu_in_use(hw, 50.0) == 1);
    CHECK(nccl_topology(p, 8, 2, 50.0).nics == 8);
    hw.nics_per_gpu = 4;
    CHECK(nccl_nics_per_gpu_in_use(hw, 12.5) == 4);
    CHECK(nccl_nics_per_gpu_in_use(hw, 25.0) == 2);
    // Point-to-point per peer (getLocalNetCountByBw): the GPU's NICs counted
    // until they carry 48 GB/s: 25, then 50: two; max(2, ceil(50 / 14)) = 4.
    // 32 p2p channels, and 4 x ceil(16 / 8) = 8 <= 32 keeps 4.
    CHECK(t.p2p_channels_per_peer == 4);

    // All-to-all, 4 GiB per rank: each GPU sends 2 GiB through its two NICs at
    // 2 x 25 x 0.930 = 46.5 GB/s (its 8 remote peers x 4 channels could move
    // 1 / (1/(32 x 16.37) + 1100/131072) = 97.08): 2147483648 / 46.5 =
    // 46182444.0 ns. The own 256 MiB copied at 4 x 130.7 GB/s, holding back 4
    // of the 32 p2p channels: 513457.6 / 8 = 64182.2 ns. Latency 8.4 + 14 us +
    // 8 peers x 4 connections x 3.9 us = 147.2 us; fill 131072 / 16.37 =
    // 8006.8 ns. In all 46401.833 us.
    const Run a2a_two = run(two, CollectiveKind::AllToAll, 4 * GiB, 2, 8);
    CHECK(a2a_two.channels == 4);
    CHECK(a2a_two.us == doctest::Approx(46401.833).epsilon(1e-6));
    // One NIC per GPU (8 NICs): 2 channels per peer (ceil(25 / 14)), 16 p2p
    // channels; the NIC's 23.25 GB/s binds (16 connections could move 81.9):
    // 92364888.1 ns; copy 1026915.1 x 2/16 = 128364.4 ns; latency 22.4 + 16 x
    // 3.9 = 84.8 us; fill 8006.8 ns: 92586.059 us, about twice.
    const System one_per_gpu = catalogue_system("h100-sxm", "hdr200", 2, std::nullopt, 8);
    const Run a2a_one = run(one_per_gpu, CollectiveKind::AllToAll, 4 * GiB, 2, 8);
    CHECK(a2a_one.channels == 2);
    CHECK(a2a_one.us == doctest::Approx(92586.059).epsilon(1e-6));
}
