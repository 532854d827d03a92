// GEMM list -> v1 workload (src/gemm/gemm_workload.h, gemm_compute.h,
// v1_writer.h): the generated text, hand-derived; that the v1 parser reads it
// back unchanged; and that the read-back workload evaluates to the same time.
#include <doctest/doctest.h>

#include "core/error.h"
#include "gemm/gemm_workload.h"
#include "gemm/v1_writer.h"
#include "schedule/evaluate.h"

using namespace dtcalc;

namespace {

GemmComputeModel seed_array() {
    // The seed's SCALE-Sim configuration: 32x32, ws, SRAM 1024/1024/128 KiB; 1 GHz, 10 words/cycle.
    SystolicArray a;
    a.rows = 32;
    a.cols = 32;
    a.dataflow = Dataflow::WeightStationary;
    a.ifmap_sram_bytes = 1024 * 1024;
    a.filter_sram_bytes = 1024 * 1024;
    a.ofmap_sram_bytes = 128 * 1024;
    a.dram_words_per_cycle = 10;
    a.clock_ghz = 1;
    return {a, 2};
}

MnkTable seed_bottom_layer() {
    MnkTable t;
    t.path = "dlrm.csv";
    t.layers.push_back({"MLP_Bottom_0", 1024, 128, 512, 2});
    return t;
}

}  // namespace

TEST_CASE("gen workload: the seed's first DLRM layer, DATA on 16 NPUs, 32x32 ws array") {
    // m = 1024/16 = 64; 2-byte words: ifmap 524288 words, ofmap 65536 words.
    // fwd (64, 128, 512): Sr = K = 512 -> 16 folds, Sc = N = 128 -> 4, T = 64;
    //   64 folds of 2.32 + 32 + 64 - 2 = 158 -> 10112 cycles. Traffic: W 512.128 = 65536,
    //   A 64.512 = 32768, out 64.128 = 8192 (all fit) = 106496 words / 10 = 10649.6
    //   -> 10650 memory cycles > 10112: 538 stall cycles, 10650 ns.
    // ig (64, 512, 128): Sr = 128 -> 4, Sc = 512 -> 16, T = 64: 64 folds x 158 = 10112;
    //   traffic W 128.512 + dOut 64.128 + dX 64.512 = 106496 words -> 10650 ns.
    // wg (512, 128, 64): Sr = 64 -> 2, Sc = 128 -> 4, T = 512: 8 folds x (64 + 32 + 512 - 2 = 606)
    //   = 4848; traffic dOut 64.128 + X 512.64 + dW 512.128 (65536 words, fits) = 106496 -> 10650 ns.
    // Weight gradient: ALLREDUCE of 512.128.2 = 131072 bytes.
    // Update: 3 x 131072 bytes at 10 words x 2 bytes x 1 GHz = 20 B/ns: 19660.8 -> 19661 ns.
    const V1Workload w = build_gemm_v1_workload(seed_bottom_layer(), {GemmStrategy::Data, 16, 2}, seed_array(), "out.txt");
    CHECK(v1_workload_text(w) == "DATA\n1\nMLP_Bottom_0 -1 10650 NONE 0 10650 NONE 0 10650 ALLREDUCE 131072 19661\n");
}

TEST_CASE("gen workload: hybrid headers carry the model-parallel group size") {
    // 16 NPUs in 2 packages. HYBRID_DATA_MODEL: T = 8 (one package); HYBRID_MODEL_DATA: T = 2.
    const V1Workload dm = build_gemm_v1_workload(seed_bottom_layer(), {GemmStrategy::HybridDataModel, 16, 2}, seed_array(), "x");
    CHECK(v1_workload_text(dm).starts_with("HYBRID_DATA_MODEL 8\n1\nMLP_Bottom_0 -1 "));
    // Collectives: ALLGATHER 16384 (per NPU), REDUCESCATTER 524288, ALLREDUCE 16384 (gemm_split_test).
    CHECK(dm.layers[0].fwd.bytes == 16384);
    const V1Workload md = build_gemm_v1_workload(seed_bottom_layer(), {GemmStrategy::HybridModelData, 16, 2}, seed_array(), "x");
    CHECK(v1_workload_text(md).starts_with("HYBRID_MODEL_DATA 2\n1\n"));
    const V1Workload model = build_gemm_v1_workload(seed_bottom_layer(), {GemmStrategy::Model, 16, 2}, seed_array(), "x");
    CHECK(v1_workload_text(model).starts_with("MODEL\n1\n"));
}

TEST_CASE("gen workload: roofline compute from a device's peak and bandwidth") {
    // lab-system1's device: 450 TFLOP/s = 450e3 FLOP/ns, 3000 GB/s = 3000 B/ns. DATA on 64: m = 16.
    // fwd (16, 128, 512): 2.16.128.512 = 2097152 FLOPs -> 4.66 ns; bytes 2.(16.512 + 512.128 + 16.128)
    //   = 2.(8192 + 65536 + 2048) = 151552 -> 50.52 ns: memory-bound, 51 ns.
    // Update: 3 . 131072 / 3000 = 131.07 -> 132 ns.
    GemmComputeModel roofline{roofline_device(450, 3000), 2};
    const V1Workload w = build_gemm_v1_workload(seed_bottom_layer(), {GemmStrategy::Data, 64, 1}, roofline, "x");
    CHECK(w.layers[0].fwd_compute_ns == 51);
    CHECK(w.layers[0].update_ns == 132);
    CHECK_THROWS_WITH_AS(validate_compute_model({roofline_device(0, 3000), 2}, "preset p"),
                         "preset p: peak-perf: the system gives no compute peak: add peak-perf (TFLOP/s), or use --array "
                         "for a systolic array",
                         InputError);
}

TEST_CASE("gen workload: the written text reads back and evaluates to the same time") {
    MnkTable t;
    t.path = "t.csv";
    t.layers = {{"qkv", 4096, 3072, 1024, 2}, {"proj", 4096, 1024, 1024, 3}, {"up", 4096, 4096, 1024, 4}};
    // Two dimensions, 8 x 2 = 16 NPUs (package = dimension 0).
    System machine;
    Network& network = machine.network;
    network.dimensions.push_back({Topology::FullyConnected, 8, 128.5714, 20});
    network.dimensions.push_back({Topology::Switch, 2, 25, 100});
    SystemConfig& system = machine.config;
    for (auto& list : system.implementation) list = {*parse_algorithm("ring"), *parse_algorithm("ring")};
    system.preferred_dataset_splits = 4;
    system.active_chunks_per_dimension = 2;
    EvaluationSystem eval;
    eval.system = &machine;
    for (GemmStrategy s : {GemmStrategy::Data, GemmStrategy::Model, GemmStrategy::HybridDataModel, GemmStrategy::HybridModelData}) {
        CAPTURE(gemm_strategy_name(s));
        const V1Workload w = build_gemm_v1_workload(t, {s, 16, 2}, seed_array(), "gen.txt");
        const std::string text = v1_workload_text(w);
        const V1Workload back = parse_v1_workload_text(text, "gen.txt");
        CHECK(v1_workload_text(back) == text);
        const double direct = evaluate(build_v1_training_graph(w, network, 2), eval).wall_ns;
        const double read_back = evaluate(build_v1_training_graph(back, network, 2), eval).wall_ns;
        CHECK(direct > 0);
        CHECK(direct == read_back);
    }
}
