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

double nccl_network_channel_rate(const NcclParameters& params, double nic_payload_gbps, double message_bytes,
                                 NcclProtocol protocol) {
    // LL is chosen for messages whose cost NCCL's latency table already is;
    // its 8-byte flag lines are polled by the receiver, not sent step by step.
    if (protocol == NcclProtocol::LL) return nic_payload_gbps;
    const double step = params.step_bytes[static_cast<std::size_t>(protocol)];
    const double message = std::max(1.0, step > 0 ? std::min(message_bytes, step) : message_bytes);
    const double per_send_ns =
        params.network_latency_us[static_cast<std::size_t>(NcclAlgorithm::Ring)][static_cast<std::size_t>(protocol)] *
        1000.0;
    return message / (message / nic_payload_gbps + per_send_ns);
}

double nccl_nic_payload_gbps(const NcclParameters& params, double nic_gbps) {
    // The NICs of one GPU that NCCL uses share its PCIe link.
    const double nics_per_gpu = nccl_nics_per_gpu_in_use(params.hardware, nic_gbps);
    return std::min(nic_gbps * params.network_p2p_efficiency, params.hardware.pcie_payload_gbps() / nics_per_gpu);
}

double nccl_channels_over_nics(const NcclTopology& topology, const NcclParameters& params, double channels,
                               double channel_gbps) {
    if (topology.nics <= 0) return 0;
    const double payload = nccl_nic_payload_gbps(params, topology.nic_gbps) * topology.nic_share;
    return topology.nics * std::min(payload, channels / topology.nics * channel_gbps);
}

double nccl_network_rate(const NcclTopology& topology, const NcclParameters& params, double channels,
                         double message_bytes, NcclProtocol protocol) {
    const double payload = nccl_nic_payload_gbps(params, topology.nic_gbps);
    return nccl_channels_over_nics(topology, params, channels,
                                   nccl_network_channel_rate(params, payload, message_bytes, protocol));
}

double nccl_network_payload_rate(const NcclTopology& topology, const NcclParameters& params) {
    if (topology.nics <= 0) return 0;
    return topology.nics * nccl_nic_payload_gbps(params, topology.nic_gbps) * topology.nic_share;
}

NcclRates nccl_rates(const Network& network, const CommGroup& group, const NcclShape& shape,
                     const NcclParameters& params, bool on_every_gpu, const NcclChannelLimits& limits) {
    NcclRates rates;
    if (network.dimensions.empty()) throw InputError({"", 0, 0, "network"}, "the nccl backend needs a network");
    rates.raw_nvlink_gbps = network.dimensions[0].bandwidth_gbps;
    if (shape.nodes > 1) {
        double slowest = std::numeric_limits<double>::infinity();
        for (std::size_t d = 1; d < group.members.size() && d < network.dimensions.size(); ++d)
            if (group.members[d] > 1) slowest = std::min(slowest, network.dimensions[d].bandwidth_gbps);
        if (!(slowest > 0) || slowest == std::numeric_limits<double>::infinity())
            throw InputError({"", 0, 0, "network"}, "the nccl backend needs a bandwidth for the inter-node dimension");
        rates.nic_gbps = slowest;
        rates.nic_payload_gbps = nccl_nic_payload_gbps(params, slowest);
    }
    rates.topology = nccl_topology(params, shape.gpus_per_node, shape.nodes, rates.nic_gbps, limits);
    if (on_every_gpu && shape.nodes > 1) {
        rates.topology.nic_share = nccl_nic_share(params, rates.topology, shape.gpus_per_node, network.dimensions[0].npus);
        rates.nic_payload_gbps *= rates.topology.nic_share;
    }
    rates.nvlink_gbps = rates.topology.intra.channels * rates.topology.intra.bw_intra;
    const NcclTopology& t = rates.topology;
    rates.channel_nvlink_gbps = rates.nvlink_gbps / std::max(1, t.rule_channels);
    if (t.channels < t.rule_channels)
        rates.channel_nvlink_gbps = std::max(rates.channel_nvlink_gbps, params.hardware.nvlink_link_gbps);
    return rates;
}

double nccl_channels_nvlink_gbps(const NcclRates& rates, double channels) {
    return std::min(rates.nvlink_gbps, channels * rates.channel_nvlink_gbps);
}

}  // namespace dtcalc
