#include "collective/nccl/nccl_shape.h"

#include <algorithm>
#include <limits>

#include "core/error.h"

namespace dtcalc {

NcclShape nccl_shape(const CommGroup& group) {
    NcclShape shape;
    if (group.members.empty()) return shape;
    shape.gpus_per_node = std::max(1, group.members[0]);
    for (std::size_t d = 1; d < group.members.size(); ++d) shape.nodes *= std::max(1, group.members[d]);
    shape.ranks = shape.gpus_per_node * shape.nodes;
    return shape;
}

NcclRates nccl_rates(const Network& network, const CommGroup& group, const NcclShape& shape,
                     const NcclParameters& params) {
    NcclRates rates;
    if (network.dimensions.empty()) throw InputError({"", 0, 0, "network"}, "the nccl backend needs a network");
    rates.raw_nvlink_gbps = network.dimensions[0].bandwidth_gbps;
    rates.nvlink_gbps = rates.raw_nvlink_gbps * params.nvlink_efficiency;
    if (shape.nodes > 1) {
        double slowest = std::numeric_limits<double>::infinity();
        for (std::size_t d = 1; d < group.members.size() && d < network.dimensions.size(); ++d)
            if (group.members[d] > 1) slowest = std::min(slowest, network.dimensions[d].bandwidth_gbps);
        if (!(slowest > 0) || slowest == std::numeric_limits<double>::infinity())
            throw InputError({"", 0, 0, "network"}, "the nccl backend needs a bandwidth for the inter-node dimension");
        rates.nic_gbps = slowest;
        rates.node_network_gbps =
            static_cast<double>(shape.gpus_per_node) * slowest * params.network_ring_efficiency;
    }
    return rates;
}

}  // namespace dtcalc
