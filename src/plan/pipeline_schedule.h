#pragma once
// The order in which one pipeline stage runs its forward and backward passes:
// GPipe, 1F1B (PipeDream-Flush) and Megatron-LM's interleaved 1F1B with
// virtual stages. The one source of the schedule: the training step's layout
// (workload/step_layout.h) walks it, and the memory model counts the
// activations it keeps alive from the same warm-up.
#include <vector>

#include "plan/parallel_plan.h"

namespace dtcalc {

/// One pass of a stage's schedule.
struct Pass {
    bool forward = true;
    int micro_batch = 0;
    int chunk = 0;  ///< virtual chunk on this stage
};

/// Forward passes stage `stage` runs before its first backward pass (the
/// warm-up): GPipe every micro-batch; 1F1B min(pp - stage - 1, m);
/// interleaved min(2 (pp - stage - 1) + (vpp - 1) pp, m vpp) (Megatron-LM's
/// forward_backward_pipelining_with_interleaving, num_warmup_microbatches);
/// without a pipeline (pp = 1) none: each micro-batch runs forward then backward.
long long warmup_passes(const ParallelPlan& plan, int stage);

/// Forward passes whose activations stage `stage` holds at once at its peak:
/// the warm-up plus the one running, at most every pass there is.
long long passes_in_flight(const ParallelPlan& plan, int stage);

/// The passes stage `stage` runs, in order. The plan must pass plan_problems().
std::vector<Pass> stage_schedule(const ParallelPlan& plan, int stage);

}  // namespace dtcalc
