#pragma once
// Reshaping a preset's network to a cluster size: `--nodes N --gpus-per-node G`
// set the innermost dimension (inside a node) to G NPUs and the outermost
// (across nodes) to N, as nccl-tests places one process per GPU.
#include <optional>

#include "network/network.h"

namespace dtcalc {

/// Throws InputError naming --nodes or --gpus-per-node when the network has
/// a single dimension and more than one node is asked for, or a count is < 1.
Network shape_cluster(Network network, std::optional<long long> nodes, std::optional<long long> gpus_per_node);

}  // namespace dtcalc
