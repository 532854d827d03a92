#pragma once
// Reshaping a preset's network to a cluster size: `--nodes N --gpus-per-node G`
// set the innermost dimension (inside a node) to G NPUs and the outermost
// (across nodes) to N, as nccl-tests places one process per GPU.
#include <optional>

#include "network/network.h"

namespace dtcalc {

/// Throws InputError naming --nodes or --gpus-per-node when the network has
/// a single dimension and more than one node is asked for, or a count is < 1.
/// `node_gpus`: the GPUs a node of this network holds where its nodes are
/// hardware (System::node_gpus); G may then not exceed it, as nccl-tests can
/// run on fewer of a node's GPUs but not on more. nullopt for an abstract
/// network, whose inner dimension takes any size.
Network shape_cluster(Network network, std::optional<long long> nodes, std::optional<long long> gpus_per_node,
                      std::optional<int> node_gpus);

}  // namespace dtcalc
