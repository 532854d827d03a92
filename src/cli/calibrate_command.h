#pragma once
// `dtcalc calibrate`: fit a preset's calibrated constants to measured
// nccl-tests output and training cases (calibrate/calibration.h), print before -> after, the error
// per group and the leave-one-group-out error, and optionally write the fitted
// preset (calibrate/preset_writer.h).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_calibrate_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                             const std::vector<std::string>& model_dirs);

}  // namespace dtcalc::cli
