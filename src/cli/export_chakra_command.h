#pragma once
// `dtcalc export-chakra`: a workload dtcalc evaluates (an ASTRA-sim 1.0 text
// workload, or a model + parallelism plan) written as Chakra traces, with the
// ASTRA-sim configuration files to run them.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_export_chakra_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                                 const std::vector<std::string>& model_dirs);

}  // namespace dtcalc::cli
