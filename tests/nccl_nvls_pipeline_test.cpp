// NVLS's chunk, loop cost and fill (nccl_nvls_pipeline.h). Every expected value
// is worked out by hand in the comment beside it from NCCL's chunk rule
// (src/enqueue.cc, calcCollChunking) and the formula in the header.
#include <doctest/doctest.h>

#include "collective/nccl/nccl_nvls_pipeline.h"
#include "collective/nccl/nccl_tree_pipeline.h"
#include "config/preset.h"
#include "nccl_run.h"

using namespace dtcalc;
using namespace dtcalc::testing;

namespace {
constexpr double KiB = 1024;
}  // namespace

TEST_CASE("NCCL's NVLS chunk falls with the bytes a channel carries") {
    // 8 heads: 64 KiB below 64 x 8 x 128 KiB = 64 MiB per channel, 32 KiB below
    // 8 x 8 x 64 KiB = 4 MiB, 16 KiB below 2 x 8 x 32 KiB = 512 KiB.
    CHECK(nccl_nvls_chunk_bytes(64.0 * MiB, 8) == 131072);
    CHECK(nccl_nvls_chunk_bytes(64.0 * MiB - 1, 8) == 65536);
    CHECK(nccl_nvls_chunk_bytes(4.0 * MiB, 8) == 65536);
    CHECK(nccl_nvls_chunk_bytes(4.0 * MiB - 1, 8) == 32768);
    CHECK(nccl_nvls_chunk_bytes(512.0 * KiB, 8) == 32768);
    CHECK(nccl_nvls_chunk_bytes(512.0 * KiB - 1, 8) == 16384);
    CHECK(nccl_nvls_chunk_bytes(1.0, 8) == 16384);
    // 4 heads halve every threshold: 32 MiB, 2 MiB, 256 KiB.
    CHECK(nccl_nvls_chunk_bytes(32.0 * MiB, 4) == 131072);
    CHECK(nccl_nvls_chunk_bytes(32.0 * MiB - 1, 4) == 65536);
    CHECK(nccl_nvls_chunk_bytes(2.0 * MiB - 1, 4) == 32768);
    CHECK(nccl_nvls_chunk_bytes(256.0 * KiB - 1, 4) == 16384);
}

TEST_CASE("each NVLS chunk costs the same time, so small chunks stream slower") {
    // 16 channels x 8 heads, 330 ns a chunk: a loop costs 8 x 330 = 2640 ns, and
    // loops are 16 MiB (128 KiB chunks), 8, 4 and 2 MiB.
    // 1 / rate = 1/272 + 2640 x (1/loop - 1/16777216) ns per byte:
    //   8 MiB: 0.00367647 + 2640 x 5.96046e-8 = 0.00383383 -> 260.8360 GB/s
    //   4 MiB: 0.00367647 + 2640 x 1.78814e-7 = 0.00414854 -> 241.0487 GB/s
    //   2 MiB: 0.00367647 + 2640 x 4.17233e-7 = 0.00477796 -> 209.2941 GB/s
    CHECK(nccl_nvls_chunk_rate(272, 16, 131072, 330) == doctest::Approx(272));
    CHECK(nccl_nvls_chunk_rate(272, 16, 65536, 330) == doctest::Approx(260.8360).epsilon(1e-6));
    CHECK(nccl_nvls_chunk_rate(272, 16, 32768, 330) == doctest::Approx(241.0487).epsilon(1e-6));
    CHECK(nccl_nvls_chunk_rate(272, 16, 16384, 330) == doctest::Approx(209.2941).epsilon(1e-6));
    // 4 heads (4 GPUs): a loop of 64 KiB chunks is 16 x 4 x 65536 = 4 MiB and
    // costs 4 x 330 = 1320 ns; at the 4-GPU default rate, 0.85 x 360 x 4/5 =
    // 244.8 GB/s: 1/244.8 + 1320 x (1/4194304 - 1/8388608) = 0.00408497 +
    // 0.00015736 = 0.00424233 ns/B -> 235.7199 GB/s (a constant cost per loop,
    // 2640 ns, would give 0.00439968 -> 227.2893).
    CHECK(nccl_nvls_chunk_rate(244.8, 16, 65536, 330) == doctest::Approx(235.7199).epsilon(1e-6));
    // No chunk cost: the default chunk's rate at every chunk.
    CHECK(nccl_nvls_chunk_rate(272, 16, 16384, 0) == doctest::Approx(272));
}

