#pragma once
// ASTRA-sim's own input files for a network and system dtcalc knows (a preset,
// or files it read): the network YAML, the system JSON and the remote-memory
// JSON, named network.yml, system.json and remote_memory.json in a folder,
// so exported traces run in ASTRA-sim as they are.
//
// network.yml:  topology, npus_count, bandwidth (GB/s), latency (ns), one
//               entry per dimension, innermost first.
// system.json:  scheduling-policy, endpoint-delay, active-chunks-per-dimension,
//               preferred-dataset-splits, the four *-implementation lists
//               (one* names for flat algorithms), collective-optimization,
//               local-mem-bw, boost-mode 0, roofline-enabled (with peak-perf),
//               track-local-mem 0.
// remote_memory.json: NO_MEMORY_EXPANSION.
#include <string>

#include "compute/system.h"

namespace dtcalc::chakra {

std::string astra_network_yaml(const Network& network);
std::string astra_system_json(const SystemConfig& system, bool roofline_enabled);
std::string astra_remote_memory_json();

/// Writes the three files into `directory` (created if missing): the
/// system's network and knobs. Throws InputError naming the path when it cannot.
void write_astra_configs(const std::string& directory, const System& system, bool roofline_enabled);

}  // namespace dtcalc::chakra
