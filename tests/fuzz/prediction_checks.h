#pragma once
// The headline numbers of a prediction, checked the way a report would print them.
#include "fuzz_target.h"
#include "predict/predict.h"

namespace dtcalc::fuzz {

inline void require_finite_prediction(const PredictResult& r) {
    if (!r.plan_problems.empty()) return;
    require_finite(r.iteration_ns, "iteration time");
    require_finite(r.compute_ns, "compute time");
    require_finite(r.comm_ns, "communication time");
    require_finite(r.exposed_comm_ns, "exposed communication");
    require_finite(r.bubble_ns, "pipeline bubble");
    require_finite(r.tokens_per_s, "tokens per second");
    require_finite(r.mfu, "MFU");
    require_finite(r.model_flops, "model FLOPs");
    require_finite(r.memory.breakdown.total(), "peak memory");
}

}  // namespace dtcalc::fuzz
