#include "collective/nccl/nccl_p2p.h"

#include <algorithm>
#include <cmath>

namespace dtcalc {
namespace {

constexpr double kNsPerUs = 1000.0;

std::uint64_t div_up(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// One network step of a Simple transfer (NCCL's ring network latency).
double network_step_us(const NcclParameters& params) {
    return params.network_latency_us[static_cast<std::size_t>(NcclAlgorithm::Ring)]
                                    [static_cast<std::size_t>(NcclProtocol::Simple)];
}

// What an operation across nodes waits before it streams: one network step,
// and the proxy starting its connections one after another.
double network_start_ns(const NcclParameters& params, double connections) {
    return network_step_us(params) * kNsPerUs + nccl_p2p_connection_start_ns(params, connections);
}

}  // namespace

double nccl_p2p_network_rate(const NcclParameters& params, double nic_payload_gbps, double channels,
                             double chunk_bytes) {
    const double c = std::max(1.0, channels);
    double ns_per_byte = 1.0 / (c * params.p2p_network_channel_bandwidth);
    if (chunk_bytes > 0) ns_per_byte += params.p2p_network_chunk_overhead_us * kNsPerUs / chunk_bytes;
    return std::min(nic_payload_gbps, 1.0 / ns_per_byte);
}

double nccl_p2p_connection_start_ns(const NcclParameters& params, double connections) {
    return std::max(0.0, connections) * params.p2p_network_connection_start_us * kNsPerUs;
}

NcclP2pChannels nccl_p2p_channels(const NcclShape& shape, const NcclTopology& topology,
                                  const NcclParameters& params, std::uint64_t bytes) {
    const std::int64_t ranks = std::max<std::int64_t>(1, shape.ranks);
    const std::int64_t p2p = std::max(1, topology.p2p_channels);
    const std::int64_t per_peer = std::max(1, topology.p2p_channels_per_peer);
    std::int64_t minimum = per_peer;
    while (minimum * ranks > p2p && minimum > 1) minimum /= 2;

    NcclP2pChannels out;
    out.chunk_bytes = shape.nodes > 1 ? params.p2p_network_chunk_bytes : params.p2p_nvlink_chunk_bytes;
    if (bytes == 0) return out;
    const std::uint64_t chunk = static_cast<std::uint64_t>(std::max(1.0, out.chunk_bytes));
    const std::uint64_t min_part = std::max<std::uint64_t>(1, shape.nodes > 1 ? chunk / 2 : chunk / 8);
    const std::uint64_t max_part = shape.nodes > 1 ? chunk : chunk * 32;
    std::int64_t channels = static_cast<std::int64_t>(
        std::min<std::uint64_t>(static_cast<std::uint64_t>(minimum), div_up(bytes, min_part)));
    channels = std::max<std::int64_t>(1, channels);
    std::uint64_t part = std::max(min_part, div_up(bytes, static_cast<std::uint64_t>(channels)));
    while (part > max_part && channels <= per_peer / 2) {
        channels *= 2;
        part = div_up(bytes, static_cast<std::uint64_t>(channels));
    }
    out.channels = static_cast<int>(channels);
    // Across nodes NCCL then shrinks the chunk for small operations
    // (enqueue.cc, "Tune chunk size for the network"): a quarter below one
    // chunk, half below eight.
    if (shape.nodes > 1) {
        if (bytes < chunk) out.chunk_bytes /= 4;
        else if (bytes < 8 * chunk) out.chunk_bytes /= 2;
    }
    return out;
}

namespace {

// One send/recv to one peer on the communicator's channels for `bytes`: over
// NVLink, and through the NIC too where `network` (the peer on another node).
NcclP2pCost send_recv_to_peer(std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                              const NcclParameters& params, bool network) {
    NcclP2pCost cost;
    if (shape.ranks <= 1) return cost;
    // The channel rule and the chunk are the communicator's (enqueue.cc takes
    // both from it, not from the peer).
    const NcclP2pChannels ch = nccl_p2p_channels(shape, rates.topology, params, bytes);
    cost.channels = ch.channels;
    const double nvlink_channel = params.hardware.nvlink_link_gbps;
    double bw = std::min(ch.channels * nvlink_channel, rates.nvlink_gbps);
    double channel_bw = nvlink_channel;
    cost.latency_ns = params.p2p_latency_us * kNsPerUs;
    if (network) {
        // The channels spread over the GPU's NICs (ncclTopoGetLocalNet picks
        // one per channel), each NIC its own while the rest of the node's
        // GPUs stay off the network (nccl-tests' send/recv: one pair per node
        // boundary).
        const double nics = std::min<double>(rates.topology.nics_per_gpu, ch.channels);
        bw = std::min(bw, nccl_p2p_network_rate(params, rates.nic_payload_gbps * nics, ch.channels, ch.chunk_bytes));
        channel_bw = std::min(channel_bw, params.p2p_network_channel_bandwidth);
        // One remote peer: its channels are the connections.
        cost.latency_ns += network_start_ns(params, ch.channels);
    }
    const double size = static_cast<double>(bytes);
    cost.fill_ns = std::min(size / ch.channels, ch.chunk_bytes) / channel_bw;
    cost.bandwidth_ns = size / bw;
    return cost;
}

}  // namespace

NcclP2pCost nccl_send_recv_cost(std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                                const NcclParameters& params) {
    return send_recv_to_peer(bytes, shape, rates, params, shape.nodes > 1);
}

NcclP2pCost nccl_send_recv_node_pair_cost(std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                                          const NcclParameters& params) {
    return send_recv_to_peer(bytes, shape, rates, params, false);
}

NcclP2pCost nccl_all_to_all_cost(std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                                 const NcclParameters& params) {
    NcclP2pCost cost;
    if (shape.ranks <= 1) return cost;
    const double size = static_cast<double>(bytes);
    const double n = static_cast<double>(shape.ranks);
    const double gpus = static_cast<double>(shape.gpus_per_node);
    double t = size * (gpus - 1) / n / (rates.raw_nvlink_gbps * params.alltoall_nvlink_efficiency);
    double channel_bw = params.hardware.nvlink_link_gbps;
    cost.latency_ns = params.p2p_latency_us * kNsPerUs;
    const std::uint64_t per_peer = bytes / static_cast<std::uint64_t>(shape.ranks);
    const NcclP2pChannels ch = nccl_p2p_channels(shape, rates.topology, params, per_peer);
    cost.channels = ch.channels;
    if (shape.nodes > 1) {
        // Rail-aligned (PXN): each NIC sends to the NIC of its rail on every
        // other node, so with three nodes or more it carries several flows.
        const double payload =
            rates.nic_payload_gbps * (shape.nodes > 2 ? params.network_alltoall_efficiency : 1.0);
        // Every remote peer has its own connections (ch.channels of them), each
        // with its own window of steps, whichever channel serves it.
        const double connections = static_cast<double>(shape.ranks - shape.gpus_per_node) * ch.channels;
        // Every GPU sends at once: a GPU has its NICs' payload rate, or its
        // share of a NIC it shares with others (the busiest NIC's).
        const double nics_share = static_cast<double>(rates.topology.nics_per_gpu) / rates.topology.gpus_per_nic;
        t = std::max(t, size * (n - gpus) / n /
                            nccl_p2p_network_rate(params, payload * nics_share, connections, ch.chunk_bytes));
        // The rank's own share (out of place) is copied by the channels of its
        // round, which serve the other peers too: the copy holds back those
        // channels' share of the network-bound rest (all of it with two ranks,
        // where the one peer uses the same channels; enqueue.cc,
        // scheduleP2pTasksToPlan). On one node the NVLink all-to-all rate,
        // fitted on one-node rows, already holds it.
        const double distinct = std::min(static_cast<double>(std::max(1, rates.topology.p2p_channels)),
                                         static_cast<double>(shape.ranks - 1) * ch.channels);
        const double self_copy_ns =
            static_cast<double>(per_peer) / (ch.channels * params.p2p_copy_bandwidth_per_channel);
        t += self_copy_ns * std::min(1.0, ch.channels / distinct);
        channel_bw = params.p2p_network_channel_bandwidth;
        cost.latency_ns += network_start_ns(params, connections);
    }
    cost.fill_ns = std::min(static_cast<double>(per_peer) / ch.channels, ch.chunk_bytes) / channel_bw;
    cost.bandwidth_ns = t;
    return cost;
}

}  // namespace dtcalc
