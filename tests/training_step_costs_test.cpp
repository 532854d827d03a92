// The training step's costs as Megatron-Core and Transformer Engine run it:
// FP8 linear layers and their casts (model/fp8_casts.h), the distributed
// optimizer's parameter all-gather per bucket (workload/step_layout.h) and the
// optimizer step (workload/step_costs.h), each against values worked by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "collective/collective_cost.h"
#include "memory/memory_model.h"
#include "model/fp8_casts.h"
#include "predict/predict.h"
#include "workload/step_costs.h"
#include "workload/step_layout.h"
#include "free_network.h"

using namespace dtcalc;

namespace {

ModelSpec gpt(int layers) {
    ModelSpec m;
    m.name = "gpt";
    m.layers = layers;
    m.hidden = 1024;
    m.ffn_hidden = 4096;
    m.heads = 16;
    m.kv_heads = 16;
    m.vocab = 1;
    m.seq = 512;
    return m;
}

// One NPU per dimension member, communication free; GEMMs at exactly the
// peak (one 1 x 1 tile on one SM, plateau 1, no K overhead): a GEMM of F
// FLOPs takes F / 1e6 ns in bf16 (1,000 TFLOP/s) and F / 2e6 in fp8 (2,000);
// memory moves 1e4 bytes per ns (10,000 GB/s), every kernel at full rate.
PredictInputs inputs(int npus) {
    PredictInputs in;
    in.model = gpt(2);
    in.system = dtcalc::testing::free_switch_system(npus);
    in.system.device.peak_tflops_bf16 = 1000;
    in.system.device.peak_tflops_fp8 = 2000;
    in.system.device.hbm_gbps = 1e4;
    GemmTiling t;
    t.tiles = {{1, 1}};
    t.sms = 1;
    in.system.device.gemm_shape = {t, 1.0};
    in.system.device.fp8_gemm_shape = {t, 1.0};
    in.plan.dp = npus;
    in.plan.mbs = 1;
    in.plan.gbs = npus;
    return in;
}

TrainingStepCosts costs_of(const PredictInputs& in) {
    TrainingStepInputs s;
    s.model = &in.model;
    s.plan = &in.plan;
    s.system = &in.system;
    return price_training_step(s);
}

// One FIFO stream for compute and one per op kind (step_overlap_test.cpp's timer).
struct HandTimer {
    using Deps = double;
    static void join(Deps& into, const Deps& more) { into = std::max(into, more); }
    std::map<int, double> stream_free;
    struct Timed {
        StepOpKind kind;
        double start, end;
        bool overlapped;
    };
    std::vector<Timed> ops;
    double receive_at = 0;  ///< when every received message arrives
    Deps op(const StepOp& s, const Deps& after) {
        if (s.kind == StepOpKind::Receive) {
            ops.push_back({s.kind, receive_at, receive_at, false});
            return receive_at;
        }
        const bool compute = s.kind == StepOpKind::Compute || s.kind == StepOpKind::OptimizerStep;
        double& free = stream_free[compute ? -1 : static_cast<int>(s.kind)];
        const double start = std::max(free, after);
        free = start + s.duration_ns;
        ops.push_back({s.kind, start, free, s.overlapped});
        return free;
    }
};

}  // namespace

TEST_CASE("fp8 casts as Transformer Engine runs them: per micro-batch, and the weights once per step") {
    // One GPT layer, 512 tokens, h 1024, f 4096 (QKV 512 x 3072, projection
    // 512 x 1024, FC1 512 x 4096, FC2 512 x 1024 outputs).
    const ModelSpec m = gpt(1);
    SUBCASE("tp 1: QKV and FC1 inputs transposed (2 B), projection and FC2 inputs cast-transposed (4 B)") {
        const LayerSplit split{};
        const Fp8CastBytes c = fp8_cast_bytes(layer_forward_work(m, 1, 512, split, 2), split);
        // Forward: 2 x 512 x 1024 (QKV input) + 2 x 512 x 1024 (FC1 input)
        //        + 4 x 512 x 1024 (projection input) + 4 x 512 x 4096 (FC2 input) = 12,582,912.
        CHECK(c.forward == 12582912);
        // Backward, the output gradients cast-transposed: 4 x 512 x (3072 + 4096 + 1024 + 1024) = 18,874,368.
        CHECK(c.backward == 18874368);
        // Weights: 4 x (1024 x 3072 + 1024 x 1024 + 1024 x 4096 + 4096 x 1024) = 4 x 12,582,912.
        CHECK(c.weights == 50331648);
    }
    SUBCASE("tp 2 with sequence parallelism: the gathered inputs and row-parallel gradients transposed after the gather") {
        const LayerSplit split{2, 1, 1, true};
        const Fp8CastBytes c = fp8_cast_bytes(layer_forward_work(m, 1, 512, split, 2), split);
        // Forward: projection input 4 x 512 x 512 + FC2 input 4 x 512 x 2048 = 5,242,880.
        CHECK(c.forward == 5242880);
        // Backward: QKV and FC1 gathered inputs transposed, 2 x 2 x 512 x 1024 = 2,097,152;
        // QKV and FC1 output gradients 4 x 512 x (1536 + 2048) = 7,340,032; projection and
        // FC2 output gradients, each 3 x 512 x 1024 / 2 cast + 2 x 512 x 1024 transposed
        // = 1,835,008, twice: 3,670,016. Total 13,107,200.
        CHECK(c.backward == 13107200);
        CHECK(c.weights == 50331648 / 2);
    }
}

