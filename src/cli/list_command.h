#pragma once
// `dtcalc list [models|presets]`: what can be named with --model and --preset.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_list_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                        const std::vector<std::string>& model_dirs);

}  // namespace dtcalc::cli
