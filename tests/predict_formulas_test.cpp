// predict's formulas against their published closed forms: Megatron's FLOPs
// per iteration, Korthikanti's activation memory, and the pipeline bubble of
// 1F1B and interleaved 1F1B in the zero-communication limit.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>

#include "plan/group_mapping.h"
#include "memory/memory_model.h"
#include "model/transformer_costs.h"
#include "predict/predict.h"
#include "predict/predict_options.h"
#include "sweep/step_replay.h"
#include "free_network.h"

using namespace dtcalc;

namespace {

ModelSpec gpt(int layers, int hidden, int heads, int vocab, int seq) {
    ModelSpec m;
    m.name = "gpt";
    m.layers = layers;
    m.hidden = hidden;
    m.ffn_hidden = 4 * hidden;
    m.heads = heads;
    m.kv_heads = heads;
    m.vocab = vocab;
    m.seq = seq;
    return m;
}

}  // namespace

TEST_CASE("FLOPs per iteration equal Megatron's closed form for a GPT") {
    // Narayanan et al. 2021, eq. (3) without recompute: 72 B s l h^2 (1 + s/6h + V/12lh).
    for (auto [l, h, a, V, s, B] : {std::tuple{96, 12288, 96, 51200, 2048, 1536.0}, std::tuple{24, 2048, 16, 131072, 4096, 192.0},
                                    std::tuple{2, 64, 4, 100, 32, 3.0}}) {
        const ModelSpec m = gpt(l, h, a, V, s);
        const double hd = h, sd = s, ld = l, Vd = V;
        const double expected = 72.0 * B * sd * ld * hd * hd * (1 + sd / (6 * hd) + Vd / (12 * ld * hd));
        CHECK(model_flops_per_iteration(m, B, s) == doctest::Approx(expected).epsilon(1e-12));
        // The causal count halves attention's share: its term s/6h (12 B s^2 l h
        // of scores and values, forward and backward) becomes s/12h.
        const double causal = 72.0 * B * sd * ld * hd * hd * (1 + sd / (12 * hd) + Vd / (12 * ld * hd));
        CHECK(model_flops_per_iteration(m, B, s, AttentionFlops::Causal) == doctest::Approx(causal).epsilon(1e-12));
    }
}

TEST_CASE("hardware FLOPs: what activation recompute runs again, Narayanan et al. 2021 eq. 3 with full recompute") {
    for (auto [l, h, a, V, s, B] : {std::tuple{96, 12288, 96, 51200, 2048, 1536.0}, std::tuple{2, 64, 4, 100, 32, 3.0}}) {
        const ModelSpec m = gpt(l, h, a, V, s);
        const double hd = h, sd = s, ld = l, Vd = V;
        // Full recompute runs every layer's forward again (not the logits): the
        // paper's 96 B s l h^2 (1 + s/6h + V/16lh), i.e. 4/3 of the layers' 72 and
        // the logits' 6 B s h V unchanged.
        const double full = 96.0 * B * sd * ld * hd * hd * (1 + sd / (6 * hd) + Vd / (16 * ld * hd));
        CHECK(model_flops_per_iteration(m, B, s) + layers_forward_flops_per_iteration(m, B, s) ==
              doctest::Approx(full).epsilon(1e-12));
        // Selective recompute runs attention's core forward again: Q K^T and
        // P V, 2 B s^2 h each per layer, 4 B s^2 h l in all = 72 B s l h^2 x s/18h.
        const double core = 4.0 * B * sd * sd * hd * ld;
        CHECK(attention_forward_flops_per_iteration(m, B, s) == doctest::Approx(core).epsilon(1e-12));
    }
    // A prediction reports them beside the model FLOPs: GPT 1T of the paper's
    // Table 1 (128 layers, h 25600, V 51200, s 2048, B 3072), full recompute.
    PredictOptions o;
    o.model = "megatron-1t";
    o.system.preset = "a100-ib-hdr200";
    o.system.nodes = 384;
    o.system.gpus_per_node = 8;
    o.framework = "megatron-2022";
    o.tp = 8;
    o.pp = 64;
    o.gbs = 3072;
    o.recompute = "full";
    const std::vector<std::string> presets{DTCALC_PRESETS_DIR};
    const std::vector<std::string> models{std::string(DTCALC_PRESETS_DIR) + "/../models"};
    const PredictResult r = predict_numbers(resolve_prediction(o, presets, models).inputs);
    const double B = 3072, sd = 2048, ld = 128, hd = 25600, Vd = 51200;
    CHECK(r.hardware_flops ==
          doctest::Approx(96.0 * B * sd * ld * hd * hd * (1 + sd / (6 * hd) + Vd / (16 * ld * hd))).epsilon(1e-12));
    CHECK(r.hardware_tflops_per_gpu / r.model_tflops_per_gpu == doctest::Approx(r.hardware_flops / r.model_flops));
    CHECK(r.hfu == doctest::Approx(r.hardware_tflops_per_gpu / 312.0).epsilon(1e-3));
}

