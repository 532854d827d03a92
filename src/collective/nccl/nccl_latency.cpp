#include "collective/nccl/nccl_latency.h"

#include <algorithm>

#include "collective/nccl/nccl_bandwidth.h"
#include "collective/nccl/nccl_tree_pipeline.h"

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

namespace {

// A tree's latency with `hops` network edges each way (NCCL's estimate
// floor(log2 N), or the depth of the tree it builds).
double tree_latency_us(const NcclShape& shape, const NcclParameters& params, NcclProtocol protocol, int hops) {
    const std::size_t a = idx(NcclAlgorithm::Tree);
    const std::size_t p = idx(protocol);
    return params.base_latency_us[a][p] +
           2.0 * (static_cast<double>(shape.gpus_per_node - 1) * params.nvlink_latency_us[a][p] +
                  hops * params.network_latency_us[a][p]);
}

double nvls_tree_latency_us(const NcclParameters& params, int hops) {
    const std::size_t a = idx(NcclAlgorithm::NvlsTree);
    const std::size_t p = idx(NcclProtocol::Simple);
    return params.base_latency_us[a][p] + params.nvlink_latency_us[a][p] + 2.0 * hops * params.network_latency_us[a][p];
}

// NCCL's ring latency terms (src/graph/tuning.cc, ncclTopoTuneModel): the
// per-step figure of the NVLink steps and of the network steps.
struct RingStepLatencies {
    double intra_us = 0;
    double inter_us = 0;
};

RingStepLatencies ring_step_latencies(const NcclShape& shape, const NcclParameters& params, NcclProtocol protocol) {
    const std::size_t a = idx(NcclAlgorithm::Ring);
    const std::size_t p = idx(protocol);
    RingStepLatencies out{params.nvlink_latency_us[a][p], params.network_latency_us[a][p]};
    if (shape.nodes > 1) {
        const double proxy = params.hardware.net_overhead_us() * (protocol == NcclProtocol::Simple ? 3.0 : 1.0);
        out.intra_us = std::max(out.intra_us, proxy);
        if (shape.gpus_per_node == 1) out.inter_us = params.network_latency_us[idx(NcclAlgorithm::Tree)][p];
    }
    return out;
}

double ring_latency_us(CollectiveKind kind, const NcclShape& shape, const NcclParameters& params,
                       NcclProtocol protocol, double intra_us, double inter_us) {
    const int steps = nccl_ring_steps(kind, shape.ranks);
    const int net_steps = nccl_ring_network_steps(kind, shape.nodes);
    return params.base_latency_us[idx(NcclAlgorithm::Ring)][idx(protocol)] + (steps - net_steps) * intra_us +
           net_steps * inter_us;
}

// An LL128 ring across nodes of several GPUs, as it runs, takes the network's
// per-step latency on every step (nccl_latency.h).
bool ll128_steps_at_network_pace(const NcclShape& shape, NcclProtocol protocol) {
    return protocol == NcclProtocol::LL128 && shape.nodes > 1 && shape.gpus_per_node > 1;
}

}  // namespace

double nccl_ring_latency_ns(CollectiveKind kind, const NcclShape& shape, const NcclParameters& params,
                            NcclProtocol protocol) {
    const RingStepLatencies lat = ring_step_latencies(shape, params, protocol);
    return ring_latency_us(kind, shape, params, protocol, lat.intra_us, lat.inter_us) * kNsPerUs;
}

double nccl_ring_run_latency_ns(CollectiveKind kind, const NcclShape& shape, const NcclParameters& params,
                                NcclProtocol protocol, double hidden_ns) {
    const RingStepLatencies lat = ring_step_latencies(shape, params, protocol);
    double intra = lat.intra_us;
    double inter = std::max(0.0, lat.inter_us - std::max(0.0, hidden_ns) / kNsPerUs);
    if (ll128_steps_at_network_pace(shape, protocol)) {
        intra = std::max(intra, params.network_latency_us[idx(NcclAlgorithm::Ring)][idx(protocol)]);
        inter = 0.0;  // charged by the NIC rate's per-send cost (nccl_network_channel_rate)
    }
    return ring_latency_us(kind, shape, params, protocol, intra, inter) * kNsPerUs;
}

double nccl_tree_latency_ns(const NcclShape& shape, const NcclParameters& params, NcclProtocol protocol) {
    return tree_latency_us(shape, params, protocol, nccl_floor_log2(shape.nodes)) * kNsPerUs;
}

double nccl_tree_run_latency_ns(const NcclShape& shape, const NcclParameters& params, NcclProtocol protocol) {
    return tree_latency_us(shape, params, protocol, nccl_btree_depth(shape.nodes)) * kNsPerUs;
}

double nccl_nvls_latency_ns(const NcclShape& shape, const NcclParameters& params) {
    const std::size_t a = idx(NcclAlgorithm::Nvls);
    const std::size_t p = idx(NcclProtocol::Simple);
    double us = params.nvlink_latency_us[a][p];
    if (shape.nodes > 1) us += params.network_latency_us[a][p];
    return us * kNsPerUs;
}

double nccl_nvls_tree_latency_ns(const NcclShape& shape, const NcclParameters& params) {
    return nvls_tree_latency_us(params, nccl_floor_log2(shape.nodes)) * kNsPerUs;
}

double nccl_nvls_tree_run_latency_ns(const NcclShape& shape, const NcclParameters& params) {
    return nvls_tree_latency_us(params, nccl_btree_depth(shape.nodes)) * kNsPerUs;
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
