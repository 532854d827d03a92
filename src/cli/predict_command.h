#pragma once
// `dtcalc predict`: one training iteration of a model on a system with a plan.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_predict_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                           const std::vector<std::string>& model_dirs);

}  // namespace dtcalc::cli
