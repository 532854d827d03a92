#include "network/cluster_shape.h"

#include <string>

#include "core/error.h"
#include "core/units.h"

namespace dtcalc {

Network shape_cluster(Network network, std::optional<long long> nodes, std::optional<long long> gpus_per_node,
                      std::optional<int> node_gpus) {
    if (gpus_per_node) {
        if (*gpus_per_node < 1 || *gpus_per_node > (1 << 24))
            throw OptionError("gpus_per_node", "expected 1 to 16777216, got " + std::to_string(*gpus_per_node));
        if (node_gpus && *gpus_per_node > *node_gpus)
            throw OptionError("gpus_per_node",
                              "expected 1 to " + std::to_string(*node_gpus) + ", got " +
                                  std::to_string(*gpus_per_node) + ": this system's nodes hold " +
                                  std::to_string(*node_gpus) +
                                  " GPUs (a larger node is other hardware: describe it with a preset of its own)");
        network.dimensions.front().npus = static_cast<int>(*gpus_per_node);
    }
    if (nodes) {
        if (*nodes < 1 || *nodes > (1 << 24))
            throw OptionError("nodes", "expected 1 to 16777216, got " + std::to_string(*nodes));
        if (network.dimensions.size() < 2) {
            if (*nodes != 1)
                throw OptionError("nodes", "this system has one network dimension, so one node; "
                                                        "use a multi-node preset (e.g. h100-ib-ndr400)");
        } else {
            network.dimensions.back().npus = static_cast<int>(*nodes);
        }
    }
    // Each dimension is <= 2^24, so each partial product is checked before it can pass 2^48.
    std::int64_t total = 1;
    for (const Dimension& d : network.dimensions) {
        total *= d.npus;
        if (total > kMaxNpus)
            throw OptionError(nodes ? "nodes" : "gpus_per_node",
                             "out of range: the cluster would have more than 16,777,216 NPUs "
                             "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
    }
    return network;
}

}  // namespace dtcalc
