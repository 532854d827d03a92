#include "collective/nccl/nccl_cost.h"

#include <algorithm>

#include "collective/bus_bandwidth.h"
#include "collective/nccl/nccl_bandwidth.h"
#include "collective/nccl/nccl_launch.h"
#include "collective/nccl/nccl_nvls_pipeline.h"
#include "collective/nccl/nccl_latency.h"
#include "collective/nccl/nccl_tree_pipeline.h"

namespace dtcalc {

NcclCollectiveCost nccl_collective_cost(CollectiveKind kind, std::uint64_t bytes, NcclChoice choice,
                                        const NcclShape& shape, const NcclRates& rates, const NcclParameters& params) {
    NcclCollectiveCost cost;
    if (shape.ranks <= 1) return cost;
    const double size = static_cast<double>(bytes);
    const double n = static_cast<double>(shape.ranks);
    const double factor = bus_bandwidth_factor(kind, shape.ranks);
    switch (choice.algorithm) {
        case NcclAlgorithm::Ring: {
            const NcclLaunch launch =
                nccl_launch(choice.algorithm, choice.protocol, size, shape.ranks, rates.topology.channels,
                            rates.topology.rule_channels);
            const double per_channel = size / (n * launch.channels);
            const NcclRingRate ring = nccl_ring_rate(shape, rates, params, choice.protocol, per_channel, launch);
            cost.channels = rates.topology.channels;
            cost.steps = nccl_ring_steps(kind, shape.ranks);
            cost.bytes_per_step = per_channel;
            const double channel_gbps = ring.bus_gbps / launch.channels;
            cost.latency_ns =
                nccl_ring_run_latency_ns(kind, shape, params, choice.protocol,
                                         nccl_ring_hidden_ns(params, choice.protocol, per_channel, channel_gbps));
            cost.fill_ns = nccl_ring_fill_bytes(shape, params, choice.protocol, per_channel) / channel_gbps;
            cost.bandwidth_ns = size * factor / ring.bus_gbps;
            break;
        }
        case NcclAlgorithm::Tree: {
            const NcclLaunch launch =
                nccl_launch(choice.algorithm, choice.protocol, size, shape.ranks, rates.topology.channels,
                            rates.topology.rule_channels);
            cost.channels = rates.topology.channels;
            cost.steps = 2 * (static_cast<int>(shape.gpus_per_node) - 1 + nccl_btree_depth(shape.nodes));
            cost.bytes_per_step = size / launch.channels;
            cost.latency_ns = nccl_tree_run_latency_ns(shape, params, choice.protocol);
            cost.bandwidth_ns =
                size / nccl_tree_algbw(shape, rates, params, choice.protocol, cost.bytes_per_step, launch);
            break;
        }
        case NcclAlgorithm::Nvls: {
            const double algbw = nccl_nvls_algbw(kind, shape, rates, params);
            const double channels = std::max(1, rates.topology.nvls_channels);
            cost.channels = static_cast<int>(channels);
            cost.steps = kind == CollectiveKind::AllReduce ? 2 : 1;
            cost.bytes_per_step = size / channels;
            cost.latency_ns = nccl_nvls_latency_ns(shape, params);
            // NCCL's chunk for this size sets the rate, and the first loop
            // fills the pipeline's two stages (nccl_nvls_pipeline.h).
            const int heads = std::max(1, rates.topology.nvls.channels);
            const double chunk = nccl_nvls_chunk_bytes(cost.bytes_per_step, heads);
            const double rate =
                nccl_nvls_chunk_rate(algbw, static_cast<int>(channels), chunk, params.nvls_chunk_overhead_us * 1e3);
            cost.fill_ns = std::min(size, channels * heads * chunk) / rate;
            cost.bandwidth_ns = size / rate;
            break;
        }
        case NcclAlgorithm::NvlsTree: {
            cost.channels = std::max(1, rates.topology.nvls_channels);
            cost.steps = 2 + 2 * nccl_btree_depth(shape.nodes);
            cost.bytes_per_step = size / cost.channels;
            cost.latency_ns = nccl_nvls_tree_run_latency_ns(shape, params);
            const int heads = std::max(1, rates.topology.nvls.channels);
            const double chunk = nccl_nvls_tree_chunk_bytes(cost.bytes_per_step, heads, shape.nodes);
            const NcclNvlsTreeRates nvls_tree = nccl_nvls_tree_rates(shape, rates, params, chunk);
            // Inside each node the first loop fills the NVLS pipeline as on
            // one node, at the node's NVLS rate for this chunk
            // (nccl_nvls_pipeline.h); the tree's first loop climbs at the up
            // rate and comes down at the steady one, and the loops after it
            // stream (nccl_tree_pipeline.h).
            const double loop = nccl_nvls_tree_loop_bytes(size, shape.nodes, cost.channels, heads);
            cost.fill_ns = loop / nvls_tree.node_nvls +
                           nccl_nvls_tree_network_fill_ns(size, shape.nodes, cost.channels, heads, nvls_tree.up,
                                                          nvls_tree.steady);
            cost.bandwidth_ns = (size - loop) / nvls_tree.stream;
            break;
        }
        case NcclAlgorithm::Pat: {
            cost.channels = rates.topology.channels;
            cost.steps = nccl_floor_log2(shape.nodes);
            cost.bytes_per_step = size / n;
            cost.latency_ns = nccl_pat_latency_ns(shape, params);
            cost.bandwidth_ns = size * factor / nccl_pat_bus_gbps(rates, params);
            break;
        }
        case NcclAlgorithm::P2p: break;
    }
    return cost;
}

}  // namespace dtcalc
