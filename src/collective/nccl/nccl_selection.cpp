#include "collective/nccl/nccl_selection.h"

#include <algorithm>
#include <string>

#include "collective/nccl/nccl_bandwidth.h"
#include "collective/nccl/nccl_latency.h"
#include "core/error.h"

namespace dtcalc {
namespace {

bool is_group_collective(CollectiveKind kind) {
    return kind == CollectiveKind::AllReduce || kind == CollectiveKind::AllGather ||
           kind == CollectiveKind::ReduceScatter;
}

// NCCL enables LL128 by default only where the graph's GPU-to-GPU path inside
// a node is NVLink or closer (tuning.cc, ncclTopoTuneModel: typeIntra <=
// PATH_NVB): not between GPUs that meet over PCIe. One GPU per node has no
// such path (PATH_LOC). NCCL_PROTO=LL128 turns it on regardless.
bool ll128_by_default(const NcclParameters& params, const NcclShape& shape) {
    return params.ll128 && (shape.gpus_per_node <= 1 || params.hardware.nvlinks_per_gpu > 0);
}

// Why NCCL does not run `algorithm` with `protocol` for this collective on
// this communicator, in a few words; empty when it does (NCCL_ALGO /
// NCCL_PROTO aside). One rule per algorithm (tuning.cc, ncclTopoTuneModel,
// and the algorithms' kernels).
std::string unavailable_reason(CollectiveKind kind, const NcclShape& shape, const NcclRates& rates,
                               NcclAlgorithm algorithm, NcclProtocol protocol, const NcclReduction& reduction) {
    const bool simple = protocol == NcclProtocol::Simple;
    const bool all_reduce = kind == CollectiveKind::AllReduce;
    const bool nvls_graph = rates.topology.nvls.channels >= 2;
    // NVLS reduces in the switch only what NVSwitch can (nccl_reduction.h);
    // an all-gather reduces nothing.
    const auto switch_reduction = [&]() -> std::string {
        if (kind == CollectiveKind::AllGather || nccl_nvls_reduces(reduction)) return "";
        return "NVLink SHARP does not reduce " + std::string(nccl_redop_name(reduction.op)) + " of " +
               std::string(nccl_datatype_name(reduction.type)) +
               " (ncclNvlsSupported: sum of float or double; sum, min or max of 32- and 64-bit integers, half or "
               "bfloat16)";
    };
    switch (algorithm) {
        case NcclAlgorithm::Ring:
            return "";
        case NcclAlgorithm::Tree:
            return all_reduce ? "" : "runs all-reduce only";
        case NcclAlgorithm::Nvls:
            if (!simple) return "runs Simple only";
            if (shape.nodes > 1) return "runs on one node (across nodes NCCL needs CollNet; nvls-tree is its multi-node form)";
            if (!nvls_graph) return "needs NVLink SHARP (NVSwitch multicast, sm90 or later) and 2 GPUs or more";
            return switch_reduction();
        case NcclAlgorithm::NvlsTree:
            if (!simple) return "runs Simple only";
            if (!all_reduce) return "runs all-reduce only";
            if (shape.nodes <= 1) return "runs across nodes (nvls on one node)";
            if (!nvls_graph) return "needs NVLink SHARP (NVSwitch multicast, sm90 or later) and 2 GPUs or more per node";
            return switch_reduction();
        case NcclAlgorithm::Pat:
            if (!simple) return "runs Simple only";
            if (all_reduce) return "runs all-gather and reduce-scatter only";
            if (shape.gpus_per_node != 1 || shape.nodes <= 1) return "runs with one GPU per node on several nodes";
            return "";
        case NcclAlgorithm::P2p:
            return "runs all-to-all and send/recv";
    }
    return "";
}

bool enabled(CollectiveKind kind, const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
             const NcclForce& force, const NcclReduction& reduction, NcclAlgorithm algorithm, NcclProtocol protocol) {
    if (!is_group_collective(kind) || shape.ranks <= 1) return false;
    if (!force.algorithm_enabled(kind, algorithm) ||
        !force.protocol_enabled(kind, protocol, ll128_by_default(params, shape)))
        return false;
    return unavailable_reason(kind, shape, rates, algorithm, protocol, reduction).empty();
}

// Why each algorithm `force` leaves on does not run, in algorithm order
// ("tree: runs all-reduce only; pat: ..."): the reason with the algorithm's
// most permissive protocol left on (Simple, when it is), so that a structural
// reason is not hidden behind "runs Simple only".
std::string unavailable_reasons(CollectiveKind kind, const NcclShape& shape, const NcclRates& rates,
                                const NcclParameters& params, const NcclForce& force, const NcclReduction& reduction) {
    std::string out;
    for (int a = 0; a < kNcclTunedAlgorithms; ++a) {
        const auto algorithm = static_cast<NcclAlgorithm>(a);
        if (!force.algorithm_enabled(kind, algorithm)) continue;
        std::string why;
        bool runs = false;
        for (int p = kNcclProtocols - 1; p >= 0; --p) {  // Simple first
            const auto protocol = static_cast<NcclProtocol>(p);
            if (!force.protocol_enabled(kind, protocol, ll128_by_default(params, shape))) continue;
            const std::string reason = unavailable_reason(kind, shape, rates, algorithm, protocol, reduction);
            if (reason.empty()) runs = true;
            if (why.empty()) why = reason;
        }
        if (runs || why.empty()) continue;
        out += (out.empty() ? "" : "; ") + std::string(nccl_algorithm_name(algorithm)) + ": " + why;
    }
    return out;
}

// NCCL's treeCorrectionFactor (tuning.cc, ncclTopoGetAlgoTime) for a size of
// 64 B x 2^i, applied for i < `sizes`: a tree all-reduce takes the first 23
// of its 24 entries, an NVLS-tree all-reduce all 24, on Blackwell (sm100) and
// later x86 hosts only.
double tree_correction(const NcclParameters& params, NcclProtocol protocol, std::uint64_t bytes, int sizes) {
    if (bytes < 64) return 1.0;
    const int log_size = nccl_floor_log2(static_cast<std::int64_t>(bytes >> 6));
    if (log_size >= sizes) return 1.0;
    return params.tree_correction[static_cast<std::size_t>(protocol)][static_cast<std::size_t>(log_size)];
}

}  // namespace

bool nccl_discards(CollectiveKind kind, std::uint64_t bytes) { return bytes == 0 && is_group_collective(kind); }

NcclTuning nccl_tuning(CollectiveKind kind, const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                       NcclAlgorithm algorithm, NcclProtocol protocol, const NcclForce& force,
                       const NcclReduction& reduction) {
    NcclTuning out;
    if (!enabled(kind, shape, rates, params, force, reduction, algorithm, protocol)) return out;
    const NcclTopology& topo = rates.topology;
    // NCCL rates rings and trees by their graph's intra-node speed up to two
    // nodes and by its inter-node speed beyond, times the graph's channels.
    const NcclGraph& graph = algorithm == NcclAlgorithm::Tree ? topo.tree : topo.ring;
    const double per_channel = shape.nodes <= 2 ? graph.bw_intra : graph.bw_inter;
    const double link = graph.channels * per_channel;
    const double n = static_cast<double>(shape.ranks);
    const double steps = nccl_ring_steps(kind, shape.ranks);
    double latency = 0;
    double bandwidth = 0;
    switch (algorithm) {
        case NcclAlgorithm::Ring: {
            const NcclRingRate ring = nccl_ring_rate_on(link, topo.ring.channels, shape, params, protocol);
            latency = nccl_ring_latency_ns(kind, shape, params, protocol);
            bandwidth = ring.bus_gbps * n / steps;
            break;
        }
        case NcclAlgorithm::Tree:
            latency = nccl_tree_latency_ns(shape, params, protocol);
            bandwidth = nccl_tree_algbw_on(link, topo.tree.channels, shape, params, protocol);
            bandwidth *= nccl_tree_pattern_factor(topo);
            break;
        case NcclAlgorithm::Nvls: {
            const double channels = topo.nvls.channels;
            const double gpus = static_cast<double>(shape.gpus_per_node);
            double per_channel_bw = topo.nvls.bw_intra * params.nvls_efficiency * (channels - 1) / channels;
            per_channel_bw *= kind == CollectiveKind::AllReduce ? 2.0 : (gpus - 1) / gpus;
            bandwidth = channels * std::min(per_channel_bw, topo.nvls.bw_inter);
            if (kind == CollectiveKind::AllReduce) bandwidth *= n / steps;
            latency = nccl_nvls_latency_ns(shape, params);
            break;
        }
        case NcclAlgorithm::NvlsTree: {
            const double channels = topo.nvls.channels;
            const double intra = topo.nvls.bw_intra * params.nvls_efficiency * (channels - 1) / channels * 2.0;
            const double inter = topo.nvls.bw_inter * (shape.nodes <= 2 ? 2.0 : 1.0);
            const double cap =
                params.nvls_tree_max_bandwidth_per_channel[static_cast<std::size_t>(shape.node_bucket())];
            bandwidth = channels * std::min({intra, inter, cap}) * n / steps;
            latency = nccl_nvls_tree_latency_ns(shape, params);
            break;
        }
        case NcclAlgorithm::Pat:
            bandwidth = link * params.pat_bandwidth_factor;
            latency = nccl_pat_latency_ns(shape, params);
            break;
        case NcclAlgorithm::P2p:
            return out;
    }
    if (!(bandwidth > 0)) return out;
    out.latency_ns = latency;
    out.bandwidth_gbps = bandwidth;
    return out;
}

double nccl_tuning_time_ns(CollectiveKind kind, std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                           const NcclParameters& params, NcclAlgorithm algorithm, NcclProtocol protocol,
                           const NcclForce& force, const NcclReduction& reduction) {
    const NcclTuning t = nccl_tuning(kind, shape, rates, params, algorithm, protocol, force, reduction);
    if (!t.on()) return -1.0;
    const double size = static_cast<double>(bytes);
    double latency = t.latency_ns;
    double bandwidth = t.bandwidth_gbps;
    // ncclTopoGetAlgoTime's refinements by size.
    if (algorithm == NcclAlgorithm::Ring && protocol == NcclProtocol::Simple && shape.nodes > 1 &&
        kind == CollectiveKind::AllReduce &&
        size / (rates.topology.channels * static_cast<double>(shape.ranks)) >= 64)
        latency *= params.ring_plateau_factor;
    if (algorithm == NcclAlgorithm::Tree)
        bandwidth *= tree_correction(params, protocol, bytes, kNcclTreeCorrectionSizes - 1);
    if (algorithm == NcclAlgorithm::NvlsTree && params.hardware.sm >= 100 &&
        params.hardware.cpu != NcclCpuVendor::Arm && kind == CollectiveKind::AllReduce)
        bandwidth *= tree_correction(params, protocol, bytes, kNcclTreeCorrectionSizes);
    return latency + size / bandwidth;
}

NcclChoice nccl_select(CollectiveKind kind, std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                       const NcclParameters& params, const NcclForce& force, const NcclReduction& reduction) {
    if (!is_group_collective(kind)) return {NcclAlgorithm::P2p, NcclProtocol::Simple};
    NcclChoice best;
    double best_time = -1;
    for (int a = 0; a < kNcclTunedAlgorithms; ++a) {
        for (int p = 0; p < kNcclProtocols; ++p) {
            const auto algorithm = static_cast<NcclAlgorithm>(a);
            const auto protocol = static_cast<NcclProtocol>(p);
            const double t =
                nccl_tuning_time_ns(kind, bytes, shape, rates, params, algorithm, protocol, force, reduction);
            if (t >= 0 && (best_time < 0 || t < best_time)) {
                best_time = t;
                best = {algorithm, protocol};
            }
        }
    }
    if (best_time < 0) {
        std::string available;
        for (int a = 0; a < kNcclTunedAlgorithms; ++a) {
            for (int p = 0; p < kNcclProtocols; ++p) {
                const auto algorithm = static_cast<NcclAlgorithm>(a);
                const auto protocol = static_cast<NcclProtocol>(p);
                if (nccl_tuning_time_ns(kind, bytes, shape, rates, params, algorithm, protocol, {}, reduction) < 0)
                    continue;
                if (!available.empty()) available += ", ";
                available += nccl_choice_name(algorithm, protocol);
            }
        }
        const std::string left = nccl_force_summary(force, kind, ll128_by_default(params, shape));
        const std::string reasons = unavailable_reasons(kind, shape, rates, params, force, reduction);
        throw InputError({"", 0, 0, "nccl"},
                         "NCCL_ALGO / NCCL_PROTO leave " + left + " for " +
                             std::string(collective_kind_name(kind)) + " on " + std::to_string(shape.ranks) +
                             " GPUs in " + std::to_string(shape.nodes) + (shape.nodes == 1 ? " node" : " nodes") +
                             ", and none of them runs there (available: " +
                             (available.empty() ? "none" : available) + ")" +
                             (reasons.empty() ? "" : ": " + reasons));
    }
    return best;
}

}  // namespace dtcalc
