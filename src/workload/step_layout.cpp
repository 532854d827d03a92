#include "workload/step_layout.h"

namespace dtcalc {

StepLayout make_step_layout(const TrainingStepCosts& costs, const ParallelPlan& plan, bool layer_list) {
    StepLayout out;
    out.stages = costs.stages;
    out.virtual_chunks = costs.virtual_chunks;
    out.global_chunks = costs.stages * costs.virtual_chunks;
    out.overlap_tp = plan.tp_comm_overlap;
    out.send_ns = costs.send_ns;
    out.send_bytes = costs.activation_message_bytes;
    out.optimizer_ns = costs.optimizer_ns;
    out.param_gather_after_step_ns.assign(static_cast<std::size_t>(out.stages), 0.0);
    const bool dp_many = costs.groups.dp_cp.size() > 1;
    out.passes.resize(static_cast<std::size_t>(out.global_chunks) * 2);
    for (int global = 0; global < out.global_chunks; ++global) {
        const ChunkCosts& cc = costs.chunks[static_cast<std::size_t>(global)];
        for (const bool forward : {true, false}) {
            const PassCost& cost = forward ? cc.forward : cc.backward;
            PassLayout& pl = out.passes[static_cast<std::size_t>(global * 2 + (forward ? 0 : 1))];
            pl.compute_ns = cost.compute_ns;
            pl.flops = cost.flops;
            pl.tp_ns = cost.tp_comm_ns;
            pl.ep_ns = cost.ep_comm_ns;
            pl.cp_ns = cost.cp_comm_ns;
            // Ring attention: cp - 1 exchange steps per layer, the first before any block is computed
            // (rule of the software: Transformer Engine's AttnFuncWithCPAndKVP2P, the ring
            // Megatron-Core's context parallelism runs, sends the next key/value block while
            // computing on the current one).
            const int layers = cc.layers > 0 ? cc.layers : 1;
            if (plan.cp > 1) pl.cp_first_ns = cost.cp_comm_ns / layers / (plan.cp - 1);
            // Userbuffers split each TP collective into tp chunks pipelined with the GEMM's (rule
            // of the software: Transformer Engine's comm_gemm_overlap, CommOverlapP2PBase's
            // split_overlap_ag / split_overlap_rs, one chunk per TP rank).
            if (plan.tp_comm_overlap && plan.tp > 1) pl.tp_first_ns = cost.tp_comm_ns / plan.tp;
            // Layer-list models are one stage: no messages between chunks.
            pl.input = !layer_list && (forward ? global > 0 : global < out.global_chunks - 1);
            pl.output = !layer_list && (forward ? global < out.global_chunks - 1 : global > 0);
            const bool reduces = dp_many && cc.parameters > 0;
            pl.zero3 = plan.zero >= 3 && reduces;
            pl.bucketed = !forward && plan.zero < 3 && reduces;
            pl.buckets = pl.bucketed ? cc.gradient_buckets : 1;
            pl.bucket_ns = cc.gradient_bucket_ns;
            pl.zero3_gather_ns = cc.zero3_gather_ns;
            // FSDP gathers one layer ahead (rule of the software: PyTorch FSDP's forward and
            // backward prefetch of the next layer's all-gather): the first layer's is exposed.
            pl.zero3_gather_first_ns = cc.zero3_gather_ns / layers;
            pl.zero3_reduce_scatter_ns = cc.zero3_reduce_scatter_ns;
            if (forward) {
                pl.once_per_step_ns = cc.weight_cast_ns;
                // The distributed optimizer's parameter all-gather, one per gradient bucket.
                const double gather = reduces && plan.zero < 3 ? cc.param_gather_bucket_ns * cc.gradient_buckets : 0.0;
                if (plan.overlap_param_gather) {
                    pl.param_gather_ns = gather;
                    pl.param_gather_first_ns = reduces && plan.zero < 3 ? cc.param_gather_bucket_ns : 0.0;
                } else {
                    out.param_gather_after_step_ns[static_cast<std::size_t>(global % out.stages)] += gather;
                }
            }
        }
    }
    return out;
}

std::vector<int> last_backward_passes(const std::vector<Pass>& passes, int virtual_chunks) {
    std::vector<int> last(static_cast<std::size_t>(virtual_chunks), -1);
    for (std::size_t i = 0; i < passes.size(); ++i)
        if (!passes[i].forward) last[static_cast<std::size_t>(passes[i].chunk)] = static_cast<int>(i);
    return last;
}

}  // namespace dtcalc
