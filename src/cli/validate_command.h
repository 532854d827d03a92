#pragma once
// `dtcalc validate`: runs every dataset of validation/gates.toml, prints the
// cases and a summary per group against its error bounds, optionally writes
// one SVG per group, and exits 1 when a bound is exceeded.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_validate_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                            const std::vector<std::string>& model_dirs);

}  // namespace dtcalc::cli
