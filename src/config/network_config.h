#pragma once
// A network from ASTRA-sim's network keys (the network YAML, or a preset's
// [network] table): `topology`, `npus_count`, `bandwidth` (GB/s), `latency` (ns),
// one list entry per dimension, innermost first.
//
// Meshes and tori: a `Mesh2D` or `Torus2D` topology entry takes two
// consecutive `npus_count` entries (X, then Y; each at least 2) and a `Torus3D`
// three, and becomes that many network dimensions, one per coordinate axis
// (topology.h); its `bandwidth` and `latency` entry applies to every link of
// it. `topology: [Mesh2D, Switch]`, `npus_count: [4, 4, 8]`,
// `bandwidth: [100, 25]`, `latency: [50, 500]` is eight 4x4 meshes joined by a
// switch: three dimensions. A system's `*-implementation` lists then have one
// entry per dimension (per `npus_count` entry).
#include <string>

#include "config/config_value.h"
#include "network/network.h"

namespace dtcalc {

Network network_from_config(const ConfigValue& table);

/// Reads ASTRA-sim's network YAML as it is.
Network load_astra_network_yaml(const std::string& path);

}  // namespace dtcalc
