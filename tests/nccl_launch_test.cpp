// The channels and threads NCCL launches a ring, tree or PAT collective with
// (src/enqueue.cc, topoGetAlgoInfo): NCCL's rule worked by hand, and its effect
// on a small all-reduce against a public measurement.
#include <doctest/doctest.h>

#include "collective/nccl/nccl_launch.h"
#include "config/preset.h"
#include "nccl_run.h"

using namespace dtcalc;
using dtcalc::testing::kDirs;
using dtcalc::testing::run;

TEST_CASE("NCCL's launch: fewer channels, then fewer threads, while each thread would get less than its threshold") {
    // Tree, LL, 8 KiB on 16 channels: 8 B per thread x 512 threads = 4 KiB per
    // channel, so 8192 < nc x 4096 until nc = 2; a tree runs all 640 threads.
    NcclLaunch l = nccl_launch(NcclAlgorithm::Tree, NcclProtocol::LL, 8192, 16, 16);
    CHECK(l.channels == 2);
    CHECK(l.threads == 640);
    CHECK(l.share == doctest::Approx(2.0 / 16));
    // Ring, LL, 8 ranks: 8 x 8 = 64 B per thread. 8 KiB on 24 channels: one
    // channel (8192 < 32768), then 512 -> 256 (8192 < 16384) -> 128 threads
    // (8192 < 8192 fails): 128 / (24 x 512) = 1/96.
    l = nccl_launch(NcclAlgorithm::Ring, NcclProtocol::LL, 8192, 8, 24);
    CHECK(l.channels == 1);
    CHECK(l.threads == 128);
    CHECK(l.share == doctest::Approx(1.0 / 96));
    // 8 B: one channel, 512 -> 64 threads (64 is no multiple of 128), then at
    // least three warps: 96.
    l = nccl_launch(NcclAlgorithm::Ring, NcclProtocol::LL, 8, 8, 24);
    CHECK(l.channels == 1);
    CHECK(l.threads == 96);
    // LL128, 100 B: one channel, 640 -> 320 threads (320 is no multiple of 128).
    l = nccl_launch(NcclAlgorithm::Ring, NcclProtocol::LL128, 100, 16, 16);
    CHECK(l.channels == 1);
    CHECK(l.threads == 320);
    CHECK(l.share == doctest::Approx(320.0 / (16 * 640)));
    // Simple, 1 MiB on 24 channels: 64 B x 512 = 32 KiB per channel, 24 x 32 KiB
    // = 768 KiB <= 1 MiB: everything runs.
    l = nccl_launch(NcclAlgorithm::Ring, NcclProtocol::Simple, 1 << 20, 8, 24);
    CHECK(l.channels == 24);
    CHECK(l.threads == 512);
    CHECK(l.share == 1.0);
    // 512 KiB: 524288 < 24 x 32768; 16 x 32768 = 524288 is not: 16 channels.
    CHECK(nccl_launch(NcclAlgorithm::Ring, NcclProtocol::Simple, 1 << 19, 8, 24).channels == 16);
}

TEST_CASE("a small all-reduce on two nodes of 8 H100 runs on the channels NCCL launches") {
    // 2 x 8 H100 over NDR, NCCL 2.26.2, one GPU per MPI rank (NVIDIA/nccl-tests#309):
    // tree/LL from 8 B to 128 KiB. The latency, 6.8 + 2 x (7 x 0.6 + 1 x 5.0) =
    // 25.2 us, holds the 8 B row (24.70 us); from 2 KiB on, each launch keeps
    // about 4 KiB per channel, so the data term stops shrinking with the size:
    // measured 28.19 us at 2 KiB and 31.67 at 8 KiB, where all 16 channels
    // would give 25.3 and 25.6.
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    const auto small = run(ib, CollectiveKind::AllReduce, 8, 2, 8);
    CHECK(small.algorithm == "tree/LL");
    CHECK(small.us == doctest::Approx(24.70).epsilon(0.05));
    const auto two_k = run(ib, CollectiveKind::AllReduce, 2048, 2, 8);
    CHECK(two_k.us == doctest::Approx(28.19).epsilon(0.06));
    const auto eight_k = run(ib, CollectiveKind::AllReduce, 8192, 2, 8);
    CHECK(eight_k.us == doctest::Approx(31.67).epsilon(0.12));
}
