#include <doctest/doctest.h>

#include "compute/gemm_efficiency.h"
#include "compute/training_device.h"

using namespace dtcalc;

namespace {
GemmTiling one_tile(double tm, double tn, double sms, double k_overhead = 0) {
    GemmTiling t;
    t.tiles = {{tm, tn}};
    t.sms = sms;
    t.k_overhead = k_overhead;
    return t;
}
}  // namespace

TEST_CASE("gemm efficiency: tile and wave quantisation over the SMs") {
    const GemmTiling h100 = one_tile(128, 256, 132);
    // 2048 x 2048: 16 x 8 = 128 tiles, one wave of 132: 128 / 132 = 32 / 33 of the wave busy.
    CHECK(wave_efficiency(h100, 2048, 2048) == doctest::Approx(32.0 / 33));
    // 1024 x 9216: 8 x 36 = 288 tiles, 3 waves (396 tile slots): 288 / 396 = 8 / 11.
    CHECK(wave_efficiency(h100, 1024, 9216) == doctest::Approx(8.0 / 11));
    // 100 x 100 in one 128 x 256 tile of one wave: 10000 / (132 x 32768) = 10000 / 4325376.
    CHECK(wave_efficiency(h100, 100, 100) == doctest::Approx(10000.0 / 4325376));
    // 128 x 128 tiles, batch of 264: 264 tiles, exactly 2 waves; 133: 2 waves, 133 of 264 slots busy.
    const GemmTiling small = one_tile(128, 128, 132);
    CHECK(wave_efficiency(small, 128, 128, 264) == doctest::Approx(1.0));
    CHECK(wave_efficiency(small, 128, 128, 133) == doctest::Approx(133.0 / 264));
}

TEST_CASE("gemm efficiency: the library's best tile for the shape") {
    GemmTiling t = one_tile(128, 256, 132);
    t.tiles.push_back({128, 128});
    // 1024 x 9216 with 128 x 128: 8 x 72 = 576 tiles, 5 waves (660 slots): 576 / 660 = 48 / 55 > 8 / 11.
    CHECK(wave_efficiency(t, 1024, 9216) == doctest::Approx(48.0 / 55));
}

TEST_CASE("gemm efficiency: K fill, plateau from a benchmark, cap at 1") {
    const GemmTiling t = one_tile(128, 256, 132, 256);
    CHECK(k_fill_efficiency(t, 768) == doctest::Approx(0.75));  // 768 / (768 + 256)
    // Benchmark 0.6 at 2048 x 2048 x 768: waves 32/33, fill 0.75 -> plateau 0.6 / (32/33 x 0.75) = 0.825.
    const double plateau = plateau_from_benchmark(t, 2048, 2048, 768, 0.6);
    CHECK(plateau == doctest::Approx(0.825));
    const GemmShapeModel model{t, plateau};
    CHECK(gemm_shape_efficiency(model, 2048, 2048, 768) == doctest::Approx(0.6));  // reproduces its benchmark
    // 4224 x 1024 (33 x 4 = 132 tiles: one full wave), K = 3840: 0.825 x 1 x 3840 / 4096 = 0.7734375.
    CHECK(gemm_shape_efficiency(model, 4224, 1024, 3840) == doctest::Approx(0.7734375));
    const GemmShapeModel over{one_tile(128, 128, 1), 2.0};
    CHECK(gemm_shape_efficiency(over, 128, 128, 64) == 1.0);
}