TEST_CASE("an fp8 step: linear GEMMs at the fp8 peak plus TE's casts; weights cast once per step") {
    // Per layer the four linear GEMMs are 24 x 512 x 1024^2 = 12,884,901,888 FLOPs
    // forward: 12,884.901888 ns in bf16, 6,442.450944 ns in fp8 (every one compute-
    // bound: QKV's fp8 bytes 512 x 1024 + 1024 x 3072 + 2 x 512 x 3072 = 6.8 MB take
    // 682 ns, less than its 1,611 ns). Backward: dgrad and wgrad, twice that.
    // The casts (test above) at 1e4 B/ns: forward 1,258.2912 ns, backward
    // 1,887.4368 ns, weights 5,033.1648 ns. Attention, norms, the embedding and
    // the logits (bf16 in both) are the same in both precisions. So per layer
    //   forward  fp8 - bf16 = 6,442.450944 - 12,884.901888 + 1,258.2912 = -5,184.159744 ns
    //   backward fp8 - bf16 = 2 x (-6,442.450944) + 1,887.4368       = -10,997.465088 ns
    PredictInputs in = inputs(1);
    const TrainingStepCosts bf16 = costs_of(in);
    in.plan.precision = Precision::FP8;
    const TrainingStepCosts fp8 = costs_of(in);
    REQUIRE(bf16.chunks.size() == 1);
    const ChunkCosts& a = bf16.chunks[0];
    const ChunkCosts& b = fp8.chunks[0];
    CHECK(b.forward.compute_ns - a.forward.compute_ns == doctest::Approx(2 * -5184.159744).epsilon(1e-9));
    CHECK(b.backward.compute_ns - a.backward.compute_ns == doctest::Approx(2 * -10997.465088).epsilon(1e-9));
    CHECK(a.weight_cast_ns == 0);
    CHECK(b.weight_cast_ns == doctest::Approx(2 * 5033.1648).epsilon(1e-12));

    SUBCASE("over a step of 4 micro-batches the weights are cast once, in the first") {
        // Compute busy: 4 x (forward + backward) + the weights' cast once (+ the same
        // optimizer step): fp8 - bf16 = 4 x 2 x (-5,184.159744 - 10,997.465088)
        // + 2 x 5,033.1648 = -119,386.66906 ns.
        PredictInputs four = inputs(1);
        four.plan.gbs = 4;
        const PredictResult r16 = predict(four);
        four.plan.precision = Precision::FP8;
        const PredictResult r8 = predict(four);
        REQUIRE(r16.plan_problems.empty());
        CHECK(r8.compute_ns - r16.compute_ns == doctest::Approx(-119386.669056).epsilon(1e-9));
    }
}

