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

TEST_CASE("each NVLS loop costs the same time, so small chunks stream slower") {
    // 16 channels x 8 heads: loops of 16 MiB (128 KiB chunks), 8, 4 and 2 MiB.
    // 1 / rate = 1/272 + 2640 x (1/loop - 1/16777216) ns per byte:
    //   8 MiB: 0.00367647 + 2640 x 5.96046e-8 = 0.00383383 -> 260.8360 GB/s
    //   4 MiB: 0.00367647 + 2640 x 1.78814e-7 = 0.00414854 -> 241.0487 GB/s
    //   2 MiB: 0.00367647 + 2640 x 4.17233e-7 = 0.00477796 -> 209.2941 GB/s
    CHECK(nccl_nvls_chunk_rate(272, 16, 8, 131072, 2640) == doctest::Approx(272));
    CHECK(nccl_nvls_chunk_rate(272, 16, 8, 65536, 2640) == doctest::Approx(260.8360).epsilon(1e-6));
    CHECK(nccl_nvls_chunk_rate(272, 16, 8, 32768, 2640) == doctest::Approx(241.0487).epsilon(1e-6));
    CHECK(nccl_nvls_chunk_rate(272, 16, 8, 16384, 2640) == doctest::Approx(209.2941).epsilon(1e-6));
    // No loop cost: the default chunk's rate at every chunk.
    CHECK(nccl_nvls_chunk_rate(272, 16, 8, 16384, 0) == doctest::Approx(272));
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
