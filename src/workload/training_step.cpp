#include "workload/training_step.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "collective/collective_cost.h"
#include "core/error.h"
#include "core/units.h"
#include "model/transformer_costs.h"

namespace dtcalc {
namespace {

constexpr double kBucketParameters = 40e6;  // Megatron-LM's default DDP bucket (40M elements)
constexpr double kOptimizerBytesPerParameter = 34;  // Adam: read fp32 master, m, v, grad (16); write master, m, v (12); bf16 weight (2); grad reset (4)

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
        const auto key = std::make_tuple(static_cast<int>(kind), b, group.members);
        CollectivePriceCache& cache = in_.prices ? *in_.prices : cache_;
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
        const double ns = collective_time(*in_.network, *in_.system, in_.backend, {kind, b, group}).time_ns;
        cache.emplace(key, ns);
        return ns;
    }

private:
    const TrainingStepInputs& in_;
    CollectivePriceCache cache_;
};

struct LayerTimes {
    double forward = 0, backward = 0, attention_forward = 0, flops_forward = 0;
};

LayerTimes transformer_layer_times(const ModelSpec& m, const ParallelPlan& p, const TrainingDevice& d) {
    const LayerSplit split{p.tp, p.cp, p.ep, p.sequence_parallel};
    const LayerForwardWork w = layer_forward_work(m, p.mbs, p.sequence(m), split, 2.0);
    const double per_gemm = w.gemms > 0 ? w.gemm_flops / w.gemms : 0;
    // Time the GEMMs as `gemms` equal GEMMs of the average size.
    const double gemm = w.gemms * gemm_time_ns(d, p.precision, per_gemm, w.gemms > 0 ? w.gemm_bytes / w.gemms : 0);
    // A causal mask lets fused attention skip the masked half of the square
    // (model FLOPs still count all of it, as Megatron's formula does).
    const double attention = attention_time_ns(d, w.attention_flops / 2, w.attention_bytes);
    const double cast = p.precision == Precision::FP8 ? memory_time_ns(d, d.fp8_cast_bytes_per_element * w.gemm_input_elements) : 0.0;
    const double elementwise = memory_time_ns(d, w.elementwise_bytes) + cast;
    LayerTimes t;
    t.forward = gemm + attention + elementwise;
    t.backward = 2 * gemm + 2 * attention + 2 * elementwise;
    t.attention_forward = attention;
    t.flops_forward = w.gemm_flops + w.attention_flops;
    if (p.recompute == Recompute::Full) t.backward += t.forward;
    if (p.recompute == Recompute::Selective) t.backward += attention;
    return t;
}

ChunkCosts transformer_chunk(const TrainingStepInputs& in, CommPricer& price, const ParallelGroups& g, int global_chunk,
                             int global_chunks) {
    const ModelSpec& m = *in.model;
    const ParallelPlan& p = *in.plan;
    const TrainingDevice& d = *in.device;
    ChunkCosts c;
    c.layers = m.layers / global_chunks;
    const LayerTimes lt = transformer_layer_times(m, p, d);
    c.forward.compute_ns = c.layers * lt.forward;
    c.backward.compute_ns = c.layers * lt.backward;
    c.forward.flops = c.layers * lt.flops_forward;
    c.backward.flops = 2 * c.forward.flops;
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
    // The first global chunk looks up embeddings; the last computes logits and the loss.
    if (global_chunk == 0) {
        const double lookup = memory_time_ns(d, tokens * h * 2 * 2);
        c.forward.compute_ns += lookup;
        c.backward.compute_ns += lookup;
        c.parameters += embedding_parameters(m) / p.tp;
    }
    if (global_chunk == global_chunks - 1) {
        const GemmShape logits{tokens, static_cast<double>(m.vocab) / p.tp, h};
        const double gemm = gemm_time_ns(d, p.precision, logits.flops(), logits.bytes(2));
        const double loss = memory_time_ns(d, tokens * m.vocab / p.tp * 4 * 3);
        c.forward.compute_ns += gemm + loss;
        c.backward.compute_ns += 2 * gemm + loss;
        c.forward.flops += logits.flops();
        c.backward.flops += 2 * logits.flops();
        if (!(m.tied_embeddings && global_chunks == 1)) c.parameters += embedding_parameters(m) / p.tp;
    }
    return c;
}

