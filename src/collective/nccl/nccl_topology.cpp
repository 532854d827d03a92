#include "collective/nccl/nccl_topology.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dtcalc {
namespace {

constexpr int kMaxSearchChannels = 32;  // MAXCHANNELS / 2
constexpr int kMaxChannels = 64;        // MAXCHANNELS
constexpr int kP2pPerBatch = 8;         // NCCL_MAX_DEV_WORK_P2P_PER_BATCH
constexpr double kEps = 1e-9;

int fit(double capacity, double speed) { return static_cast<int>(std::floor(capacity / speed + kEps)); }

int pow2_up(int x) {
    int p = 1;
    while (p < x) p *= 2;
    return p;
}

// ncclTopoCompute for a ring: pass 1, ncclTopoDupChannels, pass 2. `fits`
// gives the channels one speed allows (0: none).
template <class Fits>
NcclGraph search_ring(const std::vector<double>& speeds, double max_bw, double total_bw, int sm, Fits fits) {
    std::size_t i = 0;
    while (i + 1 < speeds.size() && (speeds[i] > max_bw + kEps || speeds[i] > total_bw + kEps)) ++i;
    int best_c = 0;
    double best_s = 0;
    for (;;) {
        const int c = std::min(kMaxSearchChannels, fits(speeds[i]));
        if (c > 0 && c * speeds[i] > best_c * best_s + kEps) {
            best_c = c;
            best_s = speeds[i];
        }
        if (best_c > 0 && (best_c * best_s >= total_bw - kEps || best_c == kMaxSearchChannels)) break;
        if (i + 1 < speeds.size() && (best_c == 0 || speeds[i + 1] / best_s > 0.49)) {
            ++i;
            continue;
        }
        break;
    }
    if (best_c == 0) return {1, 0.1, 0.1};  // NCCL's fallback: one channel in PCI order
    if (best_s >= 25.0 && !(sm > 80 && best_s < 50.0 && best_c > 4)) {
        const int dup = std::min(best_c * 2, kMaxSearchChannels);
        best_s /= static_cast<double>((dup + best_c - 1) / best_c);
        best_c = dup;
    }
    int pass2_c = best_c;
    double pass2_s = best_s;
    for (double s : speeds) {
        if (s <= best_s + kEps) break;
        const int c = std::min(kMaxSearchChannels, fits(s));
        if (c >= best_c && c * s > pass2_c * pass2_s + kEps) {
            pass2_c = c;
            pass2_s = s;
        }
    }
    return {pass2_c, pass2_s, pass2_s};
}

// ncclTopoCompute's pass 2 for a tree across nodes: from the ring's speed,
// raise the intra-node speed to the next step while it is below twice the
// inter-node speed and `fits` still gives the graph's channels at it.
template <class Fits>
NcclGraph raise_tree_intra_speed(const std::vector<double>& speeds, const NcclGraph& ring, Fits fits) {
    NcclGraph tree = ring;
    std::size_t i = 0;
    while (i + 1 < speeds.size() && speeds[i] > ring.bw_inter + kEps) ++i;
    while (i > 0 && tree.bw_intra < 2.0 * tree.bw_inter - kEps) {
        const double s = speeds[i - 1];
        if (fits(s) < tree.channels) break;
        tree.bw_intra = s;
        --i;
    }
    return tree;
}

// ncclTopoCompute for the tree of two GPUs in one node. The tree must have
// the ring's channels (init.cc: treeGraph min = max = the ring's nChannels),
// and a chain of two GPUs runs either way: the two ways use opposite
// directions of each GPU's path, so half the channels go each way. The search
// keeps the fastest step at which they fit (every solution has the same
// channels), and ncclTopoDupChannels has nothing to add at the maximum.
NcclGraph two_gpu_tree(const std::vector<double>& speeds, const NcclGraph& ring, double path) {
    const int each_way = (ring.channels + 1) / 2;
    for (double s : speeds)
        if (each_way * s <= path + kEps) return {ring.channels, s, s};
    return ring;
}

// ncclTopoCompute's pass 2 for NVLS: from the found speed, raise the
// inter-node speed one step at a time while it is below twice the intra-node
// one and the next step is at most `cap` (on one node nothing bounds it: the
// NVSwitch paths are checked at the intra-node speed).
double raise_nvls_inter_speed(const std::vector<double>& speeds, double intra, double cap) {
    std::size_t i = 0;
    while (i + 1 < speeds.size() && speeds[i] > intra + kEps) ++i;
    double inter = speeds[i];
    while (i > 0 && inter < 2.0 * intra - kEps && speeds[i - 1] <= cap + kEps) inter = speeds[--i];
    return inter;
}

// NICs in use on a node where `gpus` GPUs take part: the NICs under their
// PCIe switches, each GPU's as NCCL counts them (nccl_nics_per_gpu_in_use).
int nics_in_use(const NcclHardware& hw, std::int64_t gpus, double nic_gbps) {
    const std::int64_t gpus_per_nic = std::max(1, hw.gpus_per_nic);
    const std::int64_t wanted = (gpus + gpus_per_nic - 1) / gpus_per_nic * nccl_nics_per_gpu_in_use(hw, nic_gbps);
    return static_cast<int>(std::min<std::int64_t>(std::max(1, hw.nics_per_node), wanted));
}

}  // namespace

