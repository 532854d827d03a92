#pragma once
// Published training throughputs as prediction cases (validation/training/cases.csv):
// each row a model, a cluster shape, a plan, a metric (tokens/s per GPU or
// model TFLOP/s per GPU) and the measured value with its source.
#include <string>
#include <vector>

#include "predict/predict_options.h"

namespace dtcalc {

struct TrainingCase {
    std::string id;
    std::string metric;  ///< tokens_per_s_per_gpu | tflops_per_gpu
    double measured = 0;
    std::string source;
    PredictOptions options;  ///< model (a name, or a file beside the cases), plan, cluster shape
    std::string file;  ///< the CSV it was read from, for messages
    int line = 0;
};

/// Reads the cases CSV; `preset` is the system every case runs on. A model
/// named in the file is looked up first in models/ beside the CSV. Throws
/// InputError with file:line for a malformed row.
std::vector<TrainingCase> read_training_cases(const std::string& csv_path, const std::string& preset);

struct TrainingCaseResult {
    double predicted = 0;
    double error = 0;  ///< predicted / measured - 1
};

TrainingCaseResult evaluate_training_case(const TrainingCase& c, const std::vector<std::string>& preset_dirs,
                                          const std::vector<std::string>& model_dirs);

}  // namespace dtcalc