TEST_CASE("gemm time by shape on a training device") {
    TrainingDevice d;
    d.peak_tflops_bf16 = 1000;
    d.hbm_gbps = 1e9;  // memory never binds here
    d.gemm_shape = {one_tile(128, 128, 132), 0.5};
    REQUIRE(times_gemm_shapes(d, Precision::BF16));
    CHECK_FALSE(times_gemm_shapes(d, Precision::FP8));
    // 1536 x 1408 = 12 x 11 = 132 tiles, one full wave; efficiency 0.5.
    // 2 x 1536 x 1408 x 1000 = 4.325376e9 FLOPs at 1000e3 x 0.5 FLOP/ns = 8650.752 ns.
    CHECK(gemm_time_ns(d, Precision::BF16, 1536, 1408, 1000, 0) == doctest::Approx(8650.752));
    // Known only by its FLOPs: at the plateau, the same 8650.752 ns.
    CHECK(gemm_time_ns(d, Precision::BF16, 4.325376e9, 0) == doctest::Approx(8650.752));
    // 1536 x 1400 needs the same 132 tiles: 2 x 1536 x 1400 x 1000 FLOPs in the same 8650.752 ns.
    CHECK(gemm_time_ns(d, Precision::BF16, 1536, 1400, 1000, 0) == doctest::Approx(8650.752));
    // Sustaining 0.8 of the benchmark's throughput in a step: 8650.752 / 0.8 = 10813.44 ns,
    // by shape and by FLOPs alike.
    TrainingDevice sustained = d;
    sustained.sustained_gemm_fraction = 0.8;
    CHECK(gemm_time_ns(sustained, Precision::BF16, 1536, 1408, 1000, 0) == doctest::Approx(10813.44));
    CHECK(gemm_time_ns(sustained, Precision::BF16, 4.325376e9, 0) == doctest::Approx(10813.44));
    // fp8 GEMMs sustain their own share; bf16 ones keep theirs. With a 2000 TFLOP/s fp8 peak
    // and the same shape model: 4.325376e9 FLOPs at 2000e3 x 0.5 x 0.7 FLOP/ns = 6179.1086 ns,
    // while bf16 stays at 10813.44 ns.
    TrainingDevice per_precision = sustained;
    per_precision.peak_tflops_fp8 = 2000;
    per_precision.fp8_gemm_shape = per_precision.gemm_shape;
    per_precision.sustained_gemm_fraction_fp8 = 0.7;
    CHECK(gemm_time_ns(per_precision, Precision::FP8, 1536, 1408, 1000, 0) == doctest::Approx(6179.1086));
    CHECK(gemm_time_ns(per_precision, Precision::FP8, 4.325376e9, 0) == doctest::Approx(6179.1086));
    CHECK(gemm_time_ns(per_precision, Precision::BF16, 1536, 1408, 1000, 0) == doctest::Approx(10813.44));
    // Memory-bound GEMMs are not slowed: 1 GB at 1000 GB/s x 1 (memory efficiency) = 1e6 ns.
    sustained.hbm_gbps = 1000;
    CHECK(gemm_time_ns(sustained, Precision::BF16, 1536, 1408, 1000, 1e9) == doctest::Approx(1e6));
}

