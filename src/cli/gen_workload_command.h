#pragma once
// `dtcalc gen-workload --mnk layers.csv --parallel STRATEGY ...`: a list of
// GEMMs and a parallelization strategy into an ASTRA-sim 1.0 text workload
// (the job of ASTRA-sim's gen_astrasim_workload_input.py, with a closed-form
// systolic-array model or a roofline in place of SCALE-Sim), optionally
// evaluated at once (--evaluate) as `dtcalc run` would evaluate the file.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_gen_workload_command(CLI::App& app, const std::vector<std::string>& preset_dirs);

}  // namespace dtcalc::cli
