#pragma once
// Dataset kind "training": published training throughputs (validation/training/
// cases.csv, read by predict/training_cases.h), each case predicted by
// `predict` on the dataset's preset. Values in the case's metric
// (tokens_per_s_per_gpu or tflops_per_gpu); groups: the metric; x: GPUs.
#include "validate/dataset_kind.h"

namespace dtcalc {

DatasetResult run_training_dataset(const DatasetSpec& spec, const ValidationContext& context);

}  // namespace dtcalc