TEST_CASE("the optimizer step: Adam over the rank's shard, then the gradient buffer cleared, at HBM bandwidth") {
    // Eight layers of 12 x 1024^2 + 2 x 1024 = 12,584,960 parameters, and the input
    // embedding and output layer of 1 x 1024 each: 100,681,728 on the one stage.
    // fp32 gradients (the default): per updated parameter the norm reads 4 B, Adam reads
    // param, grad, m, v (16) and writes param, m, v (12), the bf16 copy reads 4 and writes
    // 2: 38 B; then the whole buffer, 100,681,728 x 4 B = 402,726,912 B, is zeroed.
    // ZeRO 1 over dp 8: a shard of 12,585,216 x 38 = 478,238,208 B, + 402,726,912
    // = 880,965,120 B at 1e4 B/ns = 88,096.512 ns.
    PredictInputs in = inputs(8);
    in.model = gpt(8);
    in.plan.zero = 1;
    CHECK(costs_of(in).optimizer_ns.at(0) == doctest::Approx(88096.512).epsilon(1e-12));
    // Without ZeRO every rank updates all of them: 100,681,728 x 38 = 3,825,905,664 B,
    // + 402,726,912 = 4,228,632,576 B: 422,863.2576 ns.
    in.plan.zero = 0;
    CHECK(costs_of(in).optimizer_ns.at(0) == doctest::Approx(422863.2576).epsilon(1e-12));
    // ZeRO 2 shards the buffer too, and bf16 gradients add their copy to fp32 (read 2,
    // write 4): 12,585,216 x (38 + 6) + 12,585,216 x 2 = 578,919,936 B: 57,891.9936 ns.
    in.plan.zero = 2;
    in.plan.grad_reduce_in_fp32 = false;
    CHECK(costs_of(in).optimizer_ns.at(0) == doctest::Approx(57891.9936).epsilon(1e-12));
}

TEST_CASE("the distributed optimizer: buckets of max(40M, 1M x dp) parameters, each gathered after the step") {
    // 100,681,728 parameters per rank (test above). dp 8: buckets of 40M, ceil(2.52) = 3;
    // dp 64: buckets of 64M, ceil(1.57) = 2 (Megatron-Core's DistributedDataParallel).
    // Each bucket's gradients are reduce-scattered over dp, 4 B each in fp32
    // (grad_reduce_in_fp32, Megatron-LM's rule for bf16) or 2 B in bf16, and its
    // bf16 parameters all-gathered: 2 B x 100,681,728 / buckets.
    for (auto [dp, buckets] : {std::pair{8, 3}, std::pair{64, 2}}) {
        for (const bool fp32 : {true, false}) {
            PredictInputs in = inputs(dp);
            in.system.network.dimensions[0].bandwidth_gbps = 100;  // so that the bytes show in the time
            in.model = gpt(8);
            in.plan.zero = 1;
            in.plan.grad_reduce_in_fp32 = fp32;
            const TrainingStepCosts c = costs_of(in);
            CAPTURE(dp);
            CAPTURE(fp32);
            CHECK(c.chunks[0].gradient_buckets == buckets);
            const auto bytes = static_cast<std::uint64_t>(2.0 * 100681728 / buckets + 0.5);
            const auto gradient_bytes = static_cast<std::uint64_t>((fp32 ? 4.0 : 2.0) * 100681728 / buckets + 0.5);
            const CommGroup& group = c.groups.dp_cp;
            CHECK(c.chunks[0].param_gather_bucket_ns ==
                  collective_time(in.system, {CollectiveKind::AllGather, bytes, group, {}}).time_ns);
            CHECK(c.chunks[0].gradient_bucket_ns ==
                  collective_time(in.system, {CollectiveKind::ReduceScatter, gradient_bytes, group, {}}).time_ns);
            // The two sizes take different times here, so the checks above tell them apart.
            CHECK(collective_time(in.system, {CollectiveKind::ReduceScatter, 2 * bytes, group, {}}).time_ns >
                  1.5 * collective_time(in.system, {CollectiveKind::ReduceScatter, bytes, group, {}}).time_ns);
            in.plan.zero = 0;  // no distributed optimizer: all-reduce, nothing to gather
            CHECK(costs_of(in).chunks[0].param_gather_bucket_ns == 0);
        }
    }
}

