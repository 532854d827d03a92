#include "collective/nccl/nccl_bandwidth.h"

#include <algorithm>
#include <cmath>

#include "collective/nccl/nccl_nvls_pipeline.h"

namespace dtcalc {
namespace {

// NCCL's ring slicing for Simple (src/include/collectives.h, ALLREDUCE_,
// ALLGATHER_ and REDUCESCATTER_CHUNKSTEPS = NCCL_STEPS / 2, _SLICESTEPS =
// NCCL_STEPS / 4; src/enqueue.cc, calcCollChunking): a chunk is 4 steps, cut
// into 2 slices, and the network proxy posts one send per slice
// (src/transport/net.cc: each send advances sliceSteps). A slice is never
// below 1/32 of its full size (src/device/prims_simple.h), so a chunk of at
// most that much goes in one send.
constexpr double kRingChunkSteps = 4;
constexpr double kRingSlicesPerChunk = 2;
constexpr double kRingMinSliceFraction = 1.0 / 32.0;

// An LL128 line is 16 8-byte words, 15 of data and one flag
// (src/include/device.h: NCCL_LL128_LINEELEMS 16, NCCL_LL128_DATAELEMS 15),
// and the network proxy sends the lines as the GPU wrote them
// (src/transport/net.cc, sendProxyProgress), flags included: a NIC carries
// 120/128 of its payload as data. NCCL's tuning rates an LL128 tree across
// nodes the same (tree-ll128-bandwidth-factor); its ring figure, 0.92, steers
// the choice and bounds the NVLink side.
constexpr double kLl128LineDataFraction = 120.0 / 128.0;

// NCCL: tuning.cc, ncclTopoTuneModel: "if (a == NCCL_ALGO_TREE &&
// comm->maxTreePattern == NCCL_TOPO_PATTERN_TREE) busBw *= .85".
constexpr double kNcclTreePatternFactor = 0.85;

// One full Simple ring slice: 2 of NCCL's steps (1 MiB with 512 KiB steps).
double ring_slice_bytes(const NcclParameters& params) {
    return params.step_bytes[static_cast<std::size_t>(NcclProtocol::Simple)] * kRingChunkSteps / kRingSlicesPerChunk;
}

// A node's network for rings and trees (nccl_shape.h) when `channels` run:
// with one GPU per node NCCL's latency already charges every step its network
// latency (nccl_network_payload_rate), so no per-send cost there; a launch of
// fewer channels than NICs drives only as many NICs.
double node_network(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                    double message_bytes, NcclProtocol protocol, double channels) {
    if (shape.gpus_per_node == 1) return nccl_channels_over_nics(rates.topology, params, channels, rates.nic_payload_gbps);
    return nccl_network_rate(rates.topology, params, channels, message_bytes, protocol);
}

// How many times a GPU of a node's chain sends each byte of a tree all-reduce
// over NVLink: an inner GPU of the chain sends it up to its parent and down to
// its child; a chain of two GPUs has no inner GPU, so each end sends it once
// (the head down, the tail up), as a ring of two does.
double chain_nvlink_sends(const NcclShape& shape) { return shape.gpus_per_node >= 3 ? 2.0 : 1.0; }

// What a tree all-reduce streams over, per direction, before the tree's
// factor 2: NVLink enters as 2 x NVLink / chain_nvlink_sends. The NICs carry
// nccl_tree_network_load() times the data per direction, so the network
// enters as 2 x network / load: doubled on two nodes, where each tree is one
// edge (NCCL's maintainers: "with Tree, on 2 nodes ... 2x less traffic on the
// network than on the intra-node connections", NVIDIA/nccl#946), x 4/3 on
// three, as it is from four on. One GPU per node has no chain: the network
// alone bounds it. `nvlink_gbps`: the NVLink rate the launched threads drive.
// `network_factor`: what of the NICs' rate the tree streams at
// (nccl_tree_network_factor; 1 where NCCL's tuning rates the tree as a whole).
double tree_link(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                 double message_bytes, NcclProtocol protocol, double channels, double nvlink_gbps,
                 double network_factor) {
    const double chain = 2.0 * nvlink_gbps / chain_nvlink_sends(shape);
    if (shape.nodes <= 1) return chain;
    const double network =
        network_factor * node_network(shape, rates, params, message_bytes, protocol, channels);
    const double per_direction = 2.0 * network / nccl_tree_network_load(shape.nodes);
    return shape.gpus_per_node == 1 ? per_direction : std::min(chain, per_direction);
}

// The network side of a ring across nodes with `channels` launched.
double ring_network(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                    double message_bytes, NcclProtocol protocol, double channels) {
    if (shape.gpus_per_node == 1 || protocol != NcclProtocol::Simple)
        return node_network(shape, rates, params, message_bytes, protocol, channels);
    return nccl_channels_over_nics(rates.topology, params, channels,
                                   nccl_ring_network_channel_rate(params, message_bytes));
}

}  // namespace

double nccl_ring_network_sends(const NcclParameters& params, double rank_bytes) {
    const double slice = ring_slice_bytes(params);
    const double chunk = slice * kRingSlicesPerChunk;
    const double bytes = std::max(1.0, rank_bytes);
    const double full_chunks = std::floor(bytes / chunk);
    const double rest = bytes - full_chunks * chunk;
    const double last = rest <= 0 ? 0 : rest <= slice * kRingMinSliceFraction ? 1 : kRingSlicesPerChunk;
    return full_chunks * kRingSlicesPerChunk + last;
}

double nccl_ring_first_send_bytes(const NcclParameters& params, double rank_bytes) {
    const double slice = ring_slice_bytes(params);
    const double bytes = std::max(1.0, rank_bytes);
    if (bytes >= slice * kRingSlicesPerChunk) return slice;
    return std::min(bytes, std::max(bytes / kRingSlicesPerChunk, slice * kRingMinSliceFraction));
}

double nccl_ring_fill_bytes(const NcclShape& shape, const NcclParameters& params, NcclProtocol protocol,
                            double rank_bytes) {
    if (shape.nodes > 1 && protocol == NcclProtocol::Simple) return nccl_ring_first_send_bytes(params, rank_bytes);
    return std::min(rank_bytes, params.step_bytes[static_cast<std::size_t>(protocol)]);
}

double nccl_ring_hidden_ns(const NcclParameters& params, NcclProtocol protocol, double rank_bytes,
                           double channel_gbps) {
    if (protocol != NcclProtocol::Simple || !(channel_gbps > 0)) return 0;
    const double bytes = std::max(1.0, rank_bytes);
    return (bytes - nccl_ring_first_send_bytes(params, bytes)) / channel_gbps;
}

double nccl_ring_network_channel_rate(const NcclParameters& params, double rank_bytes) {
    const double bytes = std::max(1.0, rank_bytes);
    const double ns = bytes / params.ring_network_channel_bandwidth +
                      nccl_ring_network_sends(params, bytes) * params.ring_network_slice_overhead_us * 1000.0;
    return bytes / ns;
}

NcclRingRate nccl_ring_rate(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                            NcclProtocol protocol, double message_bytes, const NcclLaunch& launch) {
    // The launched lanes drive their share of the NVLink rate, and the
    // protocol's per-channel caps count the launched channels; its total caps
    // (LL's) stay whole. The protocol's factor and caps increase with the
    // link rate, so they apply to each side and the smaller side bounds the
    // ring: the launched lanes over NVLink, and the NICs the launched
    // channels reach.
    const double graph = rates.topology.ring.channels * launch.channel_share;
    double bus = nccl_ring_rate_on(nccl_channels_nvlink_gbps(rates, launch.channels) * launch.thread_share, graph,
                                   shape, params, protocol)
                     .bus_gbps;
    if (shape.nodes > 1) {
        const double network = ring_network(shape, rates, params, message_bytes, protocol, launch.channels);
        if (protocol == NcclProtocol::LL128) {
            // Through the NICs LL128 moves its lines' data share, at most the
            // protocol's per-channel cap (the NVLink side keeps NCCL's 0.92).
            bus = std::min({bus, network * kLl128LineDataFraction,
                            graph * params.ll128_max_bandwidth_per_channel[shape.node_bucket()]});
        } else {
            bus = std::min(bus, nccl_ring_rate_on(std::min(rates.nvlink_gbps, network), graph, shape, params, protocol)
                                    .bus_gbps);
        }
    }
    NcclRingRate out;
    out.bus_gbps = bus;
    return out;
}

NcclRingRate nccl_ring_rate_on(double link_gbps, double graph_channels, const NcclShape& shape,
                               const NcclParameters& params, NcclProtocol protocol) {
    NcclRingRate out;
    out.bus_gbps = link_gbps;
    switch (protocol) {
        case NcclProtocol::LL:
            out.bus_gbps = std::min(out.bus_gbps * params.ll_bandwidth_factor,
                                    params.ll_max_bus_bandwidth[static_cast<std::size_t>(shape.node_bucket())]);
            break;
        case NcclProtocol::LL128:
            out.bus_gbps = std::min(out.bus_gbps * params.ll128_bandwidth_factor,
                                    graph_channels * params.ll128_max_bandwidth_per_channel[shape.node_bucket()]);
            break;
        case NcclProtocol::Simple: break;
    }
    return out;
}

double nccl_tree_network_load(std::int64_t nodes) {
    if (nodes <= 1) return 0;
    if (nodes == 2) return 1.0;
    return nodes == 3 ? 1.5 : 2.0;
}

int nccl_tree_network_fan_in(std::int64_t nodes) {
    if (nodes <= 1) return 0;
    return nodes <= 3 ? 1 : 2;
}

double nccl_tree_pattern_factor(const NcclTopology& topology) {
    return topology.tree_nic_on_one_gpu ? kNcclTreePatternFactor : 1.0;
}

double nccl_tree_network_factor(const NcclShape& shape, const NcclTopology& topology,
                                const NcclParameters& params) {
    if (nccl_tree_network_fan_in(shape.nodes) < 2) return 1.0;
    return params.tree_bandwidth_factor * nccl_tree_pattern_factor(topology);
}

double nccl_tree_algbw(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                       NcclProtocol protocol, double message_bytes, const NcclLaunch& launch) {
    // A tree runs all of a channel's threads: the launched channels' share of
    // the NVLink rate, and the NICs those channels reach.
    // LL keeps NCCL's tuning whole (below), its 0.92 included.
    const double network_factor =
        protocol == NcclProtocol::LL ? 1.0 : nccl_tree_network_factor(shape, rates.topology, params);
    const double link = tree_link(shape, rates, params, message_bytes, protocol, launch.channels,
                                  nccl_channels_nvlink_gbps(rates, launch.channels), network_factor);
    // Simple and LL128 stream at their links' rate (LL128: 120 of every 128
    // bytes are data; the NICs from four nodes on at NCCL's rating of the
    // tree), each channel the kernels run at most at NCCL's per-channel
    // figure. NCCL's tuning (nccl_tree_algbw_on, the choice) takes 0.92 of the
    // link and the caps per graph channel, half the channels that run (each
    // runs once per tree): below what forced trees reach on two nodes.
    const std::size_t bucket = static_cast<std::size_t>(shape.node_bucket());
    const double running = launch.channels;
    switch (protocol) {
        case NcclProtocol::Simple:
            return std::min(link, running * params.tree_max_bandwidth_per_channel[bucket]) / 2.0;
        case NcclProtocol::LL128:
            return std::min(link * params.tree_ll128_bandwidth_factor[bucket],
                            running * params.tree_ll128_max_bandwidth_per_channel[bucket]) /
                   2.0;
        case NcclProtocol::LL: break;
    }
    // LL as NCCL's tuning, its per-channel caps on the launched channels.
    return nccl_tree_algbw_on(link, rates.topology.tree.channels * launch.channel_share, shape, params, protocol);
}

double nccl_tree_algbw_on(double link_gbps, double graph_channels, const NcclShape& shape,
                          const NcclParameters& params, NcclProtocol protocol) {
    const std::size_t bucket = static_cast<std::size_t>(shape.node_bucket());
    const double channels = graph_channels;
    double bus = std::min(link_gbps * params.tree_bandwidth_factor,
                          channels * params.tree_max_bandwidth_per_channel[bucket]);
    switch (protocol) {
        case NcclProtocol::LL:
            bus = std::min(bus * params.tree_ll_bandwidth_factor, params.ll_max_bus_bandwidth[bucket]);
            break;
        case NcclProtocol::LL128:
            bus = std::min(bus * params.tree_ll128_bandwidth_factor[bucket],
                           channels * params.tree_ll128_max_bandwidth_per_channel[bucket]);
            break;
        case NcclProtocol::Simple: break;
    }
    return bus / 2.0;
}

double nccl_nvls_algbw(CollectiveKind kind, const NcclShape& shape, const NcclRates& rates,
                       const NcclParameters& params) {
    const double n = static_cast<double>(shape.ranks);
    const double rate = params.nvls_efficiency * rates.nvlink_gbps;
    if (kind == CollectiveKind::AllReduce) return rate * n / (n + 1.0);
    return n > 1 ? rate * n / (n - 1.0) : rate;
}

NcclNvlsTreeRates nccl_nvls_tree_rates(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                                       double chunk_bytes) {
    NcclNvlsTreeRates out;
    const double gpus = static_cast<double>(shape.gpus_per_node);
    const int channels = rates.topology.nvls_channels > 0 ? rates.topology.nvls_channels : rates.topology.channels;
    // Every head runs every NVLS channel (src/device/all_reduce.h: each channel's
    // loop holds one chunk per head), so each NIC carries all the channels, each
    // sending one chunk at a time.
    const int heads = std::max(1, rates.topology.nvls.channels);
    // The node's NVLS stage streams at its rate for this chunk (nccl_nvls_pipeline.h).
    out.node_nvls = nccl_nvls_chunk_rate(params.nvls_efficiency * rates.nvlink_gbps * gpus / (gpus + 1.0), channels,
                                         chunk_bytes, params.nvls_chunk_overhead_us * 1e3);
    const double network =
        nccl_network_rate(rates.topology, params, channels * heads, chunk_bytes, NcclProtocol::Simple);
    // The first loop climbs the tree with the NICs to itself (nccl_tree_pipeline.h).
    out.up = std::min(out.node_nvls, network);
    // NCCL's double binary tree over the nodes: each NIC direction carries the
    // data nccl_tree_network_load() times (once on two nodes, twice from four on).
    out.steady = std::min(out.node_nvls, network / nccl_tree_network_load(shape.nodes));
    // NCCL's per-head figure (perChMaxNVLSTreeBws, bus bandwidth per NVLS head)
    // bounds the heads' kernels: heads x figure x n / (2 (n - 1)) of algorithm
    // bandwidth.
    const double n = static_cast<double>(shape.ranks);
    const double figure = params.nvls_tree_max_bandwidth_per_channel[static_cast<std::size_t>(shape.node_bucket())];
    out.stream = std::min(out.steady, heads * figure * n / (2.0 * (n - 1.0)));
    return out;
}

double nccl_pat_bus_gbps(const NcclRates& rates, const NcclParameters& params) {
    // PAT runs with one GPU per node only: its steps' network latency is in
    // nccl_pat_latency_ns, so the NIC streams at its payload rate.
    return nccl_network_payload_rate(rates.topology, params) * params.pat_bandwidth_factor;
}

int nccl_ring_steps(CollectiveKind kind, std::int64_t ranks) {
    const int n = static_cast<int>(ranks);
    return kind == CollectiveKind::AllReduce ? 2 * (n - 1) : n - 1;
}

int nccl_ring_network_steps(CollectiveKind kind, std::int64_t nodes) {
    if (nodes <= 1) return 0;
    const int nn = static_cast<int>(nodes);
    return kind == CollectiveKind::AllReduce ? 2 * (nn - 1) : nn - 1;
}

}  // namespace dtcalc