TEST_CASE("a GEMM beside kernels that hold some SMs: the peak and the waves over the SMs left") {
    TrainingDevice d;
    d.peak_tflops_bf16 = 1000;
    d.peak_tflops_fp8 = 2000;
    d.hbm_gbps = 1e9;  // memory never binds here
    d.gemm_shape = {one_tile(128, 128, 132), 0.5};
    const TrainingDevice beside = with_sms_reserved(d, 16);
    // 116 SMs left: peak 1000 x 116 / 132 = 878.787... TFLOP/s; fp8 2000 x 116 / 132.
    CHECK(beside.peak_tflops_bf16 == doctest::Approx(1000.0 * 116 / 132));
    CHECK(beside.peak_tflops_fp8 == doctest::Approx(2000.0 * 116 / 132));
    CHECK(beside.gemm_shape.tiling.sms == 116);
    // 1536 x 1408: 132 tiles, two waves over 116 SMs (116 + 16): waves = 132 / 232, efficiency
    // 0.5 x 132 / 232; 4.325376e9 FLOPs at 878.787e3 x 0.5 x 132 / 232 FLOP/ns =
    // 4.325376e9 / (1000e3 x 116 / 132 x 0.5 x 132 / 232) = 4.325376e9 / 250000 = 17301.504 ns:
    // twice the full device's 8650.752 (the second wave of 16 tiles costs as much as the first).
    CHECK(gemm_time_ns(beside, Precision::BF16, 1536, 1408, 1000, 0) == doctest::Approx(17301.504));
    // 1536 x 1280 = 12 x 10 = 120 tiles: still two waves over 116, 120 / 232 of them full:
    // 2 x 1536 x 1280 x 1000 / (1000e3 x 116 / 132 x 0.5 x 120 / 232) = 3.93216e9 / 227272.73 = 17301.504 ns.
    CHECK(gemm_time_ns(beside, Precision::BF16, 1536, 1280, 1000, 0) == doctest::Approx(17301.504));
    // No SM count to take from (a FLOPs curve), or no SMs to spare: the device as it is.
    TrainingDevice curve;
    curve.peak_tflops_bf16 = 1000;
    CHECK(with_sms_reserved(curve, 16).peak_tflops_bf16 == 1000);
    CHECK(with_sms_reserved(d, 132).peak_tflops_bf16 == 1000);
}

TEST_CASE("expert_gemm_time_ns: a rank's experts as one grouped GEMM, the routed tokens split among them") {
    // 1,000 TFLOP/s (1e6 FLOP per ns), 128 x 128 tiles on 4 SMs, 128 elements of K overhead per
    // tile, plateau 1; memory 1e4 B per ns (no product below is memory-bound: each moves
    // 2,228,224 B, 222.8 ns).
    TrainingDevice d;
    d.peak_tflops_bf16 = 1000;
    d.hbm_gbps = 1e4;
    GemmTiling t;
    t.tiles = {{128, 128}};
    t.sms = 4;
    t.k_overhead = 128;
    d.gemm_shape = {t, 1.0};
    const Precision q = Precision::BF16;
    // 4 experts, 768 routed tokens (192 each), n 256, k 512: 2 x 768 x 256 x 512 = 201,326,592 FLOPs.
    // Forward: each expert 192 x 256, 2 x 2 tiles, 16 in all, 4 waves: 192 x 256 x 4 / (4 x 4 x
    // 128^2) = 0.75; fill 512 / 640 = 0.8; 0.6 -> 335.54432 ns. As one GEMM of 768 rows it would
    // be 6 x 2 tiles in 3 full waves at fill 0.8: 251.65824 ns.
    CHECK(expert_gemm_time_ns(d, q, GemmPass::Forward, 768, 256, 512, 4) == doctest::Approx(335.54432).epsilon(1e-12));
    CHECK(gemm_time_ns(d, q, 768, 256, 512, gemm_bytes(q, 768, 256, 512)) == doctest::Approx(251.65824).epsilon(1e-12));
    // Input gradient (768 x 256)(256 x 512): each expert 192 x 512, 2 x 4 tiles, 32 in all, 8
    // waves, 0.75; fill 256 / 384; 0.5 -> 402.653184 ns.
    CHECK(expert_gemm_time_ns(d, q, GemmPass::InputGradient, 768, 512, 256, 4) ==
          doctest::Approx(402.653184).epsilon(1e-12));
    // Weight gradient (512 x 768)(768 x 256): each expert's K is its 192 tokens; 4 x 2 tiles, 32
    // in all, 8 full waves; fill 192 / 320 = 0.6 -> 335.54432 ns (one GEMM: fill 768 / 896).
    CHECK(expert_gemm_time_ns(d, q, GemmPass::WeightGradient, 512, 256, 768, 4) ==
          doctest::Approx(335.54432).epsilon(1e-12));
    // One expert is one GEMM.
    CHECK(expert_gemm_time_ns(d, q, GemmPass::Forward, 768, 256, 512, 1) ==
          doctest::Approx(251.65824).epsilon(1e-12));
}
