#pragma once
// What several subcommands share: choosing the system (a preset, or
// ASTRA-sim's network YAML + system JSON), the backend, units and format.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "collective/backend.h"
#include "core/units.h"
#include "network/network.h"
#include "system/system_config.h"

namespace dtcalc::cli {

/// Where presets are looked up, in order: $DTCALC_PRESET_PATH (':'-separated),
/// ./presets, the install's share/dtcalc/presets, the source tree's presets/.
std::vector<std::string> preset_search_dirs(const std::string& argv0);

/// Where models are looked up: $DTCALC_MODEL_PATH, ./models, the install's
/// share/dtcalc/models, the source tree's models/.
std::vector<std::string> model_search_dirs(const std::string& argv0);

struct SystemOptions {
    std::string preset;
    std::string network_file;
    std::string system_file;
    std::string backend;
};

void add_system_options(CLI::App& command, SystemOptions& options);

struct ResolvedSystem {
    Network network;
    SystemConfig system;
    NetworkBackend backend = NetworkBackend::AstraUnaware;
    std::string label;  ///< how reports name it
};

ResolvedSystem resolve_system(const SystemOptions& options, const std::vector<std::string>& preset_dirs);

enum class OutputFormat { Table, Csv, Json };

OutputFormat parse_output_format(const std::string& text);  ///< throws InputError naming --format
TimeUnit parse_units_flag(const std::string& text);          ///< throws InputError naming --units

}  // namespace dtcalc::cli
