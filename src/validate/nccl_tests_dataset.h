#pragma once
// Dataset kind "nccl-tests": measured nccl-tests results, from a dataset CSV
// (validate/nccl_tests_csv.h: one row per size, columns source_url, gpus,
// nodes, collective, size_bytes, time_us) or raw nccl-tests output, a file or
// a folder (validate/nccl_inputs.h). Each row is predicted on the dataset's preset reshaped to
// `nodes` x `gpus/nodes` (network/cluster_shape.h: ranks G per node, as
// nccl-tests places one process per GPU), whole cluster as the communicator.
// Groups: "<collective>/<gpus>gpu/<nodes>node". Files of training cases among
// the inputs (`validate --dataset my-runs/`) are predicted as the "training"
// kind predicts them, grouped by their metric.
#include "collective/nccl/nccl_force.h"
#include "collective/nccl/nccl_parameters.h"
#include "compute/system.h"
#include "validate/dataset_kind.h"

namespace dtcalc {

DatasetResult run_nccl_tests_dataset(const DatasetSpec& spec, const ValidationContext& context);

/// The dataset's `algorithm` / `protocol`, NCCL_ALGO / NCCL_PROTO values in
/// NCCL's syntax (nccl_force.h; empty: NCCL's choice), for its queries to carry. Throws InputError at the key for a bad name or a system
/// without NCCL parameters.
NcclForce dataset_nccl_force(const System& system, const DatasetSpec& spec);

}  // namespace dtcalc
