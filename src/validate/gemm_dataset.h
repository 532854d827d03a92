#pragma once
// Dataset kind "gemm": GEMMs timed on a device (validation/compute/*/sequence.csv,
// written by scripts/measure_compute.py), each predicted by the device model a
// training step uses (compute/training_device.h gemm_time_ns: shape efficiency,
// sustained fraction, memory roofline) of the dataset's preset.
//
// Columns: family, pass, precision (bf16 or fp8), m, n, k, median_us, p10_us,
// p90_us; `run` when present; `experts` when present, for a mixture-of-experts
// layer's grouped GEMM (compute/training_device.h expert_gemm_time_ns): m, n, k
// are then the whole product, its routed tokens split evenly over that many
// experts (m in fwd and dgrad, k in wgrad). Bytes as the training step counts them
// (compute/training_device.h gemm_bytes).
// A row whose p90 / p10 exceeds 1.5 did not run as measured: the host issued
// its GEMMs slower than the GPU ran them, and the gaps were timed with them.
// Such rows are left out and counted in a note on their group; a group with no
// row left is an error.
// Groups: precision/pass, e.g. "fp8/dgrad"; x: the GEMM's FLOPs.
#include "validate/dataset_kind.h"

namespace dtcalc {

DatasetResult run_gemm_dataset(const DatasetSpec& spec, const ValidationContext& context);

}  // namespace dtcalc
