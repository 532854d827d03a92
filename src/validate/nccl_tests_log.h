#pragma once
// Raw nccl-tests output, as all_reduce_perf & co. print it (NVIDIA/nccl-tests
// src/util.cu: writeDeviceReport, writeResultHeader, writeBenchmarkLine*,
// writeResultFooter). One file may hold several runs one after another; each
// run is
//
//   # nccl-tests version 2.17.8 nccl-headers=22902 nccl-library=22902   (2.14 on)
//   # Collective test starting: all_reduce_perf                          (2.14 on)
//   # nThread 1 nGpus 1 minBytes 33554432 maxBytes ... step: 2(factor) ...
//   # Using devices
//   #  Rank  0 Group  0 Pid 4180122 on cnode3-002 device  0 [0000:1b:00] NVIDIA H100 80GB HBM3
//   ...
//   #       size         count      type   redop    root     time   algbw   busbw  #wrong     time ...
//   #        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us) ...
//       33554432       4194304    double     sum      -1   182.87  183.49  321.10       0   182.88 ...
//   # Out of bounds values : 0 OK
//   # Avg bus bandwidth    : 437.957
//
// Read from each run: every table row's size (bytes, nccl-tests' size) and the
// out-of-place time (the first `time` or `cputime` column; in-place is not
// used), the collective and the cluster shape.
//
// The collective, the shape and the checks of each row are the rules of
// nccl_tests_run.h, with the program named by "# Collective test starting:"
// and the hosts of the "#  Rank ... on HOST device ..." lines (nccl-tests
// before 2.13.4 prints them without "Group N"); `--nodes` /
// `--gpus-per-node` give the shape where the log has no rank lines.
//
// NCCL_DEBUG=INFO output states a forced algorithm or protocol:
//
//   cnode3-002:4180122:4180122 [0] NCCL INFO NCCL_ALGO set by environment to Ring
//   cnode3-002:4180122:4180122 [0] NCCL INFO NCCL_PROTO set by environment to LL128
//
// (src/graph/tuning.cc; nccl_debug_lines.h reads them). Such a run's rows carry the setting (nccl_force.h) and
// are predicted with NCCL's choice restricted the same way. Every rank prints
// the line and all must agree; one printed before a run's "# nThread" line or
// after its table ended belongs to the next run. Lines that are none of these
// (other NCCL_DEBUG output, a scheduler's messages) are skipped. A launcher's
// tag before each line (mpirun --tag-output "[1,0]<stdout>:", -prepend-rank
// "[0] ", srun --label "0: ") is taken off first (log_tokens.h). A file
// without a "# nThread" line is not nccl-tests output; a row
// that does not parse, a table before any "# nThread" line, a collective dtcalc
// does not price, or a shape that cannot be told are errors naming the file
// and line.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "validate/nccl_measurement.h"
#include "validate/nccl_tests_run.h"

namespace dtcalc {

/// A run nccl-tests reported failed, or one its log cuts short: where
/// nccl-tests said so ("<host>: Test NCCL failure <file>:<line> '<NCCL's
/// error>'", " .. <host> pid N: Test failure ..."), at the first such line,
/// with nccl-tests' words; else at the run's header line (it printed no result
/// rows, or stops without the closing "# Avg bus bandwidth" line: the job was
/// stopped, or the next run began). `rows_read`: the result rows it printed
/// before that, each a size it finished and checked. A sweep over many nodes
/// keeps such logs beside the good ones; readers may take the rows and say
/// which runs failed (parse_nccl_tests_log_with_failures, read_measured_inputs).
class NcclTestsRunFailed : public InputError {
public:
    NcclTestsRunFailed(InputLocation where, std::string what_was_wrong, std::size_t rows_read = 0)
        : InputError(std::move(where), std::move(what_was_wrong)), rows_read_(rows_read) {}
    std::size_t rows_read() const { return rows_read_; }

private:
    std::size_t rows_read_ = 0;
};

/// Every row a log's runs printed, and the runs that failed.
struct NcclTestsLog {
    std::vector<NcclMeasurement> rows;
    std::vector<NcclTestsRunFailed> failed_runs;  ///< in the log's order
};

/// True when `text` has an nccl-tests "# nThread" header line.
bool looks_like_nccl_tests_log(const std::string& text);

/// The rows of every run in `text`; `path` names the file in rows and errors.
/// Throws the first NcclTestsRunFailed where a run failed (even beside runs
/// that did not), InputError for anything that is not nccl-tests output.
std::vector<NcclMeasurement> parse_nccl_tests_log(const std::string& text, const std::string& path,
                                                  const NcclLogShape& shape = {});

/// As parse_nccl_tests_log, but a failed run is returned beside the rows of
/// the others (and its own rows, those it printed before it failed).
NcclTestsLog parse_nccl_tests_log_with_failures(const std::string& text, const std::string& path,
                                                const NcclLogShape& shape = {});

std::vector<NcclMeasurement> read_nccl_tests_log(const std::string& path, const NcclLogShape& shape = {});

}  // namespace dtcalc