TEST_CASE("parameter all-gather: after the optimizer step, or per bucket beside the first forward") {
    // One chunk, 3 buckets of 4 ns each (12 ns); the forward's compute 20 ns.
    auto layout = [](bool overlap) {
        StepLayout l;
        PassLayout forward;
        forward.compute_ns = 20;
        forward.once_per_step_ns = 5;  // fp8 weight casts: the first micro-batch's forward only
        if (overlap) {
            forward.param_gather_ns = 12;
            forward.param_gather_first_ns = 4;
        }
        l.passes = {forward, PassLayout{}};
        l.optimizer_ns = {1};
        l.param_gather_after_step_ns = {overlap ? 0.0 : 12.0};
        return l;
    };
    const Pass first{true, 0, 0}, second{true, 1, 0};
    SUBCASE("not overlapped: the three gathers after the step, [46, 58]") {
        // Micro-batch 0's forward [0, 25] (20 + 5 of casts), micro-batch 1's [25, 45],
        // the optimizer step [45, 46], then the gathers [46, 58].
        const StepLayout l = layout(false);
        HandTimer t;
        StageCursor<double> cursor;
        lay_out_pass(l, 0, first, false, cursor, t);
        lay_out_pass(l, 0, second, false, cursor, t);
        lay_out_optimizer(l, 0, cursor, t);
        REQUIRE(t.ops.size() == 4);
        CHECK(t.ops[0].end == 25);
        CHECK(t.ops[1].end == 45);
        CHECK(t.ops[2].kind == StepOpKind::OptimizerStep);
        CHECK(t.ops[3].kind == StepOpKind::ParamGather);
        CHECK(t.ops[3].start == 46);
        CHECK(t.ops[3].end == 58);
    }
    SUBCASE("overlap_param_gather: the first bucket exposed, the others beside the compute") {
        // First bucket [0, 4]; compute [4, 29]; the other two [4, 12] beside it.
        // Micro-batch 1 gathers nothing: [29, 49]; the step [49, 50]. Exposed: 4 ns.
        const StepLayout l = layout(true);
        HandTimer t;
        StageCursor<double> cursor;
        lay_out_pass(l, 0, first, false, cursor, t);
        lay_out_pass(l, 0, second, false, cursor, t);
        lay_out_optimizer(l, 0, cursor, t);
        REQUIRE(t.ops.size() == 5);
        CHECK(t.ops[0].kind == StepOpKind::ParamGather);
        CHECK(t.ops[0].end == 4);
        CHECK(t.ops[1].kind == StepOpKind::ParamGather);
        CHECK(t.ops[1].overlapped);
        CHECK(t.ops[1].end == 12);
        CHECK(t.ops[2].start == 4);
        CHECK(t.ops[2].end == 29);
        CHECK(t.ops[3].start == 29);
        CHECK(t.ops[3].end == 49);
        CHECK(t.ops[4].end == 50);
    }
    SUBCASE("interleaved: dispatched ahead, not after the pass's receive") {
        // The stage's previous pass ended at 10, the activation arrives at 30. With
        // one virtual chunk the pre-hook gathers after the receive, [30, 34], and the
        // compute starts at 34; with two (Megatron's aligned gathers, dispatched
        // ahead) it runs from 10, [10, 14], and the compute starts at 30.
        for (const int chunks : {1, 2}) {
            StepLayout l = layout(true);
            l.virtual_chunks = chunks;
            l.passes[0].input = true;
            HandTimer t;
            t.receive_at = 30;
            StageCursor<double> cursor;
            cursor.last_chain = 10;
            lay_out_pass(l, 0, first, false, cursor, t);
            CAPTURE(chunks);
            REQUIRE(t.ops.size() == 4);  // receive, first bucket, the rest, compute (interleaved: the gathers first)
            const HandTimer::Timed& gathered = t.ops[chunks == 1 ? 1 : 0];
            CHECK(gathered.kind == StepOpKind::ParamGather);
            CHECK(gathered.start == (chunks == 1 ? 30 : 10));
            CHECK(t.ops[3].start == (chunks == 1 ? 34 : 30));
        }
    }
}

TEST_CASE("memory: in fp8 the cached FP8 weights, 2 bytes per linear weight") {
    // Eight layers of 12,582,912 linear weights (QKV 3 h^2, projection h^2, FC1 and
    // FC2 4 h^2 each; norms and the embedding stay bf16 only): 2 x 8 x 12,582,912
    // = 201,326,592 bytes more than bf16. Not with ZeRO 3 (FSDP gathers and casts anew).
    ModelSpec m = gpt(8);
    ParallelPlan p;
    const double bf16 = stage_memory(m, p, 0).weights;
    p.precision = Precision::FP8;
    CHECK(stage_memory(m, p, 0).weights - bf16 == 201326592);
    p.zero = 3;
    CHECK(stage_memory(m, p, 0).weights == bf16);
}