TEST_CASE("per-layer parameters: 12 h^2 for a GPT layer, Llama's grouped attention and gated MLP") {
    const ModelSpec g = gpt(1, 1024, 16, 1, 1);
    // QKV 3h^2 + output h^2 + MLP 8h^2 = 12h^2, plus two norms' 2h.
    CHECK(layer_parameters(g) == 12.0 * 1024 * 1024 + 2 * 1024);
    ModelSpec llama = g;
    llama.hidden = 8192;
    llama.heads = 64;
    llama.kv_heads = 8;
    llama.ffn_hidden = 28672;
    llama.gated_mlp = true;
    // Q and output 2 h^2; K and V 2 h (8 x 128); MLP 3 h f.
    const double h = 8192, expected = 2 * h * h + 2 * h * 1024 + 3 * h * 28672 + 2 * h;
    CHECK(layer_parameters(llama) == expected);
    // Llama 2 70B: 80 such layers plus untied 32000 x 8192 embeddings = 68.98e9 (published: "70B").
    llama.layers = 80;
    llama.vocab = 32000;
    CHECK(total_parameters(llama) == doctest::Approx(68.976e9).epsilon(1e-3));
}

TEST_CASE("activation memory per layer, unfused attention: Korthikanti et al. 2022, Table 2") {
    // GPT-3 175B layer: s 2048, b 1, h 12288, a 96; t = 8. sbh = 25,165,824; 5as/h = 80; 5as/(ht) = 10.
    const ModelSpec m = gpt(96, 12288, 96, 51200, 2048);
    ParallelPlan p;
    p.tp = 8;
    p.mbs = 1;
    p.attention = AttentionKernel::Unfused;
    const double sbh = 2048.0 * 12288;
    using doctest::Approx;
    SUBCASE("tensor parallel: sbh (10 + 24/t + 5as/(ht))") {
        CHECK(layer_activation_bytes(m, p) == Approx(sbh * (10 + 3 + 10)).epsilon(1e-12));
    }
    SUBCASE("tensor + sequence parallel: sbh/t (34 + 5as/h)") {
        p.sequence_parallel = true;
        CHECK(layer_activation_bytes(m, p) == Approx(sbh / 8 * (34 + 80)).epsilon(1e-12));
    }
    SUBCASE("selective recompute with sequence parallel: 34 sbh/t") {
        p.sequence_parallel = true;
        p.recompute = Recompute::Selective;
        CHECK(layer_activation_bytes(m, p) == Approx(sbh / 8 * 34).epsilon(1e-12));
    }
    SUBCASE("selective recompute, tensor parallel only: sbh (10 + 24/t)") {
        p.recompute = Recompute::Selective;
        CHECK(layer_activation_bytes(m, p) == Approx(sbh * 13).epsilon(1e-12));
    }
    SUBCASE("full recompute: 2 sbh") {
        p.recompute = Recompute::Full;
        CHECK(layer_activation_bytes(m, p) == 2 * sbh);
    }
    SUBCASE("no parallelism: sbh (34 + 5as/h)") {
        p.tp = 1;
        CHECK(layer_activation_bytes(m, p) == Approx(sbh * (34 + 80)).epsilon(1e-12));
    }
}

