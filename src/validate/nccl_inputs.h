#pragma once
// Measured rows from what people have: files and folders of raw nccl-tests
// output (validate/nccl_tests_log.h), dtcalc's dataset CSVs
// (validate/nccl_tests_csv.h) and training cases (a plan and a measured
// throughput or iteration time, predict/training_cases.h), told apart by
// content: a file whose first line names the columns `collective` and
// `size_bytes` is a dataset CSV, one whose first columns are `case` and `model`
// training cases, anything else is read as nccl-tests output (and refused,
// naming the file and line, when it is not). A folder is read with everything
// below it, in name order, skipping names that start with '.'.
#include <string>
#include <vector>

#include "predict/training_cases.h"
#include "validate/nccl_measurement.h"
#include "validate/nccl_tests_log.h"

namespace dtcalc {

struct MeasuredInputs {
    std::vector<NcclMeasurement> collectives;
    /// Rows left out of `collectives`: an all-reduce, all-gather or
    /// reduce-scatter of 0 bytes (nccl-tests prints one for each size below
    /// one element per rank), which NCCL discards (nccl_discards): nccl-tests
    /// times only the call, and there is nothing to predict or fit.
    std::vector<NcclMeasurement> discarded;
    std::vector<TrainingCase> training;  ///< each run on `preset` (read_measured_inputs)
    /// With skip_failed_runs, the runs nccl-tests reported failed or its log
    /// cuts short (NcclTestsRunFailed: the file, the line, nccl-tests' words):
    /// the rows each printed before it failed are in `collectives`, the rest
    /// of it is missing.
    std::vector<NcclTestsRunFailed> failed_runs;
};

/// Every row of every input, in the order given (a folder's files sorted by
/// path), the discarded ones apart; training cases run on `preset` (a name or
/// .toml path). Throws as read_nccl_inputs, also for a log with one failed run
/// beside good ones; with `skip_failed_runs`, a failed run's rows (those it
/// printed before it failed, often none) are read and the run is listed in
/// `failed_runs` instead (any other unreadable file still throws), and a read
/// that leaves no rows at all throws, naming the first failed run.
MeasuredInputs read_measured_inputs(const std::vector<std::string>& paths, const NcclLogShape& shape,
                                    const std::string& preset, bool skip_failed_runs = false);

/// The note a front end prints for a run read with skip_failed_runs: the
/// failure, and what of the run was read ("left out" where nothing was).
std::string failed_run_note(const NcclTestsRunFailed& failed);

/// Every collective row of every input that NCCL does not discard, in the
/// order given (a folder's files sorted by path). Throws InputError for a path that does not exist, a folder with no
/// files, or any file that cannot be read as one of the formats (nccl-tests'
/// text output or -J JSON, a dataset CSV), or a file of
/// training cases (read_measured_inputs reads those).
std::vector<NcclMeasurement> read_nccl_inputs(const std::vector<std::string>& paths, const NcclLogShape& shape = {});

}  // namespace dtcalc
