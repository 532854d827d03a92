// predict: GPT-3 175B on 64 GPUs, TP8 PP8, 1F1B, 64 micro-batches — and the
// same plan at DP 2 and DP 1024, which must cost the same (one role per stage:
// the graph does not grow with dp; dp = 1 is cheaper only because it has no
// gradient reduction at all). And Llama 3.1 405B as NeMo ran it: 1,024 H100s,
// TP8 PP8 VPP8 CP2, 126 layers split with the embedding and the loss as layers,
// the nccl backend: resolving the preset, model and recipe once, then timing the
// iteration as `dtcalc predict` does (Arg 0: predict_numbers(), the step's replay)
// and with the whole graph (Arg 1: predict(), as --trace and --layers need).
// BM_PredictGpt3 builds the whole graph; BM_PredictNumbersGpt3 is the replay.
#include <benchmark/benchmark.h>

#include <string>

#include "predict/predict.h"
#include "predict/predict_options.h"
#include "sweep/step_replay.h"

namespace {

using namespace dtcalc;

PredictInputs gpt3_inputs(int dp) {
    PredictInputs in;
    ModelSpec& m = in.model;
    m.name = "gpt3-175b";
    m.layers = 96;
    m.hidden = 12288;
    m.ffn_hidden = 49152;
    m.heads = 96;
    m.kv_heads = 96;
    m.vocab = 50257;
    m.seq = 2048;
    in.system.network.dimensions.push_back({Topology::Switch, 8, 450, 500});
    in.system.network.dimensions.push_back({Topology::Switch, 8 * dp, 50, 2000});
    for (auto& list : in.system.config.implementation) list.assign(2, {AlgorithmKind::Ring, false});
    in.system.config.preferred_dataset_splits = 4;
    in.system.config.active_chunks_per_dimension = 2;
    in.system.config.endpoint_delay_ns = 10;
    in.system.config.local_mem_bw_gbps = 3350;
    in.system.config.collective_optimization = CollectiveOptimization::LocalBWAware;
    in.system.device.peak_tflops_bf16 = 989;
    in.system.device.hbm_gbps = 3350;
    in.plan.tp = 8;
    in.plan.pp = 8;
    in.plan.dp = dp;
    in.plan.mbs = 1;
    in.plan.gbs = 64LL * dp;
    return in;
}

void BM_PredictGpt3(benchmark::State& state) {
    const PredictInputs in = gpt3_inputs(static_cast<int>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(predict(in).iteration_ns);
}
BENCHMARK(BM_PredictGpt3)->Arg(1)->Arg(2)->Arg(1024)->Unit(benchmark::kMicrosecond);

// The same plans timed as `dtcalc predict` times them without --trace or
// --layers: predict_numbers(), the step's replay, no graph.
void BM_PredictNumbersGpt3(benchmark::State& state) {
    const PredictInputs in = gpt3_inputs(static_cast<int>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(predict_numbers(in).iteration_ns);
}
BENCHMARK(BM_PredictNumbersGpt3)->Arg(1)->Arg(2)->Arg(1024)->Unit(benchmark::kMicrosecond);

PredictInputs llama405b_nemo_inputs() {
    PredictOptions o;
    o.model = "llama3.1-405b";
    o.system.preset = "h100-ib-ndr400";
    o.framework = "nemo";
    o.system.nodes = 128;
    o.system.gpus_per_node = 8;
    o.tp = 8;
    o.pp = 8;
    o.vpp = 8;
    o.cp = 2;
    o.mbs = 1;
    o.gbs = 2048;
    o.seq = 8192;
    o.pipeline_split = "embedding-and-loss";
    o.precision = "fp8";
    const std::string root = DTCALC_SOURCE_DIR;
    return resolve_prediction(o, {root + "/presets"}, {root + "/models"}).inputs;
}

void BM_PredictLlama405bNemo(benchmark::State& state) {
    const PredictInputs in = llama405b_nemo_inputs();
    const bool graph = state.range(0) == 1;
    for (auto _ : state) benchmark::DoNotOptimize(graph ? predict(in).iteration_ns : predict_numbers(in).iteration_ns);
}
BENCHMARK(BM_PredictLlama405bNemo)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
