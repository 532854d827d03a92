#pragma once
// A network from ASTRA-sim's network keys (the network YAML, or a preset's
// [network] table): `topology`, `npus_count`, `bandwidth` (GB/s), `latency` (ns),
// one list entry per dimension, innermost first.
#include <string>

#include "config/config_value.h"
#include "network/network.h"

namespace dtcalc {

Network network_from_config(const ConfigValue& table);

/// Reads ASTRA-sim's network YAML as it is.
Network load_astra_network_yaml(const std::string& path);

}  // namespace dtcalc
