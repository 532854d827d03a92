#pragma once
// `predict`'s front door: a model, a plan and a system in; iteration time,
// throughput, MFU, communication, the pipeline bubble and peak memory out.
// Pure: the same inputs always give the same result.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "collective/nccl/nccl_force.h"
#include "core/error.h"
#include "compute/system.h"
#include "memory/memory_model.h"
#include "model/model_spec.h"
#include "plan/parallel_plan.h"
#include "predict/time_accounts.h"
#include "schedule/evaluate.h"
#include "workload/training_step.h"

namespace dtcalc {

struct PredictInputs {
    ModelSpec model;
    ParallelPlan plan;
    System system;  ///< network, knobs, backend and device
    /// The nccl backend: NCCL_ALGO / NCCL_PROTO as the job sets them; every
    /// collective of the step is asked with it (nothing forced by default).
    NcclForce nccl;
    /// The option that set what leaves NCCL's choice no way to run a
    /// collective, for its errors: nccl_algo, nccl_proto or nccl_env (empty:
    /// nccl_algo where the algorithms are restricted, else nccl_proto).
    std::string nccl_option;
    double memory_limit_bytes = 0;  ///< 0: the device's capacity (or none when unknown)
};

struct PredictResult {
    std::vector<std::string> plan_problems;  ///< non-empty: the plan cannot run; nothing else is set
    bool feasible = false;                   ///< runs and fits in memory
    std::vector<std::string> infeasible_reasons;

    long long npus = 0;
    double iteration_ns = 0;
    double compute_ns = 0;       ///< compute busy of the slowest stage
    double comm_ns = 0;          ///< communication busy of the slowest stage
    double exposed_comm_ns = 0;  ///< communication while compute idles, slowest stage (<= comm_ns)
    double bubble_ns = 0;        ///< pipeline fill and drain: neither computing nor communicating, slowest stage
    double idle_ns = 0;          ///< iteration - compute busy = exposed + bubble, slowest stage
    std::array<TrafficTime, kTrafficClasses> comm_by_class{};  ///< per TrafficClass, slowest stage
    bool comm_by_class_known = true;  ///< false where an evaluator left comm_by_class out (a sweep not asked for it)
    double tokens_per_s = 0;
    double tokens_per_s_per_gpu = 0;
    double model_tflops_per_gpu = 0;
    double mfu = 0;              ///< model FLOP/s per GPU / peak of the plan's precision
    double model_flops = 0;      ///< per iteration, all GPUs, no recompute; attention over the full s x s (Megatron's count)
    /// The same with attention's causal half only (AttentionFlops::Causal), as
    /// some frameworks publish their MFU.
    double model_tflops_per_gpu_causal = 0;
    double mfu_causal = 0;
    /// Hardware FLOPs: the model FLOPs and what activation recompute runs again
    /// (full: every layer's forward; selective: attention's core), as Narayanan
    /// et al. 2021 eq. 3 (96 B s l h^2 (...) with full recompute) and Korthikanti
    /// et al. 2022's HFU count them.
    double hardware_flops = 0;
    double hardware_tflops_per_gpu = 0;
    double hfu = 0;
    PeakMemory memory;
    double memory_limit_bytes = 0;

    TrainingStep step;  ///< the DAG that was evaluated
    Schedule schedule;
};

/// Runs `price`, which prices the step's collectives with `in.nccl`. Where
/// the job's NCCL_ALGO / NCCL_PROTO leave a collective no algorithm and
/// protocol that runs it (NCCL fails such a call too), throws OptionError
/// naming that option (nccl_algo where it forces an algorithm, else nccl_proto).
template <class Price>
auto naming_nccl_options(const PredictInputs& in, Price&& price) -> decltype(price()) {
    try {
        return price();
    } catch (const OptionError&) {
        throw;
    } catch (const InputError& e) {
        if (in.nccl.unset() || e.where().key != "nccl") throw;
        if (!in.nccl_option.empty()) throw OptionError(in.nccl_option, e.detail());
        throw OptionError(in.nccl.algorithms != NcclForce{}.algorithms ? "nccl_algo" : "nccl_proto", e.detail());
    }
}

/// Throws InputError only for inputs that cannot be interpreted (groups that
/// do not fit the network, a device without the numbers); a plan that breaks
/// a rule comes back with `plan_problems`, one that does not fit in memory as
/// infeasible.
PredictResult predict(const PredictInputs& in);

/// Sets the slowest stage's time accounts (time_accounts.h) in `r`.
void set_time_accounts(const TimeAccounts& accounts, PredictResult& r);

/// The headline numbers once `r` holds npus and the iteration's times
/// (iteration and the time accounts): model FLOPs,
/// throughput, MFU, peak memory and feasibility, as predict() derives them.
/// For evaluators that time the iteration without a Schedule (sweep/step_replay.h).
void complete_prediction(const ModelSpec& model, const ParallelPlan& plan, const TrainingDevice& device,
                         double memory_limit_bytes, PredictResult& r);

}  // namespace dtcalc
