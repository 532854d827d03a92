// The nccl backend end to end through collective_time() on the shipped presets.
// Every expected value is worked out by hand from the preset's constants in the
// comment beside it (hgx-h100 / h100-ib-ndr400: NVLink 450 GB/s x 0.80 = 360 GB/s
// per GPU; NIC 50 GB/s; 32 ring channels on a node, 8 across nodes; NCCL's
// latency tables).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_model.h"
#include "collective/nccl/nccl_p2p.h"
#include "config/preset.h"
#include "core/error.h"
#include "network/cluster_shape.h"

using namespace dtcalc;

namespace {

const std::vector<std::string> kDirs{DTCALC_PRESETS_DIR};

struct Run {
    double us = 0;
    std::string algorithm;
};

Run run(const Preset& preset, CollectiveKind kind, std::uint64_t bytes, long long nodes = 1, long long gpus = 8) {
    const Network network = shape_cluster(preset.network, nodes, gpus);
    const CollectiveResult r =
        collective_time(network, preset.system, preset.backend, {kind, bytes, whole_network_group(network)});
    return {r.time_ns / 1000.0, std::string(r.algorithm)};
}

constexpr std::uint64_t MiB = 1u << 20;
constexpr std::uint64_t GiB = 1u << 30;

}  // namespace

TEST_CASE("an 8-GPU 8-byte all-reduce is latency: ring/LL, 15.0 us, between 5 and 50 us") {
    const Preset h100 = load_preset("hgx-h100", kDirs);
    const Run r = run(h100, CollectiveKind::AllReduce, 8);
    // ring/LL: base 6.6 us + 2(8-1) steps x 0.6 us = 15.0 us; the 8 bytes add
    // 8 x 1.75 / 141 GB/s (LL cap) = 0.1 ns and a negligible fill.
    CHECK(r.algorithm == "ring/LL");
    CHECK(r.us == doctest::Approx(15.000106).epsilon(1e-6));
    CHECK(r.us >= 5.0);
    CHECK(r.us <= 50.0);
}

TEST_CASE("8-GPU all-reduce of 1 GiB runs NVLS: 25 us + 512 KiB fill + S / 272 GB/s") {
    const Run r = run(load_preset("hgx-h100", kDirs), CollectiveKind::AllReduce, GiB);
    // algbw = 0.85 x 360 x 8/9 = 272 GB/s; fill = 524288 / (272/16) = 30840.5 ns;
    // 1073741824 / 272 = 3947580.2 ns; + 25 us latency = 4003420.7 ns.
    CHECK(r.algorithm == "nvls/Simple");
    CHECK(r.us == doctest::Approx(4003.4207).epsilon(1e-7));
}

TEST_CASE("8-GPU ring all-gather of 1 GiB: latency + one 512 KiB step + 7/8 S over 360 GB/s") {
    const Run r = run(load_preset("hgx-h100", kDirs), CollectiveKind::AllGather, GiB);
    // latency 8.4 + 7 x 3.4 = 32.2 us; each channel's step is 1 GiB / (8 x 32) =
    // 4 MiB, capped at 512 KiB: fill = 524288 / (360/32) = 46603.4 ns;
    // bandwidth 1073741824 x 7/8 / 360 = 2609789.2 ns. Sum 2688592.5 ns.
    CHECK(r.algorithm == "ring/Simple");
    CHECK(r.us == doctest::Approx(2688.5925).epsilon(1e-7));
}

TEST_CASE("--algo ring forces the ring, as NCCL_ALGO=Ring does") {
    Preset h100 = load_preset("hgx-h100", kDirs);
    NcclParameters forced = *h100.nccl;
    forced.forced_algorithm = NcclAlgorithm::Ring;
    h100.system.nccl = std::make_shared<const NcclParameters>(forced);
    const Run r = run(h100, CollectiveKind::AllReduce, GiB);
    // 8.4 + 14 x 3.4 = 56 us; fill 46603.4 ns (step 1 GiB/256 = 4 MiB, capped);
    // 1073741824 x 14/8 / 360 = 5219578.3 ns. Sum 5322181.8 ns.
    CHECK(r.algorithm == "ring/Simple");
    CHECK(r.us == doctest::Approx(5322.1818).epsilon(1e-7));
}

TEST_CASE("an algorithm NCCL does not have for the collective is an error naming what there is") {
    Preset h100 = load_preset("hgx-h100", kDirs);
    NcclParameters forced = *h100.nccl;
    forced.forced_algorithm = NcclAlgorithm::Tree;
    h100.system.nccl = std::make_shared<const NcclParameters>(forced);
    try {
        run(h100, CollectiveKind::AllGather, MiB);
        FAIL("expected an InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) ==
              "nccl: no algorithm tree available for all-gather on 8 GPUs in 1 node (available: ring/LL, "
              "ring/LL128, ring/Simple, nvls/Simple)");
    }
}