TEST_CASE("activation memory per layer, flash attention: no s x s term, any layer shape") {
    using doctest::Approx;
    SUBCASE("GPT-3 175B, t 8, sequence parallel: 34 sbh/t, the same as selective recompute") {
        const ModelSpec m = gpt(96, 12288, 96, 51200, 2048);
        ParallelPlan p;
        p.tp = 8;
        p.sequence_parallel = true;
        const double sbh = 2048.0 * 12288;
        CHECK(layer_activation_bytes(m, p) == Approx(sbh / 8 * 34).epsilon(1e-12));
        p.recompute = Recompute::Selective;
        CHECK(layer_activation_bytes(m, p) == Approx(sbh / 8 * 34).epsilon(1e-12));
    }
    SUBCASE("Llama 3 70B (grouped-query, gated MLP), s 8192, t 4, cp 2, sequence parallel") {
        // h 8192, kv = 8 heads x 128 = 1024, f 28672. Per token:
        //   outside the TP region 10h = 81,920, split by t = 4 with SP: 20,480
        //   inside: Q, K, V 2 (8192 + 2048) = 20,480; output 16,384;
        //           MLP gate + up 4f = 114,688, activation output 2f = 57,344
        //           -> 208,896 / 4 = 52,224
        //   72,704 B per token x 4096 tokens (8192 / cp 2) = 297,795,584 B.
        ModelSpec m = gpt(80, 8192, 64, 128256, 8192);
        m.kv_heads = 8;
        m.ffn_hidden = 28672;
        m.gated_mlp = true;
        ParallelPlan p;
        p.tp = 4;
        p.cp = 2;
        p.sequence_parallel = true;
        CHECK(layer_activation_bytes(m, p) == Approx(297795584.0).epsilon(1e-12));
    }
}

TEST_CASE("micro-batches in flight: GPipe all, 1F1B p - i, interleaved per Megatron's warm-up") {
    ParallelPlan p;
    p.pp = 4;
    p.dp = 1;
    p.mbs = 1;
    p.gbs = 16;
    p.schedule = PipelineSchedule::GPipe;
    CHECK(in_flight_micro_batches(p, 0) == 16);
    p.schedule = PipelineSchedule::OneFOneB;
    CHECK(in_flight_micro_batches(p, 0) == 4);
    CHECK(in_flight_micro_batches(p, 3) == 1);
    p.schedule = PipelineSchedule::Interleaved;
    p.vpp = 2;
    // Stage 0: 2 (4-0-1) + (2-1) 4 + 1 = 11 chunks of half a stage = 5.5 stages' worth.
    CHECK(in_flight_micro_batches(p, 0) == 5.5);
}

TEST_CASE("memory: mixed-precision Adam is 2 + 4 + 12 bytes per parameter, sharded by ZeRO") {
    const ModelSpec m = gpt(8, 1024, 16, 1000, 128);
    ParallelPlan p;
    p.dp = 4;
    const MemoryBreakdown none = stage_memory(m, p, 0);
    // Parameters: 8 layers x (12 h^2 + 2h) + embedding 1000 h (tied, one stage holds it once).
    ModelSpec tied = m;
    const double params = 8 * (12.0 * 1024 * 1024 + 2 * 1024) + 2 * 1000.0 * 1024;  // untied: input and output
    CHECK(none.weights == doctest::Approx(2 * params));
    CHECK(none.gradients == doctest::Approx(4 * params));
    CHECK(none.optimizer == doctest::Approx(12 * params));
    p.zero = 1;
    CHECK(stage_memory(m, p, 0).optimizer == doctest::Approx(12 * params / 4));
    p.zero = 2;
    CHECK(stage_memory(m, p, 0).gradients == doctest::Approx(4 * params / 4));
    p.zero = 3;
    CHECK(stage_memory(m, p, 0).weights == doctest::Approx(2 * params / 4));
    // Context-parallel ranks hold the same parameters: dp 4 x cp 2 = 8 shards.
    p.cp = 2;
    p.zero = 1;
    CHECK(stage_memory(m, p, 0).optimizer == doctest::Approx(12 * params / 8));
    CHECK(stage_memory(m, p, 0).gradients == doctest::Approx(4 * params));
    // Gradients reduced in bf16 (grad_reduce_in_fp32 off, NeMo's performance recipes):
    // Megatron-Core's gradient buffer takes the parameters' dtype, 2 B each.
    p.grad_reduce_in_fp32 = false;
    CHECK(stage_memory(m, p, 0).gradients == doctest::Approx(2 * params));
    p.zero = 2;
    CHECK(stage_memory(m, p, 0).gradients == doctest::Approx(2 * params / 8));
    (void)tied;
}

