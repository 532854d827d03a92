#pragma once
// One collective on a system's cluster reshaped to `nodes` x `gpus` per node,
// the whole cluster as the group, for tests of the nccl backend's settings.
#include <cstdint>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_force.h"
#include "compute/system.h"
#include "network/cluster_shape.h"

namespace dtcalc::testing {

inline CollectiveResult one(const System& system, CollectiveKind kind, std::uint64_t bytes, long long nodes,
                            long long gpus, const NcclForce& force) {
    const Network network = shape_cluster(system.network, nodes, gpus, system.node_gpus());
    return collective_time(network, system.config, system.backend, {kind, bytes, whole_network_group(network), force});
}

}  // namespace dtcalc::testing
