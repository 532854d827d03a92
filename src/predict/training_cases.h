#pragma once
// Published training throughputs as prediction cases (validation/training/cases.csv):
// each row a model, a cluster shape, a plan, a metric (tokens/s per GPU, model
// TFLOP/s per GPU, or the iteration time in ms) and the measured value with its
// source.
#include <string>
#include <vector>

#include "predict/predict_options.h"

namespace dtcalc {

struct TrainingCase {
    std::string id;
    std::string metric;  ///< tokens_per_s_per_gpu | tflops_per_gpu | iteration_time_ms
    double measured = 0;
    std::string source;
    PredictOptions options;  ///< model (a name, or a file beside the cases), plan, cluster shape
    std::string file;  ///< the CSV it was read from, for messages
    int line = 0;
};

/// Whether a file whose first line is `first_line` is a cases CSV: its
/// first two columns are `case` and `model` (read_training_cases checks the rest).
bool looks_like_training_cases(const std::string& first_line);

/// Reads the cases CSV; `preset` is the system every case runs on. Columns by
/// name, in any order: case, model, metric, measured, source and the plan
/// options cases.csv gives (framework, nodes, ... recompute) are required; any
/// other plan option (option_schema.h) may be a column too, an empty cell of
/// one leaving the option to the row's recipe, and so may the NCCL settings
/// the run was made with (nccl_algo, nccl_proto, nccl_env; empty: NCCL's
/// defaults). Quoted fields, CRLF line ends
/// and blank lines are read as spreadsheets write them (core/csv_document.h).
/// A model named in
/// the file is looked up first in models/ beside the CSV. Throws InputError
/// with file:line for a malformed header or row.
std::vector<TrainingCase> read_training_cases(const std::string& csv_path, const std::string& preset);

/// The case's metric from a prediction: tokens/s per GPU, model TFLOP/s per
/// GPU, or the iteration time in ms.
double training_metric(const PredictResult& result, const std::string& metric);

/// The metric's unit for a person: "tok/s", "TFLOP/s" or "ms".
std::string training_metric_unit(const std::string& metric);

struct TrainingCaseResult {
    double predicted = 0;
    double error = 0;  ///< predicted / measured - 1
};

TrainingCaseResult evaluate_training_case(const TrainingCase& c, const std::vector<std::string>& preset_dirs,
                                          const std::vector<std::string>& model_dirs);

}  // namespace dtcalc