TEST_CASE("gradients are reduced over dp x cp: the ranks that hold the same parameters") {
    // Two Ring dimensions of 4 and 2; order tp, cp, ep, dp, pp: tp 2 takes half
    // of dimension 0, cp 2 the other half, dp 2 dimension 1. dp x cp spans
    // {2 of dimension 0, 2 of dimension 1}; dp alone {1, 2}.
    Network n;
    n.dimensions.push_back({Topology::Ring, 4, 100, 500});
    n.dimensions.push_back({Topology::Ring, 2, 50, 1000});
    ParallelPlan p;
    p.tp = 2;
    p.cp = 2;
    p.dp = 2;
    const ParallelGroups g = map_parallel_groups(n, p);
    CHECK(g.dp.members == std::vector<int>{1, 2});
    CHECK(g.cp.members == std::vector<int>{2, 1});
    CHECK(g.dp_cp.members == std::vector<int>{2, 2});
}

namespace {

// A system where communication costs nothing: one switch dimension with an
// enormous bandwidth and no latency or endpoint delay.
PredictInputs free_network_inputs(int pp, int micro_batches, int vpp) {
    PredictInputs in;
    in.model = gpt(8 * vpp, 1024, 16, 1, 512);
    in.system = dtcalc::testing::free_switch_system(pp);
    in.system.device.peak_tflops_bf16 = 100;
    in.system.device.hbm_gbps = 1e12;  // memory traffic is free too: only FLOPs take time
    in.plan.pp = pp;
    in.plan.dp = 1;
    in.plan.mbs = 1;
    in.plan.gbs = micro_batches;
    in.plan.vpp = vpp;
    in.plan.schedule = vpp > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
    return in;
}

}  // namespace

TEST_CASE("pipeline bubble in the zero-communication limit") {
    SUBCASE("1F1B: (p - 1) / m of the ideal time") {
        for (auto [p, m] : {std::pair{4, 16}, std::pair{8, 32}, std::pair{2, 8}}) {
            const PredictResult r = predict(free_network_inputs(p, m, 1));
            REQUIRE(r.plan_problems.empty());
            const double ideal = m * (r.step.forward_ns_per_microbatch + r.step.backward_ns_per_microbatch);
            CAPTURE(p);
            CHECK(r.bubble_ns / ideal == doctest::Approx(static_cast<double>(p - 1) / m).epsilon(0.01));
        }
    }
    SUBCASE("interleaved: (p - 1) / (v m)") {
        for (auto [p, m, v] : {std::tuple{4, 16, 2}, std::tuple{4, 8, 4}}) {
            const PredictResult r = predict(free_network_inputs(p, m, v));
            REQUIRE(r.plan_problems.empty());
            const double ideal = m * (r.step.forward_ns_per_microbatch + r.step.backward_ns_per_microbatch);
            CAPTURE(p);
            CAPTURE(v);
            CHECK(r.bubble_ns / ideal == doctest::Approx(static_cast<double>(p - 1) / (v * m)).epsilon(0.01));
        }
    }
    SUBCASE("GPipe has the same bubble as 1F1B: (p - 1) / m") {
        PredictInputs in = free_network_inputs(4, 16, 1);
        in.plan.schedule = PipelineSchedule::GPipe;
        const PredictResult r = predict(in);
        const double ideal = 16 * (r.step.forward_ns_per_microbatch + r.step.backward_ns_per_microbatch);
        CHECK(r.bubble_ns / ideal == doctest::Approx(3.0 / 16).epsilon(0.01));
    }
}

