// predict: GPT-3 175B on 64 GPUs, TP8 PP8, 1F1B, 64 micro-batches — and the
// same plan at DP 2 and DP 1024, which must cost the same (one role per stage:
// the graph does not grow with dp; dp = 1 is cheaper only because it has no
// gradient reduction at all).
#include <benchmark/benchmark.h>

#include "predict/predict.h"

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

}  // namespace
