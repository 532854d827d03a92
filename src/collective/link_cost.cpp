#include "collective/link_cost.h"

#include <algorithm>
#include <cmath>

namespace dtcalc {

double astra_bytes_per_ns(double gbps) { return gbps * 1073741824.0 / 1e9; }

StepCost step_cost(const Dimension& dimension, int group_size, NetworkBackend backend, const StepRun& run) {
    // Farthest peer: a ring group of members at distances 1..peer_distance.
    const int hops = dimension.topology == Topology::Ring && run.peer_distance > 1
                         ? farthest_hops_within(dimension.topology, dimension.npus, group_size, run.peer_distance)
                         : hops_at_distance(dimension.topology, dimension.npus, group_size, run.peer_distance);
    const double serialization = static_cast<double>(run.message_bytes) / astra_bytes_per_ns(dimension.bandwidth_gbps);
    StepCost cost;
    cost.latency_ns = hops * dimension.latency_ns;
    switch (backend) {
        case NetworkBackend::Nccl:  // priced by collective/nccl/, never per link; treated as stateless
        case NetworkBackend::AstraUnaware:
            cost.bandwidth_ns = serialization;
            cost.total_ns = std::floor(cost.latency_ns + serialization);
            break;
        case NetworkBackend::AstraAware: {
            const double queued = (run.messages_per_step - 1) * serialization;
            cost.bandwidth_ns = hops * serialization + queued;
            cost.total_ns = hops * std::floor(dimension.latency_ns + serialization) + std::floor(queued);
            break;
        }
    }
    return cost;
}

double reduction_ns(std::uint64_t bytes, double local_mem_bw_gbps) {
    return 3.0 * std::floor(static_cast<double>(bytes) / local_mem_bw_gbps);
}

double link_serialization_ns(const Dimension& dimension, NetworkBackend backend, std::uint64_t bytes) {
    if (backend != NetworkBackend::AstraAware) return 0;
    return std::floor(static_cast<double>(bytes) / astra_bytes_per_ns(dimension.bandwidth_gbps));
}

}  // namespace dtcalc
