#pragma once
// The system a question is asked of, as one value: the network, ASTRA-sim's
// system knobs (per-dimension collective algorithms, chunking, endpoint delay;
// with the nccl backend's constants, a preset's [nccl] table, shared in
// `config.nccl`), the network backend that prices collectives, and the
// accelerator. Everything that prices communication or compute takes a System;
// what is asked (a collective's kind, size and group, an algorithm or protocol
// forced like NCCL_ALGO / NCCL_PROTO) travels in the query, never in the system.
#include <cstddef>
#include <optional>
#include <vector>

#include "collective/backend.h"
#include "collective/collective_cost.h"
#include "collective/collective_links.h"
#include "collective/nccl/nccl_parameters.h"
#include "compute/training_device.h"
#include "network/network.h"
#include "system/system_config.h"

namespace dtcalc {

struct System {
    Network network;
    SystemConfig config;
    NetworkBackend backend = NetworkBackend::AstraUnaware;
    /// The accelerator: a preset's or catalogue GPU's device, or for ASTRA-sim
    /// files their peak-perf and local-mem-bw.
    TrainingDevice device;

    /// The nccl backend's constants; null when the system has none.
    const NcclParameters* nccl() const { return config.nccl.get(); }

    /// The GPUs one node holds where the nodes are hardware: a system with
    /// NCCL constants (a preset's [nccl] table describes real nodes, their
    /// NICs and NVSwitch), whose innermost dimension is its node. nullopt for
    /// an abstract network (an ASTRA-sim file, a lab preset).
    std::optional<int> node_gpus() const {
        if (!nccl() || network.dimensions.empty()) return std::nullopt;
        return network.dimensions.front().npus;
    }
};

/// The collective `query` asks about, on `system`'s network with its knobs and
/// backend (collective/collective_cost.h; throws as that does).
inline CollectiveResult collective_time(const System& system, const CollectiveQuery& query) {
    return collective_time(system.network, system.config, system.backend, query);
}

/// The busiest links of each phase of `result`, collective_time(system, query)'s
/// (collective/collective_links.h; throws as that does).
std::vector<PhaseLinks> collective_links(const System& system, const CollectiveQuery& query,
                                         const CollectiveResult& result, std::size_t top_links);

}  // namespace dtcalc
