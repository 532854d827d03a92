// The systolic-array model (src/gemm/systolic_array.h) on small GEMMs, every
// count worked by hand from the formulas in the header:
//   folds = ceil(Sr/R) . ceil(Sc/C), cycles per fold = 2R + C + T - 2,
//   ws: Sr = K, Sc = N, T = M;  os: Sr = M, Sc = N, T = K;  is: Sr = K, Sc = M, T = N.
// LocalGemm{rows, cols, depth} is out[M x N] summed over K: {M, N, K}.
#include <doctest/doctest.h>

#include "core/error.h"
#include "gemm/systolic_array.h"

using namespace dtcalc;

namespace {

SystolicArray array(std::int64_t rows, std::int64_t cols, Dataflow dataflow) {
    SystolicArray a;
    a.rows = rows;
    a.cols = cols;
    a.dataflow = dataflow;
    a.ifmap_sram_bytes = a.filter_sram_bytes = a.ofmap_sram_bytes = 1 << 20;  // everything fits
    a.dram_words_per_cycle = 10;
    a.clock_ghz = 1;
    return a;
}

}  // namespace

TEST_CASE("systolic ws: a GEMM that fits the array in one fold") {
    // 4x4 array, M = 8, N = 4, K = 4: Sr = K = 4, Sc = N = 4, T = M = 8.
    // folds = ceil(4/4) . ceil(4/4) = 1; per fold 2.4 + 4 + 8 - 2 = 18
    // (fill 4, stream 8, drain 4 + 4 - 2 = 6).
    const SystolicCost c = systolic_gemm_cost(array(4, 4, Dataflow::WeightStationary), {8, 4, 4}, 2);
    CHECK(c.spatial_rows == 4);
    CHECK(c.spatial_cols == 4);
    CHECK(c.temporal == 8);
    CHECK(c.folds == 1);
    CHECK(c.cycles_per_fold == 18);
    CHECK(c.compute_cycles == 18);
    // Traffic: B 4.4 = 16, A 8.4 = 32, out 8.4 = 32 -> 80 words; 80 / 10 = 8 cycles < 18, no stall.
    CHECK(c.dram_words == 80);
    CHECK(c.memory_cycles == 8);
    CHECK(c.stall_cycles == 0);
    CHECK(c.total_cycles == 18);
    CHECK(c.ns == 18);
}

TEST_CASE("systolic ws: a GEMM needing several folds") {
    // 4x4 array, M = 8, N = 10, K = 6: Sr = 6 -> 2 row folds, Sc = 10 -> 3 column folds,
    // 6 folds of 2.4 + 4 + 8 - 2 = 18 cycles = 108.
    const SystolicCost c = systolic_gemm_cost(array(4, 4, Dataflow::WeightStationary), {8, 10, 6}, 2);
    CHECK(c.row_folds == 2);
    CHECK(c.col_folds == 3);
    CHECK(c.folds == 6);
    CHECK(c.compute_cycles == 108);
    // Traffic: B 6.10 = 60, A 8.6 = 48, out 8.10 = 80 -> 188 words, 19 cycles: no stall.
    CHECK(c.dram_words == 188);
    CHECK(c.memory_cycles == 19);
    CHECK(c.total_cycles == 108);
}

TEST_CASE("systolic os: outputs stay, the reduction streams") {
    // 4x4 array, M = 10, N = 4, K = 5: Sr = M = 10 -> 3 row folds, Sc = N = 4 -> 1, T = K = 5.
    // per fold 2.4 + 4 + 5 - 2 = 15; 3 folds = 45.
    const SystolicCost c = systolic_gemm_cost(array(4, 4, Dataflow::OutputStationary), {10, 4, 5}, 2);
    CHECK(c.spatial_rows == 10);
    CHECK(c.spatial_cols == 4);
    CHECK(c.temporal == 5);
    CHECK(c.folds == 3);
    CHECK(c.cycles_per_fold == 15);
    CHECK(c.compute_cycles == 45);
    // Traffic: out 10.4 = 40, A 10.5 = 50, B 5.4 = 20 -> 110 words, 11 cycles.
    CHECK(c.dram_words == 110);
    CHECK(c.total_cycles == 45);
}

TEST_CASE("systolic is: inputs stay, the output features stream") {
    // 4x4 array, M = 9, N = 7, K = 4: Sr = K = 4 -> 1, Sc = M = 9 -> 3 column folds, T = N = 7.
    // per fold 2.4 + 4 + 7 - 2 = 17; 3 folds = 51.
    const SystolicCost c = systolic_gemm_cost(array(4, 4, Dataflow::InputStationary), {9, 7, 4}, 2);
    CHECK(c.spatial_rows == 4);
    CHECK(c.spatial_cols == 9);
    CHECK(c.temporal == 7);
    CHECK(c.folds == 3);
    CHECK(c.compute_cycles == 51);
    // Traffic: A 4.9 = 36, B 7.4 = 28, out 7.9 = 63 -> 127 words, ceil(12.7) = 13 cycles.
    CHECK(c.dram_words == 127);
    CHECK(c.memory_cycles == 13);
    CHECK(c.total_cycles == 51);
}

