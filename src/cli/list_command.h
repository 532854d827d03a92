#pragma once
// `dtcalc list [models|presets|gpus|nics|frameworks]`: what can be named with
// --model, --preset, --gpu and --nic, with the key facts of each.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_list_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                        const std::vector<std::string>& model_dirs);

}  // namespace dtcalc::cli
