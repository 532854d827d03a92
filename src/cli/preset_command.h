#pragma once
// `dtcalc preset [NAME] [--gpu ... cluster flags] [--write FILE]`: a system as
// a preset file to edit. A preset (composed or not), or a cluster from the
// hardware catalogue, written out with every table stated ([network],
// [system], [compute], [nccl]); the file reads back as the same system.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace dtcalc::cli {

void setup_preset_command(CLI::App& app, const std::vector<std::string>& preset_dirs);

}  // namespace dtcalc::cli