TEST_CASE("tp comm overlap: the GEMMs beside Transformer Engine's pipelined and bulk overlaps run on 116 of 132 SMs") {
    // One layer, h 4096, MLP 16384 (not gated), 4096 tokens, tp 2 with sequence parallelism,
    // bf16 at 1,000 TFLOP/s (1e6 FLOP/ns), 128 x 128 tiles, 132 SMs, plateau 1, memory free.
    // On S of the 132 SMs a GEMM of T tiles and F FLOPs runs at the peak x S / 132 and an
    // efficiency of T / (ceil(T / S) x S): F x 132 x ceil(T / S) / (1e6 x T) ns. Beside a
    // 16-SM overlap (S = 116) it takes F x 132 x (ceil(T / 116) - ceil(T / 132)) / (1e6 x T)
    // ns more:
    //   forward, pipelined: projection (4096, 4096, 2048), 1024 tiles, 9 - 8 waves:
    //     6.8719476736e10 x 132 / 1.024e9 = 8858.370048 ns; fc2 (4096, 4096, 8192): 4x that,
    //     35433.480192 ns; together 44291.85024 ns.
    //   backward, bulk: QKV's input gradient (4096, 4096, 6144), 1024 tiles, 9 - 8 waves:
    //     26575.110144 ns; its weight gradient (4096, 6144, 4096), 1536 tiles, 14 - 12 waves:
    //     35433.480192 ns; fc1's input gradient (4096, 4096, 8192): 35433.480192 ns and its
    //     weight gradient (4096, 8192, 4096), 2048 tiles, 18 - 16 waves: 35433.480192 ns;
    //     together 132875.55072 ns.
    // The other GEMMs (ring exchange: 1 SM and the copy engines) and the attention keep every SM.
    PredictInputs in = inputs(2);
    in.model = gpt(1);
    in.model.hidden = 4096;
    in.model.ffn_hidden = 16384;
    in.model.heads = in.model.kv_heads = 32;
    in.model.seq = 4096;
    in.plan.dp = 1;
    in.plan.tp = 2;
    in.plan.gbs = 1;
    in.plan.sequence_parallel = true;
    GemmTiling t;
    t.tiles = {{128, 128}};
    t.sms = 132;
    in.system.device.gemm_shape = {t, 1.0};
    in.system.device.hbm_gbps = 1e12;
    const TrainingStepCosts off = costs_of(in);
    in.plan.tp_comm_overlap = true;
    const TrainingStepCosts on = costs_of(in);
    CHECK(on.chunks[0].forward.compute_ns - off.chunks[0].forward.compute_ns == doctest::Approx(44291.85024));
    CHECK(on.chunks[0].backward.compute_ns - off.chunks[0].backward.compute_ns == doctest::Approx(132875.55072));
}

TEST_CASE("the loss over the logits: the plan's cross-entropy kernel on the last chunk, the gradient buffer on the first") {
    // Two layers, one stage: the one chunk is both ends. 512 tokens x a vocabulary of 50,000 =
    // 25,600,000 logits; unfused 38 B and fused 26 B each forward: 12 x 25,600,000 / 1e4 B/ns
    // = 30,720 ns apart; both 14 B backward.
    PredictInputs in = inputs(1);
    in.model.vocab = 50000;
    const ChunkCosts unfused = costs_of(in).chunks.at(0);
    in.plan.cross_entropy = CrossEntropyKernel::Fused;
    const ChunkCosts fused = costs_of(in).chunks.at(0);
    CHECK(unfused.forward.compute_ns - fused.forward.compute_ns == doctest::Approx(30720).epsilon(1e-9));
    CHECK(unfused.backward.compute_ns == doctest::Approx(fused.backward.compute_ns).epsilon(1e-12));
    // bf16 gradients: the embedding gradient's main_grad add moves 2 + 2 x 2 instead of 2 + 2 x 4
    // per vocabulary x hidden element: 50,000 x 1,024 x 4 / 1e4 = 20,480 ns less backward.
    in.plan.grad_reduce_in_fp32 = false;
    const ChunkCosts bf16_grads = costs_of(in).chunks.at(0);
    CHECK(fused.backward.compute_ns - bf16_grads.backward.compute_ns == doctest::Approx(20480).epsilon(1e-9));
}

TEST_CASE("mixture of experts: the token dispatcher's permutation and its inverse, each pass") {
    // 4 experts, top 2: 512 tokens of h 1,024 route 1,024 rows. 1,024 x 1,024 x 35.2 B
    // = 36,909,875.2 B each pass. A dense layer routes nothing.
    ModelSpec m = gpt(2);
    CHECK(layer_forward_work(m, 1, 512, LayerSplit{}, 2.0).routing_bytes == 0);
    m.experts = 4;
    m.top_k = 2;
    const LayerForwardWork w = layer_forward_work(m, 1, 512, LayerSplit{}, 2.0);
    CHECK(w.routing_bytes == doctest::Approx(36909875.2).epsilon(1e-12));
}
