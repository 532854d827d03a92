#include "predict/predict.h"

#include <algorithm>

#include "core/text_formats.h"
#include "model/transformer_costs.h"

namespace dtcalc {
namespace {

std::string gib(double bytes) { return fixed_number(bytes / 1073741824.0, 1) + " GiB"; }

}  // namespace

PredictResult predict(const PredictInputs& in) {
    PredictResult r;
    r.npus = in.system.network.total_npus();
    r.plan_problems = plan_problems(in.model, in.plan, r.npus);
    if (!r.plan_problems.empty()) return r;

    TrainingStepInputs step_in{&in.model, &in.plan, &in.system, nullptr, in.nccl};
    r.step = naming_nccl_options(in, [&] { return build_training_step(step_in); });
    EvaluationSystem eval;
    eval.system = &in.system;
    r.schedule = evaluate(r.step.graph, eval);

    r.iteration_ns = r.schedule.wall_ns;
    int slowest = 0;
    for (int i = 1; i < static_cast<int>(r.schedule.roles.size()); ++i)
        if (r.schedule.roles[static_cast<std::size_t>(i)].wall_ns > r.schedule.roles[static_cast<std::size_t>(slowest)].wall_ns)
            slowest = i;
    const RoleSummary& role = r.schedule.roles[static_cast<std::size_t>(slowest)];
    // The slowest stage's ops in the order it runs them (the builder's).
    StageTimeAccountant accounts;
    for (std::size_t i = 0; i < r.step.graph.ops.size(); ++i) {
        const Op& op = r.step.graph.ops[i];
        if (op.role != slowest) continue;
        const OpTiming& t = r.schedule.ops[i];
        if (op.kind == OpKind::Compute) accounts.compute(t.start_ns, t.end_ns);
        else if (op.kind == OpKind::Recv) accounts.receive(t.end_ns);
        else if (r.step.op_traffic[i] >= 0)
            accounts.communicate(t.start_ns, t.end_ns, static_cast<TrafficClass>(r.step.op_traffic[i]));
    }
    set_time_accounts(accounts.finish(role.wall_ns), r);

    complete_prediction(in.model, in.plan, in.system.device, in.memory_limit_bytes, r);
    return r;
}

void set_time_accounts(const TimeAccounts& a, PredictResult& r) {
    r.compute_ns = a.compute_ns;
    r.comm_ns = a.comm_ns;
    r.exposed_comm_ns = a.exposed_comm_ns;
    r.bubble_ns = a.bubble_ns;
    r.idle_ns = a.idle_ns;
    r.comm_by_class = a.by_class;
}

void complete_prediction(const ModelSpec& model, const ParallelPlan& plan, const TrainingDevice& device,
                         double memory_limit_bytes, PredictResult& r) {
    const double seconds = r.iteration_ns * 1e-9;
    const double seq = plan.sequence(model);
    const double batch = static_cast<double>(plan.global_batch());
    r.model_flops = model_flops_per_iteration(model, batch, seq);
    if (seconds > 0) {
        r.tokens_per_s = batch * seq / seconds;
        r.tokens_per_s_per_gpu = r.tokens_per_s / r.npus;
        r.model_tflops_per_gpu = r.model_flops / seconds / r.npus / 1e12;
        r.mfu = r.model_tflops_per_gpu / device.peak_tflops(plan.precision);
        r.model_tflops_per_gpu_causal =
            model_flops_per_iteration(model, batch, seq, AttentionFlops::Causal) / seconds / r.npus / 1e12;
        r.mfu_causal = r.model_tflops_per_gpu_causal / device.peak_tflops(plan.precision);
    }
    r.hardware_flops = r.model_flops;
    if (plan.recompute == Recompute::Full) r.hardware_flops += layers_forward_flops_per_iteration(model, batch, seq);
    if (plan.recompute == Recompute::Selective)
        r.hardware_flops += attention_forward_flops_per_iteration(model, batch, seq);
    if (seconds > 0) {
        r.hardware_tflops_per_gpu = r.hardware_flops / seconds / r.npus / 1e12;
        r.hfu = r.hardware_tflops_per_gpu / device.peak_tflops(plan.precision);
    }

    r.memory = peak_memory(model, plan);
    r.memory_limit_bytes = memory_limit_bytes > 0 ? memory_limit_bytes : device.hbm_capacity_bytes;
    r.feasible = true;
    if (r.memory_limit_bytes > 0 && r.memory.breakdown.total() > r.memory_limit_bytes) {
        r.feasible = false;
        r.infeasible_reasons.push_back("stage " + std::to_string(r.memory.stage) + " needs " +
                                       gib(r.memory.breakdown.total()) + " but the limit is " + gib(r.memory_limit_bytes));
    }
}

}  // namespace dtcalc