TEST_CASE("systolic: rows and columns play different parts") {
    // ws, M = 3, N = 8, K = 2. On 2 rows x 8 columns: 1 fold of 2.2 + 8 + 3 - 2 = 13.
    CHECK(systolic_gemm_cost(array(2, 8, Dataflow::WeightStationary), {3, 8, 2}, 2).compute_cycles == 13);
    // On 8 rows x 2 columns: ceil(2/8) . ceil(8/2) = 4 folds of 2.8 + 2 + 3 - 2 = 19 -> 76.
    CHECK(systolic_gemm_cost(array(8, 2, Dataflow::WeightStationary), {3, 8, 2}, 2).compute_cycles == 76);
}

TEST_CASE("systolic: the clock turns cycles into ns") {
    SystolicArray a = array(4, 4, Dataflow::WeightStationary);
    a.clock_ghz = 0.5;  // 2 ns per cycle: 18 cycles -> 36 ns
    CHECK(systolic_gemm_cost(a, {8, 4, 4}, 2).ns == 36);
}

TEST_CASE("systolic ws: operands that do not fit are fetched again and stall the array") {
    // 4x4 array, M = N = K = 8, 2-byte words: Sr = Sc = T = 8, 2 x 2 = 4 folds of
    // 2.4 + 4 + 8 - 2 = 18 -> 72 compute cycles. 3 words per cycle.
    SystolicArray a = array(4, 4, Dataflow::WeightStationary);
    a.dram_words_per_cycle = 3;
    // Everything fits: B 64 + A 64 + out 64 = 192 words, 64 cycles < 72: no stall.
    const SystolicCost fits = systolic_gemm_cost(a, {8, 8, 8}, 2);
    CHECK(fits.dram_words == 192);
    CHECK(fits.stall_cycles == 0);
    CHECK(fits.total_cycles == 72);
    // ifmap SRAM 32 B = 16 words: neither a strip of A (T.R = 32) nor all of A (64)
    // fits, so A is read once per column fold: 64 . 2 = 128.
    // ofmap SRAM 64 B = 32 words: row-major would keep all partial sums (T.Sc = 64,
    // no: spill (2.2 - 1) . 64 = 192); column-major keeps one tile column (T.C = 32,
    // yes: 64). Row-major 64 + 128 + 192 = 384, column-major 64 + 128 + 64 = 256.
    a.ifmap_sram_bytes = 32;
    a.ofmap_sram_bytes = 64;
    const SystolicCost tight = systolic_gemm_cost(a, {8, 8, 8}, 2);
    CHECK(tight.dram_words == 256);
    CHECK(tight.memory_cycles == 86);  // ceil(256 / 3) = ceil(85.33)
    CHECK(tight.stall_cycles == 14);   // 86 - 72
    CHECK(tight.total_cycles == 86);
}

TEST_CASE("systolic os: the cheaper fold order keeps the operand that fits") {
    // 4x4 array, M = 8, N = 8, K = 4: Sr = 8, Sc = 8, T = 4; 4 folds of 2.4 + 4 + 4 - 2 = 14 -> 56.
    // Filter SRAM 32 B = 16 words. out 64, A (Sr.T) 32, B (T.Sc) 32.
    // Row-major: strip of A R.T = 16 fits (A once, 32); all of B (32) does not fit the
    // 16 words, so B is read per row fold: 32 . 2 = 64 -> 64 + 32 + 64 = 160.
    // Column-major: all of A fits the ifmap SRAM (32); a strip of B, T.C = 16, fits -> 32
    // -> 64 + 32 + 32 = 128. At 1 word per cycle: 128 cycles, 72 of them stalls.
    SystolicArray a = array(4, 4, Dataflow::OutputStationary);
    a.filter_sram_bytes = 32;
    a.dram_words_per_cycle = 1;
    const SystolicCost c = systolic_gemm_cost(a, {8, 8, 4}, 2);
    CHECK(c.compute_cycles == 56);
    CHECK(c.dram_words == 128);
    CHECK(c.stall_cycles == 72);
    CHECK(c.total_cycles == 128);
}

TEST_CASE("systolic: bad arrays are input errors") {
    SystolicArray a = array(0, 32, Dataflow::WeightStationary);
    CHECK_THROWS_WITH_AS(validate_systolic_array(a, "--array"),
                         "--array: array rows and columns must be 1 to 65536 (got 0x32)", InputError);
    a = array(32, 32, Dataflow::WeightStationary);
    a.clock_ghz = 0;
    CHECK_THROWS_WITH_AS(validate_systolic_array(a, "--array"), "--clock-ghz: expected 1e-6 to 1e6 GHz, got 0", InputError);
    a.clock_ghz = 1;
    a.dram_words_per_cycle = -1;
    CHECK_THROWS_WITH_AS(validate_systolic_array(a, "--array"), "--dram-bw: expected 1e-6 to 1e9 words per cycle, got -1",
                         InputError);
    CHECK(parse_dataflow("WS") == Dataflow::WeightStationary);
    CHECK(parse_dataflow("os") == Dataflow::OutputStationary);
    CHECK(parse_dataflow("is") == Dataflow::InputStationary);
    CHECK_FALSE(parse_dataflow("rs"));
}