TEST_CASE("an 8-GPU NVLS all-reduce steps down in rate where NCCL's chunk steps down") {
    // The rows (validation/nccl/cluster01, ten nodes alike) add 259-260 GB/s per
    // byte from 128 to 512 MiB and 275-276 from 1 GiB: NCCL's chunk is 64 KiB
    // below 1 GiB on 8 GPUs and 128 KiB from it. Time = 25 us + (S + loop) / rate:
    //   512 MiB: (536870912 + 8388608) / 260.8360 = 2090430.6 ns -> 2115.4306 us
    //   1 GiB:   (1073741824 + 16777216) / 272   = 4009261.2 ns -> 4034.2612 us
    // (measured 2115.28 and 4000.82 us). Per added byte: 536870912 / (4034.2612 -
    // 2115.4306) us = 279.8 GB/s across the step, 260.8 below it, 272 above.
    const Preset node = load_preset("hgx-h100", kDirs);
    const Run below = run(node, CollectiveKind::AllReduce, 512 * MiB);
    const Run above = run(node, CollectiveKind::AllReduce, GiB);
    CHECK(below.algorithm == "nvls/Simple");
    CHECK(above.algorithm == "nvls/Simple");
    CHECK(below.us == doctest::Approx(2115.4306).epsilon(1e-6));
    CHECK(above.us == doctest::Approx(4034.2612).epsilon(1e-6));
}

TEST_CASE("NVLS all-gather and reduce-scatter on one node: the limiting direction carries the peers' shares") {
    // NVLS all-gather: a GPU sends its own share once into the switch, which
    // multicasts it, and takes the other n-1 shares in: S (n-1)/n in, S/n out
    // (reduce-scatter the reverse), so algbw = nvlsEfficiency x NVLink x
    // n/(n-1) (nccl_bandwidth.h). On 8 H100: 0.85 x 360 x 8/7 = 349.714 GB/s,
    // nccl-tests' bus bandwidth 0.85 x 360 = 306 GB/s; an 8 x H100 NVLS
    // all-gather at 1 GB printed "only 300GB" (NVIDIA/nccl#1506). (Counting the
    // own share through the switch too, S in, as NCCL's maintainers put it in
    // NVIDIA/nccl#1083, would give 268.) 16 GiB at NCCL's 128 KiB chunk, 16
    // channels x 8 heads a loop (16 MiB), the loop once more for the fill:
    // 25 us + (17179869184 + 16777216) / 349.714 = 49198.417 us. On 4 GPUs,
    // 0.85 x 360 x 4/3 = 408 GB/s, 4 heads (8 MiB a loop): 25 + (17179869184 +
    // 8388608) / 408 = 42153.03 us.
    const Preset ib = load_preset("h100-ib-ndr400", kDirs);
    const NcclForce nvls = NcclForce::only(NcclAlgorithm::Nvls, NcclProtocol::Simple);
    const Run ag = run(ib, CollectiveKind::AllGather, 16 * GiB, 1, 8, nvls);
    CHECK(ag.algorithm == "nvls/Simple");
    CHECK(ag.us == doctest::Approx(49198.417).epsilon(1e-6));
    const Run rs = run(ib, CollectiveKind::ReduceScatter, 16 * GiB, 1, 4, nvls);
    CHECK(rs.algorithm == "nvls/Simple");
    CHECK(rs.us == doctest::Approx(42153.03).epsilon(1e-5));
}
