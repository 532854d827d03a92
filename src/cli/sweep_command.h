#pragma once
// `dtcalc sweep`: a design-space exploration over plan, model and system
// parameters (a spec file and/or flags), or batch mode over a CSV file's rows.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_sweep_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                         const std::vector<std::string>& model_dirs);

}  // namespace dtcalc::cli
