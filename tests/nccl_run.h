#pragma once
// The nccl backend end to end on a shipped preset, for the nccl tests: one
// collective on N nodes of G GPUs through collective_time().
#include <cstdint>
#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "config/preset.h"
#include "network/cluster_shape.h"

namespace dtcalc::testing {

inline const std::vector<std::string> kDirs{DTCALC_PRESETS_DIR};

struct Run {
    double us = 0;
    std::string algorithm;  ///< "ring/LL"
    int nics = 0;
    int channels = 0;
};

inline Run run(const System& system, CollectiveKind kind, std::uint64_t bytes, long long nodes = 1,
               long long gpus = 8, const NcclForce& force = {}) {
    const Network network = shape_cluster(system.network, nodes, gpus);
    const CollectiveResult r =
        collective_time(network, system.config, system.backend, {kind, bytes, whole_network_group(network), force});
    return {r.time_ns / 1000.0, std::string(r.algorithm), r.nics, r.channels};
}

inline Run run(const Preset& preset, CollectiveKind kind, std::uint64_t bytes, long long nodes = 1,
               long long gpus = 8, const NcclForce& force = {}) {
    return run(preset.system, kind, bytes, nodes, gpus, force);
}

inline constexpr std::uint64_t MiB = 1u << 20;
inline constexpr std::uint64_t GiB = 1u << 30;

}  // namespace dtcalc::testing
