#pragma once
// One nccl-tests run as its output states it, whatever the format it was read
// from (the text it prints, nccl_tests_log.h; the JSON file of its -J option,
// nccl_tests_json.h), and the measured rows dtcalc takes from it:
//
// The collective: the program that ran (all_reduce_perf, ...), else one named
// in the file name (all_reduce, allreduce, all-reduce, ...), else the table's
// columns when they decide it (a reducing collective whose count is a rank's
// share of the size is a reduce-scatter; the others come in pairs that print
// alike: all-reduce and sendrecv, all-gather and alltoall). Where a row has
// count, type and redop it must agree with the collective: nccl-tests prints
// count x type size = size for all_reduce and sendrecv, and x ranks for
// all_gather, reduce_scatter and alltoall; redop "none" for all_gather and
// alltoall only.
//
// The shape: nodes = distinct host names of the ranks, GPUs per node = ranks
// / nodes (every host must have as many). `--nodes` / `--gpus-per-node` give
// it where the run names no hosts, and must agree with them where it does.
//
// The NCCL settings dtcalc models (nccl_force.h, nccl_modelled_settings),
// where the run states them, restrict the prediction as they restricted NCCL;
// NCCL's own choice per size, where
// the run printed it (NCCL_DEBUG_SUBSYS=TUNING), is set beside dtcalc's.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "validate/nccl_debug_lines.h"
#include "validate/nccl_measurement.h"

namespace dtcalc {

/// Cluster shape given on the command line (empty: read from the run's hosts).
struct NcclLogShape {
    std::optional<int> nodes;          ///< --nodes
    std::optional<int> gpus_per_node;  ///< --gpus-per-node
};

/// One result row: the size, the out-of-place time and what else it printed.
struct NcclTestsRow {
    InputLocation at;
    std::uint64_t bytes = 0;
    std::optional<long long> count, root;
    std::string type, redop;  ///< empty where not printed
    double time_us = 0;       ///< > 0
};

struct NcclTestsRun {
    InputLocation header_at;   ///< the run's header: "# nThread ..." line, the JSON's "config"
    std::string program;       ///< empty where the output does not name it
    InputLocation program_at;
    /// What names the ranks' hosts in this format, for messages ("rank
    /// lines", "devices"), and what a run without them lacks ("'#  Rank N
    /// Group N Pid N on HOST device N' lines", "config.devices entries").
    std::string hosts_named_by, hosts_expected;
    int gpus_per_thread = 1;              ///< nGpus: nccl-tests' -g
    std::int64_t timed_operations = 20;   ///< -n x CUDA graph launches; nccl-tests' default where absent
    /// The NCCL settings dtcalc models that the run states (NCCL_ALGO, ...;
    /// nccl_modelled_settings()), one per variable.
    std::vector<NcclStatedSetting> settings;
    /// Other NCCL settings the run states ("NCCL_IB_QPS_PER_CONNECTION=4"),
    /// which dtcalc does not model; named beside the rows' errors.
    std::vector<std::string> unmodelled_settings;
    std::vector<NcclTuningLine> tuning;   ///< NCCL's choice, the first of each size
    std::vector<std::pair<std::string, InputLocation>> rank_hosts;  ///< host of each rank, in rank order
    std::vector<NcclTestsRow> rows;
};

/// Appends the run's rows to `out` as measurements (nothing for a run without
/// rows). Throws InputError at the place for a shape that cannot be told or
/// disagrees with `given`, a program dtcalc does not price, a collective that
/// cannot be told, a row that does not fit the collective, or a setting NCCL
/// rejects.
void append_nccl_tests_run(const NcclTestsRun& run, const std::string& path, const NcclLogShape& given,
                           std::vector<NcclMeasurement>& out);

/// Bytes per element of nccl-tests' type names (both spellings); 0 for a
/// name it does not know.
int nccl_tests_type_bytes(const std::string& type);

}  // namespace dtcalc
