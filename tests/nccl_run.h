#pragma once
// The nccl backend end to end on a shipped preset, for the nccl tests: one
// collective on N nodes of G GPUs through collective_time().
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "config/preset.h"
#include "config/system_source.h"
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
    const Network network = shape_cluster(system.network, nodes, gpus, system.node_gpus());
    const CollectiveResult r =
        collective_time(network, system.config, system.backend, {kind, bytes, whole_network_group(network), force});
    return {r.time_ns / 1000.0, std::string(r.algorithm), r.nics, r.channels};
}

inline Run run(const Preset& preset, CollectiveKind kind, std::uint64_t bytes, long long nodes = 1,
               long long gpus = 8, const NcclForce& force = {}) {
    return run(preset.system, kind, bytes, nodes, gpus, force);
}

/// A cluster from the hardware catalogue, as `--gpu GPU --nic NIC --nodes N
/// --gpus-per-node G [--nics-per-node K] [--nics-per-gpu M]` composes it
/// (G unset: the GPU's reference node's).
inline System catalogue_system(const char* gpu, const char* nic, long long nodes,
                               std::optional<long long> gpus_per_node = std::nullopt,
                               std::optional<long long> nics_per_node = std::nullopt,
                               std::optional<long long> nics_per_gpu = std::nullopt) {
    SystemSource source;
    source.gpu = gpu;
    source.nic = nic;
    source.nodes = nodes;
    source.gpus_per_node = gpus_per_node;
    source.nics_per_node = nics_per_node;
    source.nics_per_gpu = nics_per_gpu;
    return resolve_system(source, kDirs).system;
}

inline constexpr std::uint64_t MiB = 1u << 20;
inline constexpr std::uint64_t GiB = 1u << 30;

}  // namespace dtcalc::testing
