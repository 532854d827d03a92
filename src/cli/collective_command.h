#pragma once
// `dtcalc collective KIND --size S ...`: one collective, or a size sweep.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_collective_command(CLI::App& app, const std::vector<std::string>& preset_dirs);

}  // namespace dtcalc::cli
