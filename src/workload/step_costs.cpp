#include "workload/step_costs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <string>

#include "collective/collective_cost.h"
#include "core/error.h"
#include "core/units.h"
#include "compute/optimizer_step.h"
#include "compute/vocabulary_costs.h"
#include "model/fp8_casts.h"
#include "model/transformer_costs.h"

namespace dtcalc {
namespace {

// Megatron-Core's default DDP bucket: max(40M, 1M x the data-parallel group's size) elements
// (megatron/core/distributed/distributed_data_parallel.py, DistributedDataParallel.__init__).
constexpr double kBucketParameters = 40e6, kBucketParametersPerRank = 1e6;

// Collective times on this system, remembered per (kind, bytes, group).
class CommPricer {
public:
    explicit CommPricer(const TrainingStepInputs& in) : in_(in) {}

    double operator()(CollectiveKind kind, double bytes, const CommGroup& group) {
        if (group.size() <= 1 || bytes <= 0) return 0;
        // A model's tensors are doubles; one past 1 PiB (or not finite) is no message a system can send.
        if (!(bytes <= static_cast<double>(kMaxMessageBytes)))
            throw InputError({"", 0, 0, "model"}, fmt::format("out of range: one {} moves {:.0f} B; sizes from 0 B to "
                                                              "1 PiB (2^50 B) are accepted",
                                                              collective_kind_name(kind), bytes));
        const auto b = static_cast<std::uint64_t>(std::llround(bytes));
        struct Lookup {
            int kind;
            std::uint64_t bytes;
            std::span<const int> members;
        };
        CollectivePriceCache& cache = in_.prices ? *in_.prices : cache_;
        auto it = cache.find(Lookup{static_cast<int>(kind), b, group.members});
        if (it != cache.end()) return it->second;
        // The step's groups of one kind run on every GPU at once (a node's
        // tensor-parallel ranks each run theirs in lockstep).
        const double ns = collective_time(*in_.system, {kind, b, group, in_.nccl, true}).time_ns;
        cache.emplace(CollectivePriceKey{static_cast<int>(kind), b, group.members}, ns);
        return ns;
    }

private:
    const TrainingStepInputs& in_;
    CollectivePriceCache cache_;
};

struct LayerTimes {
    double forward = 0, backward = 0, attention_forward = 0, flops_forward = 0;
    double weight_cast = 0;  ///< fp8: the linear weights' cast, once per optimizer step
};

LayerTimes transformer_layer_times(const ModelSpec& m, const ParallelPlan& p, const TrainingDevice& d) {
    const LayerSplit split{p.tp, p.cp, p.ep, p.sequence_parallel};
    const LayerForwardWork w = layer_forward_work(m, p.mbs, p.sequence(m), split, 2.0);
    const bool fp8 = p.precision == Precision::FP8;
    double gemm = 0, gemm_backward = 0;
    if (times_gemm_shapes(d, p.precision)) {
        // With tp_comm_overlap, Transformer Engine's userbuffers run their pipelined
        // and bulk overlaps on SMs of their own and launch the GEMM beside them on the
        // rest (set_sm_margin). Rule of the software: module/base.py, initialize_ub's
        // get_default_config: "pipeline" for proj_fprop and fc2_fprop, "bulk" for
        // qkv_dgrad, qkv_wgrad, fc1_dgrad and fc1_wgrad, 16 SMs each with the margin;
        // "ring_exchange" (qkv_fprop, fc1_fprop, proj_dgrad, fc2_dgrad) moves its chunks
        // with the copy engines on 1 SM and leaves the GEMM every SM.
        constexpr double kUserbufferSms = 16;
        const bool margin = p.tp_comm_overlap && p.tp > 1;
        const TrainingDevice beside = margin ? with_sms_reserved(d, kUserbufferSms) : d;
        // Each GEMM by its shape: forward Y = X W (m x k)(k x n); backward the
        // input gradient dX = dY W^T (m x n)(n x k) and the weight gradient
        // dW = X^T dY (k x m)(m x n): the same FLOPs in other shapes.
        for (const GemmShape& s : w.shapes) {
            // In fp8 only the linear layers run in fp8 (model/fp8_casts.h): the router stays in bf16.
            const Precision q = s.role == GemmRole::Router ? Precision::BF16 : p.precision;
            const bool pipelined = s.role == GemmRole::Projection || s.role == GemmRole::Fc2;  // fprop beside its RS
            const bool bulk = s.role == GemmRole::Qkv || s.role == GemmRole::Fc1;  // dgrad and wgrad beside AG / RS
            const TrainingDevice& forward = pipelined ? beside : d;
            const TrainingDevice& back = bulk ? beside : d;
            // A rank's experts (s.weights of them) run as one grouped GEMM per pass, each expert's
            // share of the routed tokens against its own weights; one weight matrix is one GEMM
            // (compute/training_device.h expert_gemm_time_ns).
            gemm += expert_gemm_time_ns(forward, q, GemmPass::Forward, s.m, s.n, s.k, s.weights);
            gemm_backward += expert_gemm_time_ns(back, q, GemmPass::InputGradient, s.m, s.k, s.n, s.weights) +
                             expert_gemm_time_ns(back, q, GemmPass::WeightGradient, s.k, s.n, s.m, s.weights);
        }
    } else {
        // Time the GEMMs as `gemms` equal GEMMs of the average size.
        const double per_gemm = w.gemms > 0 ? w.gemm_flops / w.gemms : 0;
        gemm = w.gemms * gemm_time_ns(d, p.precision, per_gemm, w.gemms > 0 ? w.gemm_bytes / w.gemms : 0);
        gemm_backward = 2 * gemm;
    }

    double attention = 0, attention_backward = 0;
    if (p.attention == AttentionKernel::Flash) {
        // A causal mask lets fused attention skip the masked half of the square
        // (model FLOPs still count all of it, as Megatron's formula does). The
        // kernel runs over this rank's share of the sequence.
        const double kernel_seq = p.sequence(m) / p.cp;
        attention = attention_forward_time_ns(d, w.attention_flops / 2, w.attention_bytes, kernel_seq);
        attention_backward = attention_backward_time_ns(d, w.attention_flops / 2, w.attention_bytes, kernel_seq);
    } else {
        // Unfused: Q K^T and P V are batched GEMMs, one pair per head and
        // sequence, over the full square in bf16; the first writes the scores,
        // the second reads the probabilities (2 B each per element). Between
        // them softmax reads and writes (4 B) and dropout reads, writes its
        // output and its mask (5 B).
        const double batch = static_cast<double>(m.heads) / p.tp * p.mbs;
        const double per_head_flops = w.attention_flops / 2 / batch;
        const double scores = w.attention_flops / 2 / batch / (2.0 * m.head_dim());  // elements of one head's square
        const double gemm_bytes = w.attention_bytes / 2 / batch + 2 * scores;
        const double sq = p.sequence(m) / p.cp;  // this rank's queries
        const double sk = p.sequence(m);         // against every key
        const double hd = m.head_dim();
        attention = times_gemm_shapes(d, Precision::BF16)
                        ? gemm_time_ns(d, Precision::BF16, sq, sk, hd, batch * gemm_bytes, batch) +
                              gemm_time_ns(d, Precision::BF16, sq, hd, sk, batch * gemm_bytes, batch)
                        : batch * 2 * gemm_time_ns(d, Precision::BF16, per_head_flops, gemm_bytes);
        attention += memory_time_ns(d, 9 * scores * batch);
        attention_backward = 2 * attention;
    }
    // Transformer Engine's casts to fp8 (model/fp8_casts.h): the activations and
    // gradients that no kernel before them casts, per micro-batch; the weights once per step.
    const Fp8CastBytes cast = fp8 ? fp8_cast_bytes(w, split) : Fp8CastBytes{};
    const double elementwise = memory_time_ns(d, w.elementwise_bytes);
    const double routing = memory_time_ns(d, w.routing_bytes);  // MoE: permutation and its inverse, each pass
    LayerTimes t;
    t.weight_cast = memory_time_ns(d, cast.weights);
    // The framework's own work per layer and pass: memory traffic per element of
    // this rank's activation, its tokens times hidden / tp (fitted, see the preset),
    // at the device's elementwise rate.
    const double framework =
        memory_time_ns(d, d.framework_bytes_per_element * p.mbs * p.sequence(m) / p.cp * m.hidden / p.tp);
    t.forward = gemm + attention + elementwise + routing + memory_time_ns(d, cast.forward) + framework;
    t.backward = gemm_backward + attention_backward + 2 * elementwise + routing + memory_time_ns(d, cast.backward) +
                 framework;
    t.attention_forward = attention;
    t.flops_forward = w.gemm_flops + w.attention_flops;
    if (p.recompute == Recompute::Full) t.backward += t.forward;
    if (p.recompute == Recompute::Selective) t.backward += attention;
    return t;
}

// `lt`: transformer_layer_times() of the plan (every chunk's layers are alike).
ChunkCosts transformer_chunk(const TrainingStepInputs& in, CommPricer& price, const ParallelGroups& g, const LayerTimes& lt,
                             int global_chunk, int global_chunks) {
    const ModelSpec& m = *in.model;
    const ParallelPlan& p = *in.plan;
    const TrainingDevice& d = in.system->device;
    ChunkCosts c;
    c.layers = layers_in_chunk(p, m.layers, global_chunk);
    c.forward.compute_ns = c.layers * lt.forward;
    c.backward.compute_ns = c.layers * lt.backward;
    c.forward.flops = c.layers * lt.flops_forward;
    c.backward.flops = 2 * c.forward.flops;
    c.weight_cast_ns = c.layers * lt.weight_cast;
    c.parameters = c.layers * layer_parameters_per_rank(m, p.tp, p.ep);

    const double seq = p.sequence(m);
    const double tokens = p.mbs * seq / p.cp;
    const double h = m.hidden;
    // Tensor parallel: two collectives per layer each way.
    double tp_layer = 0;
    if (p.tp > 1) {
        const double bytes = tokens * h * 2;
        tp_layer = p.sequence_parallel
                       ? 2 * (price(CollectiveKind::AllGather, bytes, g.tp) + price(CollectiveKind::ReduceScatter, bytes, g.tp))
                       : 2 * price(CollectiveKind::AllReduce, bytes, g.tp);
    }
    c.forward.tp_comm_ns = c.layers * tp_layer;
    c.backward.tp_comm_ns = c.layers * tp_layer * (p.recompute == Recompute::Full ? 2 : 1);
    // Experts: dispatch and combine all-to-alls each way.
    if (m.is_moe() && p.ep > 1) {
        const double routed = tokens * m.top_k / (p.sequence_parallel ? p.tp : 1) * h * 2;
        const double a2a = 2 * price(CollectiveKind::AllToAll, routed, g.ep);
        c.forward.ep_comm_ns = c.layers * a2a;
        c.backward.ep_comm_ns = c.layers * a2a * (p.recompute == Recompute::Full ? 2 : 1);
    }
    // Context parallel: keys and values of the whole sequence, gathered forward, reduced backward.
    if (p.cp > 1) {
        const double kv = static_cast<double>(m.kv_heads) * m.head_dim();
        const double bytes = p.mbs * seq * 2 * kv * 2 / p.tp;
        c.forward.cp_comm_ns = c.layers * price(CollectiveKind::AllGather, bytes, g.cp);
        c.backward.cp_comm_ns = c.layers * price(CollectiveKind::ReduceScatter, bytes, g.cp);
    }
    // The first global chunk looks up embeddings; the last computes logits and the loss
    // (compute/vocabulary_costs.h).
    const VocabularyShape ends{.tokens = tokens, .hidden = h, .vocab = static_cast<double>(m.vocab) / p.tp,
                               .gradient_bytes = p.gradient_bytes()};
    const VocabularyTimes vt = (global_chunk == 0 || global_chunk == global_chunks - 1)
                                   ? vocabulary_times(d, ends, p.cross_entropy)
                                   : VocabularyTimes{};
    if (global_chunk == 0) {
        c.forward.compute_ns += vt.embedding_forward;
        c.backward.compute_ns += vt.embedding_backward;
        c.parameters += embedding_parameters(m) / p.tp;
    }
    if (global_chunk == global_chunks - 1) {
        const double logits_flops = 2 * tokens * ends.vocab * h;
        c.forward.compute_ns += vt.logits_forward + vt.loss_forward;
        c.backward.compute_ns += vt.logits_backward() + vt.loss_backward;
        c.forward.flops += logits_flops;
        c.backward.flops += 2 * logits_flops;
        if (!(m.tied_embeddings && global_chunks == 1)) c.parameters += embedding_parameters(m) / p.tp;
    }
    return c;
}

ChunkCosts layer_list_chunk(const TrainingStepInputs& in, CommPricer& price, const ParallelGroups& g) {
    const ModelSpec& m = *in.model;
    const ParallelPlan& p = *in.plan;
    const TrainingDevice& d = in.system->device;
    ChunkCosts c;
    c.layers = static_cast<int>(m.listed.size());
    for (const ListedLayer& l : m.listed) {
        const double flops = l.forward_flops * p.mbs;
        const double act = l.activation_bytes * p.mbs;
        const double fwd = gemm_time_ns(d, p.precision, flops, act * 2 + l.parameters * 2) +
                           memory_time_ns(d, l.lookup_bytes * p.mbs);
        c.forward.compute_ns += fwd;
        c.backward.compute_ns += 2 * fwd;
        c.forward.flops += flops;
        c.backward.flops += 2 * flops;
        if (l.embedding) {
            // Model-parallel tables: the looked-up rows are exchanged by all-to-all each way.
            const double a2a = price(CollectiveKind::AllToAll, act * p.dp, g.dp);
            c.forward.ep_comm_ns += a2a;
            c.backward.ep_comm_ns += a2a;
        } else {
            c.parameters += l.parameters;
        }
    }
    return c;
}

}  // namespace

TrainingStepCosts price_training_step(const TrainingStepInputs& in) {
    const ModelSpec& m = *in.model;
    const ParallelPlan& p = *in.plan;
    if (p.precision == Precision::FP8 && in.system->device.peak_tflops_fp8 <= 0)
        throw InputError({"--precision", 0, 0, ""}, "fp8 needs a device with an fp8 peak; this system has none");
    // A preset's device has a name; one read from --network/--system files has none.
    const char* source = in.system->device.name.empty() ? "--system" : "--preset";
    if (!(in.system->device.peak_tflops_bf16 > 0))
        throw InputError({source, 0, 0, "peak-perf"},
                         in.system->device.name.empty()
                             ? "the system gives no compute peak to time the model with: add peak-perf (TFLOP/s)"
                             : "the system gives no compute peak to time the model with: add peak-perf (TFLOP/s) to "
                               "its [system] table, or a [compute] table");
    if (!(in.system->device.hbm_gbps > 0))
        throw InputError({source, 0, 0, ""}, "the system gives no memory bandwidth to time the model with");

    TrainingStepCosts out;
    out.groups = map_parallel_groups(in.system->network, p);
    const ParallelGroups& g = out.groups;
    CommPricer price(in);
    const bool layered = m.kind == ModelKind::LayerList;
    out.stages = layered ? 1 : p.pp;
    out.virtual_chunks = layered ? 1 : p.vpp;
    const int pp = out.stages;
    const int v = out.virtual_chunks;
    const int global_chunks = pp * v;

    // Costs per global chunk (stage s, virtual chunk c -> global c * pp + s).
    const LayerTimes layer_times = layered ? LayerTimes{} : transformer_layer_times(m, p, in.system->device);
    out.chunks.resize(static_cast<std::size_t>(global_chunks));
    for (int gc = 0; gc < global_chunks; ++gc) {
        ChunkCosts& cc = out.chunks[static_cast<std::size_t>(gc)];
        cc = layered ? layer_list_chunk(in, price, g) : transformer_chunk(in, price, g, layer_times, gc, global_chunks);
        if (p.zero < 3 && g.dp_cp.size() > 1 && cc.parameters > 0) {
            const double bucket = std::max(kBucketParameters, kBucketParametersPerRank * static_cast<double>(g.dp_cp.size()));
            cc.gradient_buckets = std::clamp(static_cast<int>(std::ceil(cc.parameters / bucket)), 1, std::max(cc.layers, 1));
            const double bucket_parameters = cc.parameters / cc.gradient_buckets;
            const CollectiveKind kind = p.zero >= 1 ? CollectiveKind::ReduceScatter : CollectiveKind::AllReduce;
            cc.gradient_bucket_ns = price(kind, bucket_parameters * p.gradient_bytes(), g.dp_cp);
            // The distributed optimizer updates this rank's shard, then every rank
            // gathers the updated bf16 parameters bucket by bucket
            // (param_and_grad_buffer.py, _ParamAndGradBucketGroup.start_param_sync).
            if (p.zero >= 1) cc.param_gather_bucket_ns = price(CollectiveKind::AllGather, bucket_parameters * 2, g.dp_cp);
        }
        if (p.zero >= 3 && g.dp_cp.size() > 1 && cc.parameters > 0) {
            cc.zero3_gather_ns = price(CollectiveKind::AllGather, cc.parameters * 2, g.dp_cp);
            cc.zero3_reduce_scatter_ns = price(CollectiveKind::ReduceScatter, cc.parameters * p.gradient_bytes(), g.dp_cp);
        }
    }
    const double seq = layered ? 1 : p.sequence(m);
    out.activation_message_bytes = layered ? 0 : p.mbs * seq / p.cp * m.hidden * 2 / p.tp;
    out.send_ns = price(CollectiveKind::SendRecv, out.activation_message_bytes, g.pp_neighbour);
    out.optimizer_ns.resize(static_cast<std::size_t>(pp));
    for (int s = 0; s < pp; ++s) {
        double stage_parameters = 0;
        for (int c = 0; c < v; ++c) stage_parameters += out.chunks[static_cast<std::size_t>(c * pp + s)].parameters;
        const double shard = stage_parameters / (p.zero >= 1 ? static_cast<double>(p.dp) * p.cp : 1.0);
        const double buffered = p.zero >= 2 ? shard : stage_parameters;  // ZeRO 2-3 shard the gradients too
        out.optimizer_ns[static_cast<std::size_t>(s)] =
            memory_time_ns(in.system->device, optimizer_step_bytes(shard, buffered, p.gradient_bytes()));
    }
    return out;
}

}  // namespace dtcalc
