#pragma once
// `dtcalc run FILE.txt`: an ASTRA-sim 1.0 text workload on a system.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_run_command(CLI::App& app, const std::vector<std::string>& preset_dirs);

}  // namespace dtcalc::cli
