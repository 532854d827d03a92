#pragma once
// Where a system comes from: a preset (name or path), or ASTRA-sim's network
// YAML and system JSON; and the network backend to price it with.
#include <string>
#include <vector>

#include "collective/backend.h"
#include "network/network.h"
#include "system/system_config.h"

namespace dtcalc {

struct SystemSource {
    std::string preset;
    std::string network_file;
    std::string system_file;
    std::string backend;  ///< empty: the preset's (astra-unaware for files)
};

struct ResolvedSystem {
    Network network;
    SystemConfig system;
    NetworkBackend backend = NetworkBackend::AstraUnaware;
    std::string label;  ///< how reports name it
};

/// Throws InputError naming the flag (--preset, --network, --system, --backend).
ResolvedSystem resolve_system(const SystemSource& source, const std::vector<std::string>& preset_dirs);

/// Search paths: $DTCALC_PRESET_PATH / $DTCALC_MODEL_PATH (':'-separated), then
/// ./presets or ./models, the install's share/dtcalc/..., next to the
/// executable, and the source tree.
std::vector<std::string> preset_search_dirs(const std::string& argv0);
std::vector<std::string> model_search_dirs(const std::string& argv0);

}  // namespace dtcalc
