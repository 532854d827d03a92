#pragma once
// A SystemConfig from ASTRA-sim's system keys (its system JSON, or a preset's
// [system] table), checked against the network it will run on.
#include <string>

#include "config/config_value.h"
#include "system/system_config.h"

namespace dtcalc {

/// `dimensions` is the network's dimension count: each `*-implementation` list
/// needs one entry per dimension, or a single flat `one*` entry.
SystemConfig system_config_from(const ConfigValue& table, std::size_t dimensions);

/// Reads ASTRA-sim's system JSON as it is.
SystemConfig load_astra_system_json(const std::string& path, std::size_t dimensions);

}  // namespace dtcalc
