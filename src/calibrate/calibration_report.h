#pragma once
// `dtcalc calibrate`'s answer as a table for people or JSON for scripts: each
// constant before -> after (or why it stayed), each group's mean absolute and
// largest error (|predicted / measured - 1|) with the preset's values and the
// fitted ones, and for fitted groups the error when every constant is fitted
// without that group or its shape (leave-one-out), and which constants such a
// refit cannot place where the fit on every group does: put at a bound, or
// kept at the preset's value (JSON: the group's left_out.at_bound and
// left_out.kept); contradictory rows left out.
#include <ostream>
#include <string>
#include <vector>

#include "calibrate/calibration.h"

namespace dtcalc {

struct CalibrationHeader {
    std::string preset;               ///< the input preset's name
    std::vector<std::string> inputs;  ///< files and folders as given
    std::string written;              ///< the fitted preset's path, empty when none was written
    /// The NCCL settings the runs were made with, as given ("NCCL_ALGO=ring");
    /// empty: NCCL's defaults (or what each run states).
    std::vector<std::string> nccl_env;
};

void write_calibration_table(std::ostream& out, const CalibrationHeader& header, const CalibrationResult& result);
void write_calibration_json(std::ostream& out, const CalibrationHeader& header, const CalibrationResult& result);

}  // namespace dtcalc
