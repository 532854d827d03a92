#include <doctest/doctest.h>

#include <string>

#include "compute/roofline.h"
#include "compute/training_device.h"
#include "config/preset.h"
#include "temp_file.h"

using namespace dtcalc;

TEST_CASE("roofline: the slower of compute and memory") {
    const TrainingDevice h100 = roofline_device(989, 3350);
    // 989e12 FLOP/s = 989e3 FLOP/ns: 1.978e9 FLOPs take 2000 ns; 1e6 bytes at 3350 B/ns take 298.5 ns.
    const RooflineTime big = roofline_time(h100, 1.978e9, 1e6);
    CHECK(big.ns == doctest::Approx(2000));
    CHECK(big.compute_bound);
    // 1e6 FLOPs take 1.011 ns; 6.7e6 bytes take 2000 ns: memory-bound.
    const RooflineTime small = roofline_time(h100, 1e6, 6.7e6);
    CHECK(small.ns == doctest::Approx(2000));
    CHECK_FALSE(small.compute_bound);
    CHECK(roofline_time(h100, 0, 0).ns == 0);
}

TEST_CASE("efficiency curves interpolate in log size and clamp at the ends") {
    EfficiencyCurve curve{{{1e6, 0.2}, {1e10, 0.8}}};
    CHECK(curve.at(1e3) == doctest::Approx(0.2));
    CHECK(curve.at(1e8) == doctest::Approx(0.5));   // halfway in log10: 6 -> 10
    CHECK(curve.at(1e12) == doctest::Approx(0.8));
    CHECK(EfficiencyCurve{}.at(42) == 1.0);
    TrainingDevice d = roofline_device(100, 1000);
    d.gemm_efficiency = curve;
    // 1e8 FLOPs at 100e3 FLOP/ns x 0.5 = 2000 ns.
    CHECK(roofline_time(d, 1e8, 0).ns == doctest::Approx(2000));
    // 3e6 bytes at 1000 B/ns x 0.75 = 4000 ns, beyond the FLOPs' 2000: memory-bound.
    d.memory_efficiency = 0.75;
    const RooflineTime slow = roofline_time(d, 1e8, 3e6);
    CHECK(slow.ns == doctest::Approx(4000));
    CHECK_FALSE(slow.compute_bound);
}

TEST_CASE("every device time is the one roofline") {
    TrainingDevice d = roofline_device(100, 1000);
    d.attention_forward = {0.5, 1000};
    d.attention_backward = {0.5, 0};
    d.memory_efficiency = 0.5;
    // Attention forward over 3000 tokens: 0.5 x 3000 / (3000 + 1000) = 0.375 of peak, so
    // 1.5e8 FLOPs at 100e3 x 0.375 FLOP/ns = 4000 ns; 1e6 bytes at 1000 x 0.5 B/ns = 2000 ns.
    CHECK(attention_forward_time_ns(d, 1.5e8, 0, 3000) == doctest::Approx(4000));
    CHECK(attention_forward_time_ns(d, 1.5e8, 1e6, 3000) == doctest::Approx(4000));
    CHECK(attention_forward_time_ns(d, 0, 3e6, 3000) == doctest::Approx(6000));
    // Backward: 2.5 x 1.5e8 FLOPs at 100e3 x 0.5 = 7500 ns; twice the bytes, 2e6 / 500 = 4000 ns.
    CHECK(attention_backward_time_ns(d, 1.5e8, 1e6, 3000) == doctest::Approx(7500));
    CHECK(attention_backward_time_ns(d, 0, 3e6, 3000) == doctest::Approx(12000));
    CHECK(memory_time_ns(d, 1e6) == doctest::Approx(2000));
    CHECK(memory_time_ns(d, 0) == 0);
    // A GEMM by FLOPs (no curve: full peak): 1e8 / 100e3 = 1000 ns, memory 4e6 / 500 = 8000 ns.
    CHECK(gemm_time_ns(d, Precision::BF16, 1e8, 4e6) == doctest::Approx(8000));
    CHECK(gemm_time_ns(d, Precision::BF16, 1e8, 0) == doctest::Approx(1000));
}

TEST_CASE("a device without numbers cannot time what it lacks") {
    const TrainingDevice none{};
    CHECK_FALSE(can_time(none, 1, 0));
    CHECK_FALSE(can_time(none, 0, 1));
    CHECK(can_time(none, 0, 0));
}

TEST_CASE("a preset's one attention-efficiency: the backward takes twice the forward's time") {
    const std::string path = dtcalc::testing::write_temp_file(
        "attention-one-figure.toml",
        "name = \"p\"\ndescription = \"d\"\nsources = [\"s\"]\nbackend = \"astra-unaware\"\n\n"
        "[network]\ntopology = [\"Switch\"]\nnpus_count = [8]\nbandwidth = [100]\nlatency = [10]\n\n"
        "[system]\nscheduling-policy = \"LIFO\"\nendpoint-delay = 10\nactive-chunks-per-dimension = 1\n"
        "preferred-dataset-splits = 1\nall-reduce-implementation = [\"ring\"]\nall-gather-implementation = [\"ring\"]\n"
        "reduce-scatter-implementation = [\"ring\"]\nall-to-all-implementation = [\"ring\"]\n"
        "collective-optimization = \"baseline\"\nlocal-mem-bw = 1000\n\n"
        "[compute]\npeak-tflops-bf16 = 100\nhbm-bandwidth-gbps = 1000\nhbm-capacity-gib = 80\n"
        "attention-efficiency = 0.4\n");
    const TrainingDevice d = load_preset(path, {}).system.device;
    // At any length: forward 1e8 FLOPs at 100e3 x 0.4 FLOP/ns = 2500 ns; backward 2.5e8 at
    // 100e3 x (1.25 x 0.4) = 5000 ns, twice the forward.
    for (const double seq : {512.0, 65536.0}) {
        CHECK(attention_forward_time_ns(d, 1e8, 0, seq) == doctest::Approx(2500));
        CHECK(attention_backward_time_ns(d, 1e8, 0, seq) == doctest::Approx(5000));
    }
}
