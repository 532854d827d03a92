#pragma once
// `dtcalc route --network mesh.yml SRC DST`: the route of one message, hop by hop.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_route_command(CLI::App& app, const std::vector<std::string>& preset_dirs);

}  // namespace dtcalc::cli
