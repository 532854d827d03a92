#pragma once
// Dataset kind "training": published training throughputs (validation/training/
// cases.csv, read by predict/training_cases.h), each case predicted by
// `predict` on the dataset's preset. Values in the case's metric
// (tokens_per_s_per_gpu, tflops_per_gpu, hardware_tflops_per_gpu or iteration_time_ms); groups: the
// metric; x: GPUs.
#include <string>

#include "predict/training_cases.h"
#include "validate/dataset_kind.h"

namespace dtcalc {

DatasetResult run_training_dataset(const DatasetSpec& spec, const ValidationContext& context);

/// One case predicted, as a row of dataset `dataset`.
ValidationCase training_validation_case(const TrainingCase& c, const std::string& dataset,
                                        const ValidationContext& context);

}  // namespace dtcalc
