// The channels and threads NCCL launches a ring or tree collective with
// (src/enqueue.cc, topoGetAlgoInfo), worked by hand, and what they do to a
// small collective's time.
#include <doctest/doctest.h>

#include <cmath>

#include "collective/nccl/nccl_launch.h"
#include "config/preset.h"
#include "nccl_run.h"

using namespace dtcalc;
using dtcalc::testing::kDirs;
using dtcalc::testing::run;

TEST_CASE("NCCL's launch: fewer channels, then fewer threads, while a thread would get less than its threshold") {
    // Tree, LL, 8 KiB on 16 channels: 8 B per thread x 512 threads = 4 KiB per
    // channel, so 2 channels; a tree runs all of each channel's threads.
    NcclLaunch l = nccl_launch(NcclAlgorithm::Tree, NcclProtocol::LL, 8192, 16, 16);
    CHECK(l.channels == 2.0);
    CHECK(l.nccl_channels == 2);
    CHECK(l.thread_share == 1.0);
    CHECK(l.share() == doctest::Approx(2.0 / 16));
    // 6 KiB: NCCL keeps 1 channel (6144 < 2 x 4096); the continuous launch 1.5.
    l = nccl_launch(NcclAlgorithm::Tree, NcclProtocol::LL, 6144, 16, 16);
    CHECK(l.nccl_channels == 1);
    CHECK(l.channels == 1.5);
    // Ring, LL, 8 ranks: 8 x 8 = 64 B per thread. 8 KiB on 24 channels: one
    // channel (8192 < 512 x 64), then 512 -> 256 -> 128 threads (8192 < 128 x 64
    // fails): 128 / 512 of the threads, 1/24 of the channels.
    l = nccl_launch(NcclAlgorithm::Ring, NcclProtocol::LL, 8192, 8, 24);
    CHECK(l.nccl_channels == 1);
    CHECK(l.thread_share == doctest::Approx(128.0 / 512));
    CHECK(l.share() == doctest::Approx(1.0 / 96));
    // 8 B: 512 -> 64 threads (64 is no multiple of 128), then at least three
    // warps: 96.
    l = nccl_launch(NcclAlgorithm::Ring, NcclProtocol::LL, 8, 8, 24);
    CHECK(l.thread_share == doctest::Approx(96.0 / 512));
    // LL128, 100 B: one channel, 640 -> 320 threads (320 is no multiple of 128).
    l = nccl_launch(NcclAlgorithm::Ring, NcclProtocol::LL128, 100, 16, 16);
    CHECK(l.channels == 1.0);
    CHECK(l.thread_share == doctest::Approx(320.0 / 640));
    // Simple, 1 MiB on 24 channels: 64 B x 512 = 32 KiB per channel; 24 x 32 KiB
    // = 768 KiB <= 1 MiB: everything runs.
    l = nccl_launch(NcclAlgorithm::Ring, NcclProtocol::Simple, 1 << 20, 8, 24);
    CHECK(l.channels == 24.0);
    CHECK(l.share() == 1.0);
    // 512 KiB: 16 x 32768 = 524288 exactly: 16 channels, all their threads.
    l = nccl_launch(NcclAlgorithm::Ring, NcclProtocol::Simple, 1 << 19, 8, 24);
    CHECK(l.channels == 16.0);
    CHECK(l.nccl_channels == 16);
    CHECK(l.thread_share == 1.0);
    // NVLS keeps its own channels whatever the size.
    CHECK(nccl_launch(NcclAlgorithm::Nvls, NcclProtocol::Simple, 8, 8, 24).share() == 1.0);
}

TEST_CASE("a small ring all-gather on one node moves a full launch's worth at the launched lanes' rate") {
    // 8 H100 on NVSwitch, NCCL_ALGO=ring NCCL_PROTO=LL, all-gather of 64 KiB:
    // 8 x 8 = 64 B per thread, 512 x 64 = 32 KiB per channel, so 2 of the 24
    // channels with all 512 threads: the lanes drive 360 x 2/24 = 30 GB/s, LL
    // moves half of it, 15 GB/s (under its 141 cap). The data, 64 KiB x 7/8 =
    // 57344 B, takes 3822.9 ns; the fill, one 4 KiB step of a channel at 7.5
    // GB/s, 546.1 ns; the latency 6.6 + 7 x 0.6 = 10.8 us.
    const Preset node = load_preset("hgx-h100", kDirs);
    const NcclForce ring_ll = NcclForce::only(NcclAlgorithm::Ring, NcclProtocol::LL);
    const auto r = run(node, CollectiveKind::AllGather, 65536, 1, 8, ring_ll);
    CHECK(r.algorithm == "ring/LL");
    CHECK(r.us == doctest::Approx(10.8 + (57344.0 / 15.0 + 4096.0 / 7.5) * 1e-3).epsilon(1e-7));
    // Half the size launches half the channels: the data's time stays that of
    // the 64 KiB, 3822.9 ns, and the fill's step is the same 4 KiB.
    const auto half = run(node, CollectiveKind::AllGather, 32768, 1, 8, ring_ll);
    CHECK(half.us == doctest::Approx(r.us).epsilon(1e-9));
}

TEST_CASE("with NCCL_ALGO and NCCL_PROTO set, a ring's or tree's time never falls as the size grows") {
    // The launch shrinks the channels with the size; each launched channel
    // then sends a larger share per step through the NICs, so no protocol's
    // per-send cost makes a small message cheaper than a smaller one.
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    for (auto algorithm : {NcclAlgorithm::Ring, NcclAlgorithm::Tree}) {
        for (auto protocol : {NcclProtocol::LL, NcclProtocol::LL128, NcclProtocol::Simple}) {
            const NcclForce force = NcclForce::only(algorithm, protocol);
            for (long long gpus : {1LL, 2LL, 4LL, 8LL}) {
                for (long long nodes : {1LL, 2LL, 4LL}) {
                    if (gpus * nodes < 2) continue;
                    if (algorithm == NcclAlgorithm::Tree && nodes == 1 && gpus == 1) continue;
                    double previous = 0;
                    for (std::uint64_t bytes = 8; bytes <= (64u << 20); bytes *= 2) {
                        const auto r = run(ib, CollectiveKind::AllReduce, bytes, nodes, gpus, force);
                        INFO(r.algorithm << " " << nodes << " x " << gpus << " " << bytes << " B");
                        CHECK(std::isfinite(r.us));
                        CHECK(r.us >= previous);
                        previous = r.us;
                    }
                }
            }
        }
    }
}
