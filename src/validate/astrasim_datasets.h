#pragma once
// Dataset kinds built on ASTRA-sim's published results.
//
// "astrasim-hgx": ASTRA-sim's HGX-H100 validation (NCCL ring all-reduce
// measured on 2, 4, 8 GPUs; columns source_url, gpus, size_bytes, measured_us,
// astrasim_us, notes). Rows with a measurement are cases, predicted on the first
// `gpus` GPUs of the preset (force the ring with `algorithm = "ring"`, as the
// measurement did), with ASTRA-sim's own simulated time as the reference. Rows
// without one carry ASTRA-sim's published geomean error ("geomean error rate =
// X%") and become the group's note. Groups: "all-reduce/<gpus>gpu".
//
// "astrasim-reference": ASTRA-sim 2.0 analytical-backend outputs on their own
// inputs (validation/astrasim/reference_runs.csv: network and system knobs per
// row, sim_cycles = 1 ns each), predicted with the matching astra-* backend.
// all-gather's size there is the per-rank input; dtcalc counts the output.
// Groups: the backend, "astra-unaware" / "astra-aware".
#include "validate/dataset_kind.h"

namespace dtcalc {

DatasetResult run_astrasim_hgx_dataset(const DatasetSpec& spec, const ValidationContext& context);
DatasetResult run_astrasim_reference_dataset(const DatasetSpec& spec, const ValidationContext& context);

}  // namespace dtcalc
