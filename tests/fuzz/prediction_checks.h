#pragma once
// The headline numbers of a prediction, checked the way a report would print them.
#include <sstream>

#include "fuzz_target.h"
#include "predict/predict.h"
#include "predict/predict_options.h"
#include "report/predict_report.h"

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

/// The prediction `resolved` asks for: finite numbers, and JSON and CSV
/// reports that parse (model and system names come from the input).
inline void require_sound_prediction(const ResolvedPrediction& resolved, std::string_view input) {
    const PredictResult result = predict(resolved.inputs);
    require_finite_prediction(result);
    std::ostringstream json;
    write_predict_json(json, resolved.inputs, result,
                       {resolved.model_label, resolved.system_label, resolved.backend_label});
    require_finite_text(json.str(), input);
    require_valid_json(json.str());
    std::ostringstream csv;
    write_predict_csv_header(csv);
    write_predict_csv_row(csv, resolved.inputs, result,
                          {resolved.model_label, resolved.system_label, resolved.backend_label});
    require_valid_csv(csv.str());
}

}  // namespace dtcalc::fuzz
