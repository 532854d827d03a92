#pragma once
// Dataset kind "output-layer": the vocabulary's ends timed op by op on a device
// (validation/compute/*/output_layer.csv, scripts/measure_compute.py --only
// output-layer), each predicted as a training step times it
// (compute/vocabulary_costs.h) with the dataset's preset's device.
//
// Columns: model, tp, tokens, hidden, vocab_per_rank, op, median_us, p10_us,
// p90_us; `run` when present. op is one of embedding_fwd, logits_fwd, loss_fwd,
// loss_bwd, logits_dgrad, logits_wgrad, embedding_bwd. The loss was measured as
// Megatron-Core's unfused cross entropy and the embedding's gradient added to an
// fp32 main_grad, so rows are predicted so (cross entropy unfused, 4-byte
// gradients).
// Groups: the op; x: the logits (tokens x vocab_per_rank).
#include "validate/dataset_kind.h"

namespace dtcalc {

DatasetResult run_output_layer_dataset(const DatasetSpec& spec, const ValidationContext& context);

}  // namespace dtcalc
