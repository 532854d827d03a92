#pragma once
// The fitted preset as text: the input preset file unchanged but for
//   - a comment at the top saying what it was calibrated from,
//   - `name`, set to the written file's name, and
//   - each fitted constant's value, with a comment beside it naming the data
//     and the date it was fitted on and the preset's value it replaces.
// Comments and layout elsewhere are kept as they were, so `predict` and
// `collective` read it like any preset (`--preset my-cluster.toml`).
#include <string>
#include <vector>

#include "calibrate/calibration.h"
#include "config/calibration_table.h"

namespace dtcalc {

struct PresetNote {
    std::string name;      ///< the new preset's name (the written file's stem)
    std::string data;      ///< what it was fitted on, e.g. "my-logs/ (412 rows, 12 groups)"
    std::string date;      ///< YYYY-MM-DD
    std::string from;      ///< the input preset's name
};

/// `text` is the preset file `constants` were read from (their value_where
/// lines); `fits` is calibrate_preset's answer for the same constants. Throws
/// InputError at a value that is not written as `key = number` on one line.
std::string calibrated_preset_text(const std::string& text, int name_line,
                                   const std::vector<CalibratedConstant>& constants,
                                   const std::vector<ConstantFit>& fits, const PresetNote& note);

}  // namespace dtcalc
