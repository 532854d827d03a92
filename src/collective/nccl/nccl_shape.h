#pragma once
// How the `nccl` backend sees a communicator: ranks, nodes and GPUs per node,
// and the data rates of the links it runs over.
//
//   Dimension 0 of the network is the node (NVLink/NVSwitch); every outer
//   dimension is the inter-node fabric with one NIC per GPU, so
//     gpus per node = members along dimension 0
//     nodes         = product of the members along the outer dimensions
//   (ranks placed G per node, as nccl-tests places one process per GPU).
//
//   nvlink_gbps      = dimension 0 bandwidth x nvlink-efficiency
//                      (a GPU's NVLink data rate per direction)
//   nic_gbps         = the slowest spanned outer dimension's bandwidth (one NIC)
//   node_network_gbps= gpus per node x nic_gbps x network-ring-efficiency
//                      (what a ring or tree crossing nodes gets: every NIC of
//                      the node carries part of it)
#include <cstdint>

#include "collective/comm_group.h"
#include "collective/nccl/nccl_parameters.h"
#include "network/network.h"

namespace dtcalc {

struct NcclShape {
    std::int64_t ranks = 1;
    std::int64_t nodes = 1;
    std::int64_t gpus_per_node = 1;

    /// 0: one node, 1: two nodes, 2: three or more (NCCL's constant buckets).
    int node_bucket() const { return nodes <= 1 ? 0 : nodes == 2 ? 1 : 2; }
};

struct NcclRates {
    double nvlink_gbps = 0;        ///< per GPU per direction, after efficiency
    double raw_nvlink_gbps = 0;    ///< per GPU per direction, as the network states it
    double nic_gbps = 0;           ///< one NIC per direction, as the network states it
    double node_network_gbps = 0;  ///< a node's NICs together, after ring efficiency
};

NcclShape nccl_shape(const CommGroup& group);

/// Throws InputError (key "network") when a group spanning nodes finds no
/// bandwidth for them, or dimension 0 has none.
NcclRates nccl_rates(const Network& network, const CommGroup& group, const NcclShape& shape,
                     const NcclParameters& params);

}  // namespace dtcalc
