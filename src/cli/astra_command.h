#pragma once
// `dtcalc astra --workload-configuration PREFIX ...`: a drop-in for ASTRA-sim's
// analytical binaries on Chakra traces, with their flags and their log lines.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_astra_command(CLI::App& app, const std::vector<std::string>& preset_dirs);

}  // namespace dtcalc::cli
