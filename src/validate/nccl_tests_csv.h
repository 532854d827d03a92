#pragma once
// dtcalc's own nccl-tests dataset CSV (validation/nccl/h100_nccl_tests.csv):
// a header, then one row per size with at least the columns source_url, gpus,
// nodes, collective (all_reduce_perf, all_gather_perf, reduce_scatter_perf,
// alltoall_perf, sendrecv_perf, or dtcalc's names), size_bytes and time_us
// (out-of-place). A run made with NCCL_ALGO / NCCL_PROTO set says so in the
// optional columns nccl_algo, nccl_proto, nccl_nvls_enable,
// nccl_min_nchannels and nccl_max_nchannels (each setting nccl_force.h models,
// in lower case; NCCL's syntax; empty: unset), or as "NCCL_ALGO=Ring" written
// in its notes cell; the row is
// then predicted with NCCL's choice restricted the same way. The optional
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
