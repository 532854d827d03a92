// Parallelization rules (src/gemm/parallel_split.h) on the seed's first DLRM
// layer, MLP_Bottom_0 (m = 1024, n = 128, k = 512), 2-byte elements, 16 NPUs
// in 2 packages (the seed's generator example). Every expected size is
// worked by hand, and checked against the formulas of ASTRA-sim's
// gen_astrasim_workload_input.py quoted in each case.
#include <doctest/doctest.h>

#include "core/error.h"
#include "gemm/parallel_split.h"

using namespace dtcalc;

namespace {

const GemmLayer kLayer{"MLP_Bottom_0", 1024, 128, 512, 2};

bool same(const LocalGemm& a, const LocalGemm& b) { return a.rows == b.rows && a.cols == b.cols && a.depth == b.depth; }

}  // namespace

TEST_CASE("gemm split: degrees of each strategy") {
    auto d = parallel_degrees(GemmStrategy::Data, 16, 2);
    CHECK((d.data == 16 && d.model == 1));
    d = parallel_degrees(GemmStrategy::Model, 16, 2);
    CHECK((d.data == 1 && d.model == 16));
    d = parallel_degrees(GemmStrategy::HybridDataModel, 16, 2);  // data between 2 packages, model inside 8
    CHECK((d.data == 2 && d.model == 8));
    d = parallel_degrees(GemmStrategy::HybridModelData, 16, 2);  // model between 2 packages, data inside 8
    CHECK((d.data == 8 && d.model == 2));
    CHECK_THROWS_WITH_AS(parallel_degrees(GemmStrategy::Data, 16, 3), "--packages: 3 packages do not divide 16 NPUs", InputError);
    CHECK_THROWS_WITH_AS(parallel_degrees(GemmStrategy::Data, 0, 1), "--npus: must be >= 1 (got 0)", InputError);
}

TEST_CASE("gemm split: DATA splits the batch and all-reduces weight gradients") {
    // m = 1024/16 = 64. Generator: wg ALLREDUCE n.k.s = 128 . 512 . 2 = 131072.
    const LayerSplit s = split_layer(kLayer, "l.csv", parallel_degrees(GemmStrategy::Data, 16, 2), 2);
    CHECK(same(s.forward, {64, 128, 512}));
    CHECK(same(s.input_gradient, {64, 512, 128}));
    CHECK(same(s.weight_gradient, {512, 128, 64}));
    CHECK_FALSE(s.forward_comm.kind);
    CHECK_FALSE(s.input_gradient_comm.kind);
    CHECK(s.weight_gradient_comm.kind == CollectiveKind::AllReduce);
    CHECK(s.weight_gradient_comm.bytes == 131072);
    CHECK(s.weight_bytes == 131072);
}

TEST_CASE("gemm split: MODEL splits the output features") {
    // n = 128/16 = 8. Generator: fwd ALLGATHER m.n.s/NPUs = 1024 . 128 . 2 / 16 = 16384;
    // ig REDUCESCATTER m.k.s = 1024 . 512 . 2 = 1048576; no weight-gradient collective.
    const LayerSplit s = split_layer(kLayer, "l.csv", parallel_degrees(GemmStrategy::Model, 16, 2), 2);
    CHECK(same(s.forward, {1024, 8, 512}));
    CHECK(same(s.input_gradient, {1024, 512, 8}));
    CHECK(same(s.weight_gradient, {512, 8, 1024}));
    CHECK(s.forward_comm.kind == CollectiveKind::AllGather);
    CHECK(s.forward_comm.bytes == 16384);
    CHECK(s.input_gradient_comm.kind == CollectiveKind::ReduceScatter);
    CHECK(s.input_gradient_comm.bytes == 1048576);
    CHECK_FALSE(s.weight_gradient_comm.kind);
    CHECK(s.weight_bytes == 8192);  // 512 . 8 . 2
}

TEST_CASE("gemm split: HYBRID_DATA_MODEL, model-parallel inside a package") {
    // D = 2, T = 8: m = 512, n = 16. Generator: fwd m.n.s/NPUs = 1024.128.2/16 = 16384;
    // ig m.k.s/packages = 1024.512.2/2 = 524288; wg k.n.s/NPUs-per-package = 512.128.2/8 = 16384.
    const LayerSplit s = split_layer(kLayer, "l.csv", parallel_degrees(GemmStrategy::HybridDataModel, 16, 2), 2);
    CHECK(same(s.forward, {512, 16, 512}));
    CHECK(same(s.weight_gradient, {512, 16, 512}));
    CHECK(s.forward_comm.bytes == 16384);
    CHECK(s.input_gradient_comm.bytes == 524288);
    CHECK(s.weight_gradient_comm.kind == CollectiveKind::AllReduce);
    CHECK(s.weight_gradient_comm.bytes == 16384);
}

TEST_CASE("gemm split: HYBRID_MODEL_DATA, model-parallel across packages") {
    // D = 8, T = 2: m = 128, n = 64. Generator: fwd m.n.s/NPUs = 16384;
    // ig m.k.s/NPUs-per-package = 1024.512.2/8 = 131072; wg n.k.s/packages = 128.512.2/2 = 65536.
    const LayerSplit s = split_layer(kLayer, "l.csv", parallel_degrees(GemmStrategy::HybridModelData, 16, 2), 2);
    CHECK(same(s.forward, {128, 64, 512}));
    CHECK(same(s.input_gradient, {128, 512, 64}));
    CHECK(s.forward_comm.bytes == 16384);
    CHECK(s.input_gradient_comm.bytes == 131072);
    CHECK(s.weight_gradient_comm.bytes == 65536);
}

TEST_CASE("gemm split: a group of one NPU needs no collective") {
    // HYBRID_DATA_MODEL with one package: D = 1, so no weight-gradient all-reduce.
    const LayerSplit s = split_layer(kLayer, "l.csv", parallel_degrees(GemmStrategy::HybridDataModel, 16, 1), 2);
    CHECK_FALSE(s.weight_gradient_comm.kind);
    CHECK(s.forward_comm.kind == CollectiveKind::AllGather);
}

TEST_CASE("gemm split: shares that do not divide are errors at the layer's line") {
    const GemmLayer odd{"fc", 1000, 100, 64, 7};
    CHECK_THROWS_WITH_AS(split_layer(odd, "l.csv", parallel_degrees(GemmStrategy::Data, 16, 1), 2),
                         "l.csv:7: m: m = 1000 is not divisible by the data-parallel degree 16", InputError);
    CHECK_THROWS_WITH_AS(split_layer(odd, "l.csv", parallel_degrees(GemmStrategy::Model, 8, 1), 2),
                         "l.csv:7: n: n = 100 is not divisible by the model-parallel degree 8", InputError);
    CHECK(parse_gemm_strategy("HYBRID_MODEL_DATA") == GemmStrategy::HybridModelData);
    CHECK_FALSE(parse_gemm_strategy("HYBRID_CUSTOMIZED"));
}
