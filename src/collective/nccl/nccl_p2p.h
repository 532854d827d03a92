#pragma once
// Point-to-point in NCCL: send/recv and all-to-all (grouped sends and
// receives), with NCCL's rule for how many channels one operation uses
// (enqueue.cc, scheduleP2pTasksToPlan / addP2pToPlan).
//
// Channels of one point-to-point operation of B bytes (n ranks), from the
// communicator's p2p channels P and channels per peer Q (nccl_topology.h):
//   minimum  = Q, halved while minimum x n > P
//   chunk C  = p2p-nvlink-chunk-bytes (one node) or p2p-network-chunk-bytes
//   parts    : start at min(minimum, ceil(B / minPart)) channels, double while
//              B / channels > maxPart and channels <= Q / 2, where
//              minPart = C/8 and maxPart = 32 C on one node, C/2 and C across nodes
//   then, across nodes, the chunk sent: C/4 when B < C, C/2 when B < 8 C, else C
//   (NCCL's network chunk tuning; it sets the per-chunk cost's share below)
//
// Send/recv (nccl-tests sendrecv_perf: every rank sends B to the next rank and
// receives B from the previous one; the slowest pair sets the pace):
//   bw   = min(channels x NCCL's per-NVLink figure, NVLink rate), and across
//          nodes also the network rate of `channels` (nccl_p2p_network_rate)
//          through the GPU's NICs (one on DGX/HGX)
//   time = p2p latency (+ one network step and the connection starts across
//          nodes) + fill + B / bw,
//          fill = min(B / channels, C) / per-channel bandwidth (the slower one)
// All-to-all of B bytes per rank (B/n to every peer):
//   NVLink: B (G-1)/n / (NVLink bandwidth x alltoall-nvlink-efficiency)
//   NIC:    B (n-G)/n / network rate of (n-G) x channels connections at most
//           the GPU's share of the NICs: NIC payload x NICs per GPU / GPUs on
//           the busiest NIC (1 on DGX/HGX, where every NIC carries its GPU's
//           share to the NIC of its rail on each other node, rail-aligned with
//           PXN; 1/2 with 8 GPUs on 4 NICs), the NIC payload times
//           network-alltoall-efficiency from three nodes on
//   self:   across nodes, the own share B/n copied at channels x
//           copy-bandwidth-per-channel, times channels / the distinct p2p
//           channels the peers use (1 with two ranks)
//   time = p2p latency (+ one network step and the connection starts) + fill
//          (for B/n) + the slower of NVLink and NIC + self
// Connection starts: across nodes every connection of the operation (one per
// remote peer and channel; a send and a receive each way) is started by the
// GPU's one network proxy thread in turn, p2p-network-connection-start-us
// each. The NIC streams the connections already started, which share it
// evenly, so the last one, started connections x that after the first, ends
// that much after the rest: connections x p2p-network-connection-start-us is
// added once, whatever the size.
#include <cstdint>

#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_shape.h"

namespace dtcalc {

struct NcclP2pChannels {
    int channels = 1;
    double chunk_bytes = 0;  ///< the chunk each channel sends at a time
};

/// What `channels` point-to-point channels move through one NIC of payload
/// rate `nic_payload_gbps`, sending `chunk_bytes` at a time: each channel at
/// p2p-network-channel-bandwidth, and every chunk of every channel pays the
/// GPU's per-chunk cost in turn:
///   1 / rate = 1 / (channels x channel rate) + chunk overhead / chunk bytes,
/// at most the NIC's payload rate.
double nccl_p2p_network_rate(const NcclParameters& params, double nic_payload_gbps, double channels,
                             double chunk_bytes);

/// Connection starts of a point-to-point operation across nodes, in ns:
/// connections x p2p-network-connection-start-us.
double nccl_p2p_connection_start_ns(const NcclParameters& params, double connections);

NcclP2pChannels nccl_p2p_channels(const NcclShape& shape, const NcclTopology& topology,
                                  const NcclParameters& params, std::uint64_t bytes);

struct NcclP2pCost {
    int channels = 1;
    double latency_ns = 0;    ///< p2p latency (and one network step and the connection starts across nodes)
    double fill_ns = 0;       ///< first chunk before the pipeline streams
    double bandwidth_ns = 0;  ///< bytes over the bottleneck rate
    double time_ns() const { return latency_ns + fill_ns + bandwidth_ns; }
};

NcclP2pCost nccl_send_recv_cost(std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                                const NcclParameters& params);
/// Send/recv between two GPUs of one node of the communicator `shape`
/// describes, across nodes or not: over NVLink, with the communicator's
/// chunk and its channel rule (nccl_p2p_channels), whose channels per peer
/// are the least over all its peers, a network peer's where it spans nodes
/// (paths.cc, ncclTopoComputeP2pChannels: 4 on two NDR nodes, 1 on 10 x 8).
NcclP2pCost nccl_send_recv_node_pair_cost(std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                                          const NcclParameters& params);
NcclP2pCost nccl_all_to_all_cost(std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                                 const NcclParameters& params);

}  // namespace dtcalc
