#pragma once
// How the `nccl` backend sees a communicator: ranks, nodes and GPUs per node,
// what NCCL builds for it (nccl_topology.h) and the data rates of its links.
//
//   Dimension 0 of the network is the node (NVLink/NVSwitch); every outer
//   dimension is the inter-node fabric, so
//     gpus per node = members along dimension 0
//     nodes         = product of the members along the outer dimensions
//   (ranks placed G per node, as nccl-tests places one process per GPU).
//
//   nvlink_gbps       = the one-node ring graph's channels x speed (NCCL's
//                       search over its NVLink figure: 12 x 30 = 360 GB/s on
//                       H100, 12 x 20 = 240 on A100): what a ring moves per
//                       GPU over NVLink
//   nic_gbps          = the slowest spanned outer dimension's bandwidth (one NIC)
//   nic_payload_gbps  = min(nic_gbps x network-p2p-efficiency, the GPU-NIC
//                       PCIe link's payload rate): what one NIC carries (an
//                       NDR NIC on an A100's Gen4 x16 moves at most 28.8 GB/s)
//   node network (nccl_network_rate) = nics x min(nic payload, channels per
//                       NIC x channel rate): what a tree, an NVLS tree or an
//                       LL/LL128 ring crossing nodes moves per node; the
//                       channels are the ones NCCL runs, spread evenly over
//                       the NICs in use. One channel's proxy sends one step of
//                       m bytes at a time (m = the channel's share of a step,
//                       at most step-bytes[p]) and each send costs NCCL's
//                       per-step network latency t[p] on top of the wire
//                       time: channel rate = m / (m / NIC payload + t[p])
//                       (LL and small sizes: the latency table covers them, so
//                       LL channels run at the NIC's payload rate). A Simple
//                       ring sends in NCCL's slices at its own calibrated
//                       channel rate (nccl_bandwidth.h). With one GPU per
//                       node every step crosses the network and NCCL's
//                       latency charges each its network latency, so rings,
//                       trees and PAT stream at nics x NIC payload
#include <cstdint>

#include "collective/comm_group.h"
#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_topology.h"
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
    NcclTopology topology;
    double nvlink_gbps = 0;        ///< ring data rate per GPU over NVLink
    /// What one ring or tree channel the kernels run drives over NVLink: its
    /// share of nvlink_gbps among the rule's channels (NcclTopology::
    /// rule_channels); where NCCL_MAX_NCHANNELS runs fewer, at least what one
    /// point-to-point channel moves (NcclHardware::nvlink_link_gbps, NCCL's
    /// per-link figure; nccl_p2p.h), as each channel is one thread block
    /// whichever kernel it runs.
    double channel_nvlink_gbps = 0;
    double raw_nvlink_gbps = 0;    ///< per GPU per direction, as the network states it
    double nic_gbps = 0;           ///< one NIC per direction, as the network states it
    double nic_payload_gbps = 0;   ///< what one NIC carries for this communicator (x topology.nic_share)
};

NcclShape nccl_shape(const CommGroup& group);

/// What one NIC of line rate `nic_gbps` carries: its payload share
/// (network-p2p-efficiency), at most its share of what the GPU's PCIe link
/// carries (NcclHardware::pcie_payload_gbps over the GPU's NICs).
double nccl_nic_payload_gbps(const NcclParameters& params, double nic_gbps);

/// One channel's rate through a NIC for sends of `message_bytes` (capped at
/// the protocol's step) with the protocol's per-step network cost.
double nccl_network_channel_rate(const NcclParameters& params, double nic_payload_gbps, double message_bytes,
                                 NcclProtocol protocol);
/// A node's NICs together for `channels` ring/tree/NVLS channels spread over
/// the NICs in use, each sending `message_bytes` per step.
///
/// With one GPU per node (shape.gpus_per_node == 1) rings, trees and PAT use
/// nccl_network_payload_rate instead, without the per-send cost: every ring step, tree hop and PAT step then crosses the
/// network, and NCCL's latency already charges each of them its network
/// latency (tuning.cc, ncclTopoTuneModel: "With ppn=1 latencies are fully
/// exposed, use the Tree network latency", and a ring's nInterSteps equals its
/// nsteps). Charging the per-send cost as well would count every step twice;
/// the channels then stream at the NICs' payload (and as a Simple ring runs,
/// a step's later slices hide that latency: nccl_latency.h).
double nccl_network_rate(const NcclTopology& topology, const NcclParameters& params, double channels,
                         double message_bytes, NcclProtocol protocol);

/// The NICs in use together when `channels` channels, each moving
/// `channel_gbps`, are spread evenly over them:
///   nics x min(NIC payload, channels / nics x channel_gbps)
double nccl_channels_over_nics(const NcclTopology& topology, const NcclParameters& params, double channels,
                               double channel_gbps);

/// The NICs in use together at their payload rate: nics x NIC x network-p2p-efficiency.
double nccl_network_payload_rate(const NcclTopology& topology, const NcclParameters& params);

/// The NVLink rate `channels` running channels drive together:
/// min(nvlink_gbps, channels x channel_nvlink_gbps).
double nccl_channels_nvlink_gbps(const NcclRates& rates, double channels);

/// Throws InputError (key "network") when a group spanning nodes finds no
/// bandwidth for them, or dimension 0 has none. `on_every_gpu`: every GPU of
/// a node (dimension 0) runs a copy of the collective at once
/// (CollectiveQuery::on_every_gpu); the NICs' payload is then this copy's
/// share (NcclTopology::nic_share). `limits`: NCCL's channel settings (NcclChannelLimits).
NcclRates nccl_rates(const Network& network, const CommGroup& group, const NcclShape& shape,
                     const NcclParameters& params, bool on_every_gpu = false, const NcclChannelLimits& limits = {});

}  // namespace dtcalc
