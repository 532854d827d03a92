#pragma once
// dtcalc's own nccl-tests dataset CSV (validation/nccl/h100_nccl_tests.csv):
// a header, then one row per size with at least the columns source_url, gpus,
// nodes, collective (all_reduce_perf, all_gather_perf, reduce_scatter_perf,
// alltoall_perf, sendrecv_perf, or dtcalc's names), size_bytes and time_us
// (out-of-place). A run made with NCCL settings says so in optional columns
// named after each setting nccl_force.h models, in lower case (nccl_algo,
// nccl_proto, nccl_nvls_enable, nccl_min_nchannels, nccl_max_ctas, ...;
// NCCL's syntax; empty: unset), or as "NCCL_ALGO=Ring" written in its notes
// cell (the whole name: XNCCL_ALGO= is not it); the row is then predicted
// with the same settings. The optional
// columns type and redop give nccl-tests' -d and -o (float and sum where
// absent or empty; redop "none" for a collective that reduces nothing):
// NVLS runs only for what the switch reduces (nccl_reduction.h). Other columns
// are kept for people and ignored here.
#include <string>
#include <vector>

#include "validate/nccl_measurement.h"

namespace dtcalc {

/// True when the file's first line is such a header (it names both
/// `collective` and `size_bytes`): how a folder tells dataset CSVs from logs.
bool looks_like_nccl_tests_csv(const std::string& first_line);

/// Throws InputError (file, line, column) for a missing column, an unknown
/// collective, gpus not a multiple of nodes, a size that is not a whole
/// number, a time that is not > 0, an NCCL_ALGO / NCCL_PROTO NCCL would
/// reject, a column and the notes that disagree, or a type or redop that is
/// not nccl-tests'.
std::vector<NcclMeasurement> read_nccl_tests_csv(const std::string& path);

}  // namespace dtcalc