const std::vector<double>& nccl_speed_steps(int sm, bool inter) {
    static const std::vector<double> intra_default{40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0,
                                                   9.0,  7.0,  6.0,  5.0,  4.0,  3.0};
    static const std::vector<double> inter_default{48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0,
                                                   7.0,  6.0,  5.0,  4.0,  3.0,  2.4,  1.2,  0.24, 0.12};
    static const std::vector<double> intra_sm90{60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0};
    static const std::vector<double> inter_sm90{48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                                15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};
    static const std::vector<double> intra_sm100{90.0, 80.0, 70.0, 60.0, 50.0, 45.0,
                                                 40.0, 30.0, 24.0, 20.0, 19.0, 18.0};
    static const std::vector<double> inter_sm100{96.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0,
                                                 17.5, 15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};
    if (sm >= 100) return inter ? inter_sm100 : intra_sm100;
    if (sm >= 90) return inter ? inter_sm90 : intra_sm90;
    return inter ? inter_default : intra_default;
}

std::pair<int, int> nccl_cta_bounds(const NcclChannelLimits& limits) {
    const int most = limits.max_ctas > 0 ? std::min(limits.max_ctas, kMaxChannels) : kMaxChannels;
    const int least = limits.min_ctas > 0 ? std::min(limits.min_ctas, kMaxChannels) : 1;
    return {std::min(least, most), most};
}

int nccl_limited_channels(int rule, const NcclChannelLimits& limits) {
    const auto [min_ctas, max_ctas] = nccl_cta_bounds(limits);
    const int most = std::min(limits.max > 0 ? std::min(limits.max, kMaxChannels) : kMaxChannels, max_ctas);
    const int least = std::max(std::min(limits.min, kMaxChannels), min_ctas);
    return std::clamp(std::max(std::min(rule, most), least), 1, kMaxChannels);
}

int nccl_limited_nvls_channels(int rule, const NcclChannelLimits& limits) {
    const auto [min_ctas, max_ctas] = nccl_cta_bounds(limits);
    const int channels = limits.nvls > 0 ? std::min(limits.nvls, kMaxChannels) : rule;
    return std::max(min_ctas, std::min(max_ctas, channels));
}

