#pragma once
// A preset: a named system (network + system knobs + default backend) in
// `presets/NAME.toml`, each citing where its numbers come from.
#include <string>
#include <vector>

#include "collective/backend.h"
#include "network/network.h"
#include "system/system_config.h"

namespace dtcalc {

struct Preset {
    std::string name;
    std::string description;
    std::vector<std::string> sources;
    NetworkBackend backend = NetworkBackend::AstraUnaware;
    Network network;
    SystemConfig system;
    std::string path;  ///< the file it was read from
};

/// `name_or_path` is a file path (it contains '/' or ends in ".toml") or a
/// preset name looked up as NAME.toml in each of `search_dirs` in turn.
Preset load_preset(const std::string& name_or_path, const std::vector<std::string>& search_dirs);

/// Names of the presets found in `search_dirs`, sorted, without duplicates.
std::vector<std::string> list_presets(const std::vector<std::string>& search_dirs);

}  // namespace dtcalc