TEST_CASE("plans that cannot work say which rule broke") {
    const ModelSpec m = gpt(96, 12288, 96, 51200, 2048);
    ParallelPlan p;
    p.tp = 5;
    p.pp = 7;
    p.dp = 2;
    p.gbs = 3;
    const auto problems = plan_problems(m, p, 64);
    const auto has = [&](const std::string& text) {
        return std::find(problems.begin(), problems.end(), text) != problems.end();
    };
    CHECK(has("dp x tp x pp x cp (2 x 5 x 7 x 1 = 70) must equal the NPU count (64)"));
    CHECK(has("tp (5) must divide heads (96)"));
    // 96 + 2 = 98 = 7 x 14: counting the embedding and the loss as layers divides.
    CHECK(has("layers (96) must be divisible by pp x vpp (7); the pipeline split embedding-and-loss (98 slots) "
              "divides: Megatron-Core's account_for_embedding/loss_in_pipeline_split count the embedding and the "
              "loss as layers"));
    CHECK(has("the global batch (3) must be a multiple of dp x mbs (2)"));
    ParallelPlan ok;
    ok.tp = 8;
    ok.pp = 8;
    ok.dp = 1;
    ok.gbs = 64;
    CHECK(plan_problems(m, ok, 64).empty());
}

TEST_CASE("GEMMs by shape: the backward pass is the input- and weight-gradient GEMMs, not twice the forward") {
    // Plateau 1, one 1 x 1 tile on one SM (no wave loss), K fill k / (k + 512),
    // peak 100 TFLOP/s = 1e5 FLOP/ns: a GEMM (m x k)(k x n) takes 2 m n (k + 512) / 1e5 ns.
    // Forward (m, n, k), input gradient (m, k, n), weight gradient (k, n, m), so
    // backward - 2 x forward = 1024 (m k + k n - 2 m n) / 1e5 per GEMM. Attention and
    // elementwise backward are exactly twice their forward; memory is free.
    // Layer (512 tokens, h 1024, f 4096): QKV (512, 3072, 1024) 524288, output
    // (512, 1024, 1024) 524288, up (512, 4096, 1024) 524288, down (512, 1024, 4096)
    // 5242880: 6815744 x 1024 / 1e5 = 69793.21856 ns, x 8 layers = 558345.748 ns;
    // logits (512, 1, 1024): 524288 x 1024 / 1e5 = 5368.70912 ns. Total 563714.457 ns.
    PredictInputs in = free_network_inputs(1, 1, 1);
    GemmTiling t;
    t.tiles = {{1, 1}};
    t.sms = 1;
    t.k_overhead = 512;
    in.system.device.gemm_shape = {t, 1.0};
    const PredictResult r = predict(in);
    REQUIRE(r.plan_problems.empty());
    CHECK(r.step.backward_ns_per_microbatch - 2 * r.step.forward_ns_per_microbatch ==
          doctest::Approx(563714.457).epsilon(1e-6));

    SUBCASE("the framework term: b x tokens x hidden / tp bytes per layer and pass") {
        // 100 B per element x 512 tokens x 1024 (h / tp, tp 1) = 52,428,800 B per layer at
        // 1000 GB/s (1000 B/ns, memory efficiency 1) = 52428.8 ns, x 8 layers = 419430.4 ns
        // more in each pass.
        in.system.device.hbm_gbps = 1000;
        const PredictResult base = predict(in);
        in.system.device.framework_bytes_per_element = 100;
        const PredictResult with = predict(in);
        CHECK(with.step.forward_ns_per_microbatch - base.step.forward_ns_per_microbatch == doctest::Approx(419430.4));
        CHECK(with.step.backward_ns_per_microbatch - base.step.backward_ns_per_microbatch == doctest::Approx(419430.4));
    }
}