NcclTopology nccl_topology(const NcclParameters& params, std::int64_t gpus_per_node, std::int64_t nodes,
                           double nic_gbps, const NcclChannelLimits& limits) {
    const NcclHardware& hw = params.hardware;
    const int g = static_cast<int>(std::max<std::int64_t>(1, gpus_per_node));
    const bool multi_node = nodes > 1;
    NcclTopology t;
    t.path_gbps = hw.nvlinks_per_gpu > 0 ? hw.nvlinks_per_gpu * hw.nvlink_link_gbps : hw.pcie_gbps();
    const double path = t.path_gbps;

    // The one-node ring graph (what NVLink moves, whatever the node count).
    t.intra = search_ring(nccl_speed_steps(hw.sm, false), path, path, hw.sm,
                          [&](double s) { return fit(path, s); });

    if (!multi_node) {
        t.ring = t.intra;
        t.tree = g == 2 ? two_gpu_tree(nccl_speed_steps(hw.sm, false), t.intra, path) : t.intra;
    } else {
        t.nics = nics_in_use(hw, g, nic_gbps);
        t.nics_per_gpu = std::min(nccl_nics_per_gpu_in_use(hw, nic_gbps), t.nics);
        t.gpus_per_nic = (g + t.nics - 1) / t.nics;
        t.nic_gbps = nic_gbps;
        const double gpu_to_nic = std::min(nic_gbps, hw.pcie_gbps());
        // The GPUs whose PCIe links the NICs in use hang off.
        const int gpus_with_nics = std::min(g, (t.nics + t.nics_per_gpu - 1) / t.nics_per_gpu);
        // A channel crosses G-1 NVLinks inside the node (it enters at one GPU
        // and leaves at another, or runs down a tree's chain), so each GPU's
        // NVLink carries (G-1)/G of the channels.
        const auto nvlink_channels = [&](double s) { return g > 1 ? fit(path * g / (g - 1), s) : kMaxSearchChannels; };
        t.ring = search_ring(nccl_speed_steps(hw.sm, true), gpu_to_nic, std::max(path, hw.pcie_gbps()), hw.sm,
                             [&](double s) {
                                 return std::min({t.nics * fit(gpu_to_nic, s), gpus_with_nics * fit(hw.pcie_gbps(), s),
                                                  nvlink_channels(s)});
                             });
        t.tree = raise_tree_intra_speed(nccl_speed_steps(hw.sm, true), t.ring, nvlink_channels);
        t.tree_nic_on_one_gpu = g == 1 || (hw.sm >= 90 && hw.gpus_per_nic <= 1);
    }
    // ncclTopoPostset: every search channel runs as two; sm90 doubles again
    // across nodes when the ring's per-channel speed is above 45 GB/s.
    t.channels = std::min(kMaxChannels, 2 * t.ring.channels);
    if (hw.sm >= 90 && multi_node && t.ring.bw_intra > 45.0 && t.channels < 16)
        t.channels = std::min(kMaxChannels, 2 * t.channels);
    t.rule_channels = t.channels;
    t.channels = nccl_limited_channels(t.rule_channels, limits);

    if (params.nvls && hw.nvswitch && hw.sm >= 90 && g >= 2) {
        const int heads = multi_node ? std::min(t.nics, g) : std::min(g, 32);
        const std::vector<double>& steps = nccl_speed_steps(hw.sm, multi_node);
        const double cap = multi_node ? std::min(nic_gbps, hw.pcie_gbps()) : path;
        double intra = 0;
        for (double s : steps)
            if (s <= cap + kEps && (g + 1) * s <= path + kEps) {
                intra = s;
                break;
            }
        if (intra > 0) {
            const double inter =
                raise_nvls_inter_speed(steps, intra, multi_node ? cap : std::numeric_limits<double>::infinity());
            t.nvls = {heads, intra, inter};
            t.nvls_channels = nccl_limited_nvls_channels(
                multi_node ? params.nvls_channels_across_nodes : params.nvls_channels, limits);
        }
    }

    // Point-to-point channels.
    int p2p = std::min(t.channels, limits.max_p2p > 0 ? limits.max_p2p : kMaxChannels);
    p2p = std::max({1, p2p, limits.min_p2p});
    t.p2p_channels = std::min(kMaxChannels, pow2_up(p2p));
    int per_peer = kMaxChannels;
    if (g > 1)
        per_peer = hw.nvlinks_per_gpu > 0 && hw.nvlink_link_gbps > 0
                       ? 2 * std::max(1, static_cast<int>(path / hw.nvlink_link_gbps + kEps))
                       : 2;
    if (multi_node) {
        // At least one channel per NIC the GPU uses, more to reach their rate.
        const int counted = t.nics_per_gpu;
        const double counted_gbps = counted * std::min(nic_gbps, hw.pcie_gbps());
        const double per_channel = params.p2p_per_channel_net_bandwidth;
        const int net =
            limits.per_net_peer > 0
                ? limits.per_net_peer
                : std::max(counted, static_cast<int>(std::ceil(static_cast<int>(counted_gbps) / per_channel - kEps)));
        per_peer = std::min(per_peer, std::max(1, net));
    }
    per_peer = pow2_up(per_peer);
    const std::int64_t ranks = static_cast<std::int64_t>(g) * std::max<std::int64_t>(1, nodes);
    if (multi_node && limits.per_net_peer == 0) {
        const std::int64_t rounds = (ranks + kP2pPerBatch - 1) / kP2pPerBatch;
        while (per_peer * rounds > t.p2p_channels && per_peer > 1) per_peer /= 2;
    } else {
        per_peer = std::min(per_peer, t.p2p_channels);
    }
    t.p2p_channels_per_peer = per_peer;
    return t;
}

int nccl_nics_per_gpu_in_use(const NcclHardware& hw, double nic_gbps) {
    if (hw.gpus_per_nic > 1) return 1;
    const double path = std::min(nic_gbps, hw.pcie_gbps());
    int counted = 1;
    while (counted < hw.nics_per_gpu && counted * path < hw.pcie_gbps() - kEps) ++counted;
    return counted;
}

double nccl_nic_share(const NcclParameters& params, const NcclTopology& topology, std::int64_t gpus_per_node,
                      std::int64_t node_gpus) {
    if (topology.nics <= 0) return 1;
    const std::int64_t active = std::max<std::int64_t>({1, gpus_per_node, node_gpus});
    const std::int64_t nics = nics_in_use(params.hardware, active, topology.nic_gbps);
    const std::int64_t all_per_nic = (active + nics - 1) / nics;
    return std::min(1.0, static_cast<double>(topology.gpus_per_nic) / static_cast<double>(all_per_nic));
}

}  // namespace dtcalc
