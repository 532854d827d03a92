#include "collective/nccl/nccl_latency.h"

#include <algorithm>

#include "collective/nccl/nccl_bandwidth.h"

namespace dtcalc {
namespace {

constexpr double kNsPerUs = 1000.0;

std::size_t idx(NcclAlgorithm a) { return static_cast<std::size_t>(a); }
std::size_t idx(NcclProtocol p) { return static_cast<std::size_t>(p); }

}  // namespace

int nccl_floor_log2(std::int64_t x) {
    int out = 0;
    while (x > 1) {
        x >>= 1;
        ++out;
    }
    return out;
}

double nccl_ring_latency_ns(CollectiveKind kind, const NcclShape& shape, const NcclParameters& params,
                            NcclProtocol protocol) {
    return nccl_ring_run_latency_ns(kind, shape, params, protocol, 0.0);
}

double nccl_ring_run_latency_ns(CollectiveKind kind, const NcclShape& shape, const NcclParameters& params,
                                NcclProtocol protocol, double hidden_ns) {
    const std::size_t a = idx(NcclAlgorithm::Ring);
    const std::size_t p = idx(protocol);
    const int steps = nccl_ring_steps(kind, shape.ranks);
    const int net_steps = nccl_ring_network_steps(kind, shape.nodes);
    double intra = params.nvlink_latency_us[a][p];
    double inter = params.network_latency_us[a][p];
    if (shape.nodes > 1) {
        const double proxy = params.hardware.net_overhead_us() * (protocol == NcclProtocol::Simple ? 3.0 : 1.0);
        intra = std::max(intra, proxy);
        if (shape.gpus_per_node == 1) inter = params.network_latency_us[idx(NcclAlgorithm::Tree)][p];
    }
    const double exposed_inter = std::max(0.0, inter - std::max(0.0, hidden_ns) / kNsPerUs);
    const double us = params.base_latency_us[a][p] + (steps - net_steps) * intra + net_steps * exposed_inter;
    return us * kNsPerUs;
}

double nccl_tree_latency_ns(const NcclShape& shape, const NcclParameters& params, NcclProtocol protocol) {
    const std::size_t a = idx(NcclAlgorithm::Tree);
    const std::size_t p = idx(protocol);
    const double us = params.base_latency_us[a][p] +
                      2.0 * (static_cast<double>(shape.gpus_per_node - 1) * params.nvlink_latency_us[a][p] +
                             nccl_floor_log2(shape.nodes) * params.network_latency_us[a][p]);
    return us * kNsPerUs;
}

double nccl_nvls_latency_ns(const NcclShape& shape, const NcclParameters& params) {
    const std::size_t a = idx(NcclAlgorithm::Nvls);
    const std::size_t p = idx(NcclProtocol::Simple);
    double us = params.nvlink_latency_us[a][p];
    if (shape.nodes > 1) us += params.network_latency_us[a][p];
    return us * kNsPerUs;
}

double nccl_nvls_tree_latency_ns(const NcclShape& shape, const NcclParameters& params) {
    const std::size_t a = idx(NcclAlgorithm::NvlsTree);
    const std::size_t p = idx(NcclProtocol::Simple);
    const double us = params.base_latency_us[a][p] + params.nvlink_latency_us[a][p] +
                      2.0 * nccl_floor_log2(shape.nodes) * params.network_latency_us[a][p];
    return us * kNsPerUs;
}

double nccl_pat_latency_ns(const NcclShape& shape, const NcclParameters& params) {
    const std::size_t a = idx(NcclAlgorithm::Pat);
    const std::size_t p = idx(NcclProtocol::Simple);
    const double us = params.base_latency_us[a][p] +
                      nccl_floor_log2(shape.nodes) * params.network_latency_us[a][p] /
                          params.pat_network_latency_divisor +
                      static_cast<double>(shape.ranks) * params.pat_per_rank_latency_us;
    return us * kNsPerUs;
}

}  // namespace dtcalc