TEST_CASE("NCCL's choice across 10 nodes switches all-gather from LL128 to Simple near 239 MB") {
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    // NCCL's view beyond two nodes: bus = 8 NICs x 50 x 0.96 = 384 GB/s (Simple),
    // LL128 min(384 x 0.92, 8 channels x 36.7) = 293.6; algbw x 80/79.
    // Latency Simple 8.4 + 70 x 3.4 + 9 x 14 = 372.4 us, LL128 14 + 70 x 1.9 +
    // 9 x 4 = 183 us. Crossover 189.4 us / (1/297.3 - 1/388.9 GB/s) = 239 MB:
    // 128 MiB (134 MB) LL128, 256 MiB (268 MB) Simple.
    CHECK(run(ib, CollectiveKind::AllGather, 128 * MiB, 10, 8).algorithm == "ring/LL128");
    CHECK(run(ib, CollectiveKind::AllGather, 256 * MiB, 10, 8).algorithm == "ring/Simple");
}

TEST_CASE("point-to-point channels follow NCCL's rule") {
    const NcclParameters p = *load_preset("hgx-h100", kDirs).nccl;
    auto channels = [&](std::int64_t ranks, std::int64_t nodes, std::uint64_t bytes) {
        return nccl_p2p_channels({ranks, nodes, ranks / nodes}, p, bytes).channels;
    };
    // One node, 32 p2p channels: minimum 32 halved while minimum x ranks > 32:
    // 8 ranks -> 4, 4 ranks -> 8. Parts double past 32 x 512 KiB = 16 MiB.
    CHECK(channels(8, 1, 32 * MiB) == 4);    // 8 MiB parts
    CHECK(channels(8, 1, 64 * MiB) == 4);    // 16 MiB parts, not above 16 MiB
    CHECK(channels(8, 1, 128 * MiB) == 8);   // 32 MiB > 16 MiB: double
    CHECK(channels(8, 1, 256 * MiB) == 16);
    CHECK(channels(8, 1, 512 * MiB) == 32);
    CHECK(channels(4, 1, 32 * MiB) == 8);
    CHECK(channels(4, 1, 128 * MiB) == 8);
    CHECK(channels(4, 1, 256 * MiB) == 16);
    // Across nodes the per-peer count starts at 4 and halves while
    // count x ranks > 4 x 32: 16 ranks keep 4, 80 ranks get 1.
    CHECK(channels(16, 2, 4 * GiB) == 4);
    CHECK(channels(80, 10, 4 * GiB) == 1);
    CHECK(channels(8, 1, 0) == 1);
}

TEST_CASE("send/recv: channels x 21 GB/s up to the NVLink rate; one channel through a NIC across 10 nodes") {
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    // 8 GPUs, 32 MiB: 4 channels x 21 = 84 GB/s; 8.4 us + 524288/21 ns fill +
    // 33554432/84 ns = 8400 + 24966.1 + 399457.5 = 432823.6 ns.
    CHECK(run(ib, CollectiveKind::SendRecv, 32 * MiB, 1, 8).us == doctest::Approx(432.8236).epsilon(1e-7));
    // 512 MiB: 32 channels, capped by 360 GB/s: 8400 + 24966.1 + 1491308.1 ns.
    CHECK(run(ib, CollectiveKind::SendRecv, 512 * MiB, 1, 8).us == doctest::Approx(1524.6742).epsilon(1e-7));
    // 80 ranks: one channel, 15.2 GB/s through the NIC; fill 131072/15.2 ns;
    // + 300 us multi-node overhead: 8400 + 8623.2 + 2147483648/15.2 + 300000.
    CHECK(run(ib, CollectiveKind::SendRecv, 2 * GiB, 10, 8).us == doctest::Approx(141598.84).epsilon(1e-7));
}

TEST_CASE("all-to-all across 10 nodes is bound by the NICs") {
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    const std::uint64_t bytes = 17179868160;  // nccl-tests' 80-rank size
    // NIC: S x 72/80 / (50 x 0.92) = 336127855.3 ns (NVLink's S x 7/80 / 346.5
    // is far less); per peer S/80 = 214748352 B on one channel: fill 131072 /
    // 15.2 = 8623.2 ns; + 8.4 us + 300 us.
    CHECK(run(ib, CollectiveKind::AllToAll, bytes, 10, 8).us == doctest::Approx(336444.878).epsilon(1e-8));
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

TEST_CASE("time never falls as the size grows, and is finite from 0 B to 64 GiB") {
    for (const char* name : {"hgx-h100", "h100-ib-ndr400", "dgx-a100", "a100-ib-hdr200"}) {
        const Preset preset = load_preset(name, kDirs);
        for (long long nodes : {1LL, 2LL, 16LL}) {
            if (preset.network.dimensions.size() < 2 && nodes > 1) continue;
            for (auto kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                              CollectiveKind::AllToAll, CollectiveKind::SendRecv}) {
                double previous = 0;
                for (std::uint64_t bytes = 1; bytes <= 64 * GiB; bytes *= 2) {
                    const Run r = run(preset, kind, bytes, nodes, 8);
                    INFO(name << " nodes " << nodes << " " << collective_kind_name(kind) << " " << bytes);
                    CHECK(std::isfinite(r.us));
                    CHECK(r.us > 0);
                    CHECK(r.us >= previous);
                    previous = r.us;
                }
                CHECK(run(preset, kind, 0, nodes, 8).us >= 0);
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
    h100.system.nccl.reset();
    try {
        run(h100, CollectiveKind::AllReduce, MiB);
        FAIL("expected an InputError");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) ==
              "backend: the nccl backend needs a preset with an [nccl] table (e.g. hgx-h100, h100-ib-ndr400)");
    }
}
