#include "collective/nccl/nccl_bandwidth.h"

#include <algorithm>

namespace dtcalc {
namespace {

double inter_node_link(const NcclShape& shape, const NcclRates& rates) {
    return shape.nodes > 1 ? std::min(rates.nvlink_gbps, rates.node_network_gbps) : rates.nvlink_gbps;
}

}  // namespace

NcclRingRate nccl_ring_rate(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                            NcclProtocol protocol) {
    return nccl_ring_rate_on(inter_node_link(shape, rates), shape, params, protocol);
}

NcclRingRate nccl_ring_rate_on(double link_gbps, const NcclShape& shape, const NcclParameters& params,
                               NcclProtocol protocol) {
    NcclRingRate out;
    out.bus_gbps = link_gbps;
    out.channels = shape.nodes > 1 ? params.ring_channels_multi_node : params.ring_channels;
    switch (protocol) {
        case NcclProtocol::LL:
            out.bus_gbps = std::min(out.bus_gbps * params.ll_bandwidth_factor,
                                    params.ll_max_bus_bandwidth[static_cast<std::size_t>(shape.node_bucket())]);
            break;
        case NcclProtocol::LL128:
            out.bus_gbps = std::min(out.bus_gbps * params.ll128_bandwidth_factor,
                                    out.channels * params.ll128_max_bandwidth_per_channel);
            break;
        case NcclProtocol::Simple: break;
    }
    return out;
}

int nccl_tree_channels(const NcclShape& shape, const NcclParameters& params) {
    return shape.nodes > 1 ? params.tree_channels_multi_node : params.ring_channels;
}

double nccl_tree_algbw(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                       NcclProtocol protocol) {
    return nccl_tree_algbw_on(inter_node_link(shape, rates), shape, params, protocol);
}

double nccl_tree_algbw_on(double link_gbps, const NcclShape& shape, const NcclParameters& params,
                          NcclProtocol protocol) {
    const std::size_t bucket = static_cast<std::size_t>(shape.node_bucket());
    const double channels = nccl_tree_channels(shape, params);
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

double nccl_nvls_tree_algbw(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params) {
    const double gpus = static_cast<double>(shape.gpus_per_node);
    const double nvls = params.nvls_efficiency * rates.nvlink_gbps * gpus / (gpus + 1.0);
    return std::min(nvls, rates.node_network_gbps / 2.0);
}

double nccl_pat_bus_gbps(const NcclRates& rates, const NcclParameters& params) {
    return rates.node_network_gbps * params.pat_bandwidth_factor;
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