ChunkCosts layer_list_chunk(const TrainingStepInputs& in, CommPricer& price, const ParallelGroups& g) {
    const ModelSpec& m = *in.model;
    const ParallelPlan& p = *in.plan;
    const TrainingDevice& d = *in.device;
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

std::vector<Pass> stage_schedule(const ParallelPlan& p, int stage) {
    const int m = static_cast<int>(p.micro_batches());
    std::vector<Pass> out;
    if (p.schedule == PipelineSchedule::GPipe || p.pp == 1) {
        for (int j = 0; j < m; ++j) out.push_back({true, j, 0});
        for (int j = m - 1; j >= 0; --j) out.push_back({false, j, 0});
        if (p.pp == 1) {  // without a pipeline every schedule is forward then backward per micro-batch
            out.clear();
            for (int j = 0; j < m; ++j) {
                out.push_back({true, j, 0});
                out.push_back({false, j, 0});
            }
        }
        return out;
    }
    if (p.schedule == PipelineSchedule::OneFOneB) {
        const int warmup = std::min(p.pp - stage - 1, m);
        for (int j = 0; j < warmup; ++j) out.push_back({true, j, 0});
        for (int j = 0; j < m - warmup; ++j) {
            out.push_back({true, warmup + j, 0});
            out.push_back({false, j, 0});
        }
        for (int j = m - warmup; j < m; ++j) out.push_back({false, j, 0});
        return out;
    }
    // Interleaved 1F1B (Megatron-LM): micro-batches go round the virtual chunks in groups of pp.
    const int v = p.vpp;
    const int total = m * v;
    const int warmup = std::min(2 * (p.pp - stage - 1) + (v - 1) * p.pp, total);
    auto micro_batch = [&](int k) { return (k / (p.pp * v)) * p.pp + k % p.pp; };
    auto forward_chunk = [&](int k) { return (k / p.pp) % v; };
    auto backward_chunk = [&](int k) { return v - 1 - (k / p.pp) % v; };
    for (int k = 0; k < warmup; ++k) out.push_back({true, micro_batch(k), forward_chunk(k)});
    for (int k = 0; k < total - warmup; ++k) {
        out.push_back({true, micro_batch(warmup + k), forward_chunk(warmup + k)});
        out.push_back({false, micro_batch(k), backward_chunk(k)});
    }
    for (int k = total - warmup; k < total; ++k) out.push_back({false, micro_batch(k), backward_chunk(k)});
    return out;
}

TrainingStepCosts price_training_step(const TrainingStepInputs& in) {
    const ModelSpec& m = *in.model;
    const ParallelPlan& p = *in.plan;
    if (p.precision == Precision::FP8 && in.device->peak_tflops_fp8 <= 0)
        throw InputError({"--precision", 0, 0, ""}, "fp8 needs a device with an fp8 peak; this system has none");
    // A preset's device has a name; one read from --network/--system files has none.
    const char* source = in.device->name.empty() ? "--system" : "--preset";
    if (!(in.device->peak_tflops_bf16 > 0))
        throw InputError({source, 0, 0, "peak-perf"},
                         in.device->name.empty()
                             ? "the system gives no compute peak to time the model with: add peak-perf (TFLOP/s)"
                             : "the system gives no compute peak to time the model with: add peak-perf (TFLOP/s) to "
                               "its [system] table, or a [compute] table");
    if (!(in.device->hbm_gbps > 0))
        throw InputError({source, 0, 0, ""}, "the system gives no memory bandwidth to time the model with");

    TrainingStepCosts out;
    out.groups = map_parallel_groups(*in.network, p);
    const ParallelGroups& g = out.groups;
    CommPricer price(in);
    const bool layered = m.kind == ModelKind::LayerList;
    out.stages = layered ? 1 : p.pp;
    out.virtual_chunks = layered ? 1 : p.vpp;
    const int pp = out.stages;
    const int v = out.virtual_chunks;
    const int global_chunks = pp * v;

    // Costs per global chunk (stage s, virtual chunk c -> global c * pp + s).
    out.chunks.resize(static_cast<std::size_t>(global_chunks));
    for (int gc = 0; gc < global_chunks; ++gc) {
        ChunkCosts& cc = out.chunks[static_cast<std::size_t>(gc)];
        cc = layered ? layer_list_chunk(in, price, g) : transformer_chunk(in, price, g, gc, global_chunks);
        if (p.zero < 3 && g.dp.size() > 1 && cc.parameters > 0) {
            cc.gradient_buckets = std::clamp(static_cast<int>(std::ceil(cc.parameters / kBucketParameters)), 1, std::max(cc.layers, 1));
            const CollectiveKind kind = p.zero >= 1 ? CollectiveKind::ReduceScatter : CollectiveKind::AllReduce;
            cc.gradient_bucket_ns = price(kind, cc.parameters * 2 / cc.gradient_buckets, g.dp);
        }
        if (p.zero >= 3 && g.dp.size() > 1 && cc.parameters > 0) {
            cc.zero3_gather_ns = price(CollectiveKind::AllGather, cc.parameters * 2, g.dp);
            cc.zero3_reduce_scatter_ns = price(CollectiveKind::ReduceScatter, cc.parameters * 2, g.dp);
        }
    }
    const double seq = layered ? 1 : p.sequence(m);
    out.activation_message_bytes = layered ? 0 : p.mbs * seq / p.cp * m.hidden * 2 / p.tp;
    out.send_ns = price(CollectiveKind::SendRecv, out.activation_message_bytes, g.pp_neighbour);
    out.optimizer_ns.resize(static_cast<std::size_t>(pp));
    for (int s = 0; s < pp; ++s) {
        double stage_parameters = 0;
        for (int c = 0; c < v; ++c) stage_parameters += out.chunks[static_cast<std::size_t>(c * pp + s)].parameters;
        const double shard = stage_parameters / (p.zero >= 1 ? p.dp : 1);
        out.optimizer_ns[static_cast<std::size_t>(s)] = memory_time_ns(*in.device, shard * kOptimizerBytesPerParameter);
    }
    return out;
}

TrainingStep build_training_step(const TrainingStepInputs& in) {
    const ModelSpec& m = *in.model;
    const ParallelPlan& p = *in.plan;
    const TrainingStepCosts priced = price_training_step(in);

    TrainingStep step;
    step.groups = priced.groups;
    const ParallelGroups& g = step.groups;
    WorkloadGraph& graph = step.graph;
    const bool layered = m.kind == ModelKind::LayerList;
    const int pp = priced.stages;
    const int v = priced.virtual_chunks;
    const int global_chunks = pp * v;
    graph.roles = pp;
    graph.role_npus.assign(static_cast<std::size_t>(pp), p.npus() / pp);
    step.chain.assign(static_cast<std::size_t>(pp), {});

    const int tp_group = graph.add_group(g.tp);
    const int ep_group = graph.add_group(layered ? g.dp : g.ep);
    const int cp_group = graph.add_group(g.cp);
    const int dp_group = graph.add_group(g.dp);
    const int p2p_group = graph.add_group(g.pp_neighbour);

    const std::vector<ChunkCosts>& costs = priced.chunks;
    step.forward_ns_per_microbatch = 0;
    step.backward_ns_per_microbatch = 0;
    for (int c = 0; c < v; ++c) {
        step.forward_ns_per_microbatch += costs[static_cast<std::size_t>(c * pp)].forward.compute_ns;
        step.backward_ns_per_microbatch += costs[static_cast<std::size_t>(c * pp)].backward.compute_ns;
    }

    const double activation_message = priced.activation_message_bytes;
    const double send_ns = priced.send_ns;
    const long long micro_batches = p.micro_batches();
    auto tag = [&](long long mb, int global, int direction) {
        return static_cast<int>((mb * global_chunks + global) * 2 + direction);
    };

    auto collective_op = [&](int role, const char* name, int group, double ns, CollectiveKind kind, OpPhase phase) {
        Op op;
        op.kind = OpKind::Collective;
        op.role = role;
        op.group = group;
        op.collective = kind;
        op.duration_ns = ns;
        op.phase = phase;
        op.name = graph.name_id(name);
        return op;
    };

    const int forward_name = graph.name_id("F");
    const int backward_name = graph.name_id("B");
    const int send_activation_name = graph.name_id("send activation");
    const int send_gradient_name = graph.name_id("send gradient");
    std::vector<int> last_chain(static_cast<std::size_t>(pp), -1);
    std::vector<std::vector<int>> carry(static_cast<std::size_t>(pp));  // overlapped ops the next pass waits for
    std::vector<std::vector<int>> gradient_ops(static_cast<std::size_t>(pp));
    // Build stage by stage; within a stage in schedule order. Cross-stage
    // order comes from the sends and receives.
    for (int s = 0; s < pp; ++s) {
        const std::vector<Pass> passes = stage_schedule(p, s);
        // The last backward pass of each chunk carries the gradient buckets.
        std::vector<int> last_backward(static_cast<std::size_t>(v), -1);
        for (int i = 0; i < static_cast<int>(passes.size()); ++i)
            if (!passes[static_cast<std::size_t>(i)].forward) last_backward[static_cast<std::size_t>(passes[static_cast<std::size_t>(i)].chunk)] = i;

        for (int i = 0; i < static_cast<int>(passes.size()); ++i) {
            const Pass& pass = passes[static_cast<std::size_t>(i)];
            const int global = pass.chunk * pp + s;
            const ChunkCosts& cc = costs[static_cast<std::size_t>(global)];
            const PassCost& cost = pass.forward ? cc.forward : cc.backward;
            const OpPhase phase = pass.forward ? OpPhase::Forward : OpPhase::InputGradient;
            std::vector<int> deps = carry[static_cast<std::size_t>(s)];
            carry[static_cast<std::size_t>(s)].clear();
            if (last_chain[static_cast<std::size_t>(s)] >= 0) deps.push_back(last_chain[static_cast<std::size_t>(s)]);
            // Input from the neighbouring global stage.
            const bool has_input = pass.forward ? global > 0 : global < global_chunks - 1;
            if (has_input && !layered) {
                Op r;
                r.kind = OpKind::Recv;
                r.role = s;
                r.peer_role = pass.forward ? (s + pp - 1) % pp : (s + 1) % pp;
                r.tag = tag(pass.micro_batch, global, pass.forward ? 0 : 1);
                r.phase = phase;
                deps.push_back(graph.add(r));
            }
            // Overlapped communication beside the compute.
            std::vector<int> beside;
            if (cost.cp_comm_ns > 0) {
                const int cp = graph.add(collective_op(s, pass.forward ? "cp kv all-gather" : "cp kv reduce-scatter", cp_group,
                                                       cost.cp_comm_ns, CollectiveKind::AllGather, phase),
                                         deps);
                beside.push_back(cp);
            }
            if (p.zero >= 3 && cc.parameters > 0 && g.dp.size() > 1) {
                beside.push_back(graph.add(collective_op(s, "zero-3 parameter all-gather", dp_group, cc.zero3_gather_ns,
                                                         CollectiveKind::AllGather, phase),
                                           deps));
            }
            const bool bucketed = !pass.forward && i == last_backward[static_cast<std::size_t>(pass.chunk)] &&
                                  p.zero < 3 && g.dp.size() > 1 && cc.parameters > 0;
            const int buckets = bucketed ? cc.gradient_buckets : 1;
            const int label = pass.forward ? forward_name : backward_name;
            int chain_op = -1;
            for (int b = 0; b < buckets; ++b) {
                Op c;
                c.kind = OpKind::Compute;
                c.role = s;
                c.phase = phase;
                c.duration_ns = cost.compute_ns / buckets;
                c.flops = cost.flops / buckets;
                c.name = buckets > 1 ? graph.name_id((pass.forward ? "F part " : "B part ") + std::to_string(b)) : label;
                c.micro_batch = pass.micro_batch;
                c.chunk = v > 1 ? pass.chunk : -1;
                std::vector<int> compute_deps = deps;
                if (chain_op >= 0) compute_deps = {chain_op};
                if (b == 0) compute_deps.insert(compute_deps.end(), beside.begin(), beside.end());
                const int compute_op = graph.add(c, compute_deps);
                chain_op = compute_op;
                step.chain[static_cast<std::size_t>(s)].push_back(chain_op);
                if (cost.tp_comm_ns > 0 && p.tp_comm_overlap) {
                    // Hidden behind the GEMMs: runs beside the compute; the next pass waits for both.
                    carry[static_cast<std::size_t>(s)].push_back(
                        graph.add(collective_op(s, "tp collectives (overlapped)", tp_group, cost.tp_comm_ns / buckets,
                                                p.sequence_parallel ? CollectiveKind::AllGather : CollectiveKind::AllReduce, phase),
                                  compute_deps));
                } else if (cost.tp_comm_ns > 0) {
                    chain_op = graph.add(collective_op(s, "tp collectives", tp_group, cost.tp_comm_ns / buckets,
                                                       p.sequence_parallel ? CollectiveKind::AllGather : CollectiveKind::AllReduce, phase),
                                         {chain_op});
                    step.chain[static_cast<std::size_t>(s)].push_back(chain_op);
                }
                if (cost.ep_comm_ns > 0) {
                    chain_op = graph.add(collective_op(s, layered ? "embedding all-to-all" : "expert all-to-all", ep_group,
                                                       cost.ep_comm_ns / buckets, CollectiveKind::AllToAll, phase),
                                         {chain_op});
                    step.chain[static_cast<std::size_t>(s)].push_back(chain_op);
                }
                if (bucketed) {
                    const CollectiveKind kind = p.zero >= 1 ? CollectiveKind::ReduceScatter : CollectiveKind::AllReduce;
                    gradient_ops[static_cast<std::size_t>(s)].push_back(
                        graph.add(collective_op(s, "dp gradient bucket", dp_group, cc.gradient_bucket_ns, kind,
                                                OpPhase::WeightGradient),
                                  {chain_op}));
                }
            }
            if (!pass.forward && p.zero >= 3 && g.dp.size() > 1 && cc.parameters > 0)
                gradient_ops[static_cast<std::size_t>(s)].push_back(graph.add(
                    collective_op(s, "zero-3 gradient reduce-scatter", dp_group, cc.zero3_reduce_scatter_ns,
                                  CollectiveKind::ReduceScatter,
                                  OpPhase::WeightGradient),
                    {chain_op}));
            last_chain[static_cast<std::size_t>(s)] = chain_op;
            // Output to the neighbouring global stage.
            const bool has_output = pass.forward ? global < global_chunks - 1 : global > 0;
            if (has_output && !layered) {
                Op out;
                out.kind = OpKind::Send;
                out.role = s;
                out.group = p2p_group;
                out.duration_ns = send_ns;
                out.comm_bytes = static_cast<std::uint64_t>(activation_message);
                out.peer_role = pass.forward ? (s + 1) % pp : (s + pp - 1) % pp;
                out.tag = tag(pass.micro_batch, pass.forward ? global + 1 : global - 1, pass.forward ? 0 : 1);
                out.phase = phase;
                out.name = pass.forward ? send_activation_name : send_gradient_name;
                out.micro_batch = pass.micro_batch;
                graph.add(out, {chain_op});
            }
        }
        // Optimizer step: after every gradient is reduced.
        Op opt;
        opt.kind = OpKind::Compute;
        opt.role = s;
        opt.phase = OpPhase::Update;
        opt.duration_ns = priced.optimizer_ns[static_cast<std::size_t>(s)];
        opt.name = graph.name_id("optimizer step");
        std::vector<int> deps = gradient_ops[static_cast<std::size_t>(s)];
        deps.push_back(last_chain[static_cast<std::size_t>(s)]);
        deps.insert(deps.end(), carry[static_cast<std::size_t>(s)].begin(), carry[static_cast<std::size_t>(s)].end());
        graph.add(opt, deps);
    }
    (void)micro_batches;
    return step;
}

}  // namespace dtcalc
