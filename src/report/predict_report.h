#pragma once
// Writers for `dtcalc predict`: a table for people, CSV and JSON for scripts,
// and the iteration report its per-layer output shares with `run`.
#include <ostream>
#include <string>
#include <vector>

#include "core/units.h"
#include "predict/predict.h"
#include "predict/predict_options.h"
#include "report/iteration_report.h"

namespace dtcalc {

struct PredictLabels {
    std::string model;
    std::string system;
    std::string backend;
    std::string framework;  ///< the recipe the plan's defaults came from (config/framework_recipe.h)
    std::string nccl_algo, nccl_proto;  ///< NCCL_ALGO / NCCL_PROTO as given; empty when unset
    std::string nccl_env;               ///< the other NCCL settings as given; empty when unset
};

/// The labels of what resolve_prediction() loaded.
inline PredictLabels predict_labels(const ResolvedPrediction& r) {
    return {r.model_label, r.system_label, r.backend_label, r.framework.name, r.nccl_algo, r.nccl_proto, r.nccl_env};
}

void write_predict_table(std::ostream& out, const PredictInputs& in, const PredictResult& r, const PredictLabels& labels,
                         TimeUnit unit);
void write_predict_json(std::ostream& out, const PredictInputs& in, const PredictResult& r, const PredictLabels& labels);
/// CSV: times in `unit`, each time column named for it (iteration_time_us,
/// iteration_time_ms, ...), as the table shows them.
void write_predict_csv_header(std::ostream& out, TimeUnit unit = TimeUnit::Microseconds);
void write_predict_csv_row(std::ostream& out, const PredictInputs& in, const PredictResult& r, const PredictLabels& labels,
                           TimeUnit unit = TimeUnit::Microseconds);
/// The same row appended to `out` (a sweep's rows, without a stream). With
/// `field_ends`, the offset in `out` just past each field (at its comma, or
/// the line break after the last), so a caller picks columns without
/// splitting the row again.
void append_predict_csv_row(std::string& out, const PredictInputs& in, const PredictResult& r, const PredictLabels& labels,
                            TimeUnit unit = TimeUnit::Microseconds, std::vector<std::size_t>* field_ends = nullptr);

/// The report of the evaluated DAG (per-stage rows, critical path), for the
/// writers shared with `run`.
IterationReport predict_iteration_report(const PredictResult& result);

}  // namespace dtcalc
