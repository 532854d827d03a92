#pragma once
// What NCCL builds for a communicator of G GPUs per node on N nodes, derived
// from the preset's hardware facts (NcclHardware) by NCCL 2.29's own rules:
//
// NICs in use: NCCL's search takes the NICs local to the communicator's GPUs
//   (PIX paths; rings and trees do not cross to a NIC whose GPUs are not in
//   the communicator), so nics = min(NICs per node, ceil(G / GPUs per NIC) x
//   NICs per GPU in use), the last as NCCL counts them (nccl_nics_per_gpu_in_use).
//
// Graph search (src/graph/search.cc, ncclTopoCompute), per channel speed s
// taken from NCCL's steps (sm90SpeedArrayIntra/Inter for Hopper, the default
// arrays for Ampere and older, sm100 for Blackwell):
//   one node:    channels(s) = floor(P / s)            P = NVLink path (links x per-link figure)
//   many nodes:  channels(s) = min(nics x floor(min(NIC, PCIe) / s), floor(P G / ((G-1) s)) when G > 1,
//                                  GPUs with NICs x floor(PCIe / s))
//                (a channel enters through one NIC, crosses G-1 NVLinks and
//                leaves through another NIC: each GPU carries (G-1)/G of the
//                channels; the NICs of one GPU share its PCIe link, the last
//                bound, which binds only with several NICs per GPU)
//   pass 1: start at the first step <= the GPU's path bandwidth, keep the best
//           channels x s, stop at P or when the next step is < 0.49 x the best s;
//   ncclTopoDupChannels: double the channels (halving s) unless s < 25, or
//           s < 50 with more than 4 channels on sm > 80;
//   pass 2: raise s while as many channels still fit.
// Channels the kernels run (ncclTopoPostset, connect.cc): 2 x the search's;
//   on sm90 across nodes, 2 x again when the ring's s > 45 and fewer than 16
//   ("4 compute channels per search channel to reach peak BW on <8 PPN");
//   last, NCCL_MAX_NCHANNELS cuts them to at most its value and
//   NCCL_MIN_NCHANNELS copies them up to at least its value, within 1..64
//   (ncclMaxNchannels, ncclMinNchannels), NCCL_MAX_CTAS / NCCL_MIN_CTAS
//   the same (NcclChannelLimits). The search and so NCCL's tuning do not see
//   them; the point-to-point channels follow.
// Trees (NCCL_TOPO_PATTERN_TREE / BALANCED_TREE: NET -> GPU a -> ... -> GPU x,
//   and GPU a back to the same NET) load the NICs and NVLinks as the ring
//   does, so pass 1 and ncclTopoDupChannels find the ring's channels and
//   speed; across nodes pass 2 then raises only the tree's intra-node speed,
//   one step at a time while it is below twice the inter-node speed and the
//   channels still fit the NVLinks ("increase bwIntra for trees (2 nodes or
//   collnet)"): NCCL rates a 2-node tree by that speed (tuning.cc). One
//   exception: on one node of two GPUs the chain runs either way, the two
//   ways on opposite directions of each path, so the ring's channels fit at
//   the fastest step s with ceil(channels / 2) x s <= P (1 x 2 H100: 12 x 60
//   where the ring has 12 x 30; NCCL 2.29.2 prints tree all-reduce Simple
//   at 232.2 GB/s = 12 x 38.7 / 2, validation/nccl/SOURCE.md).
// Tree pattern across nodes (search.cc): NCCL searches a balanced tree first
//   (a NIC's traffic split between the chain's first two GPUs, both reaching
//   it through its PCIe switch), and falls back to the TREE pattern (all of it
//   on one GPU) with one GPU per node ("if (ngpus == 1) ... pattern =
//   NCCL_TOPO_PATTERN_TREE") and, from sm90 on ("Try a simpler tree"), where
//   no second GPU shares the NIC's switch (one GPU per NIC, as on DGX/HGX
//   H100): the balanced search then finds nothing and the simpler one keeps
//   its graph. NCCL 2.30.4 prints 2 x 8 H200's tree all-reduce at 0.85 x the
//   balanced figure (140.8 against 165.6 GB/s Simple).
// NVLS (NVSwitch with multicast, sm90+, G >= 2): one head per GPU on one node
//   and one per NIC in use across nodes (a head is a GPU: at most G); each GPU carries its heads' traffic
//   plus one more, so s = the largest step with (G + 1) s <= P. Pass 2 then
//   raises the inter-node speed a step at a time while it is below 2 s, up
//   to min(NIC, PCIe) across nodes and to the top step on one node (the
//   NVSwitch paths are checked at s only): 1 x 6 H100 gets 50 / 60 GB/s.
//   Its kernels run the generation's NVLS channel count (the preset's
//   nvls-channels), or NCCL_NVLS_NCHANNELS, within the CTA bounds.
// Point-to-point (paths.cc ncclTopoComputeP2pChannels): p2p channels =
//   pow2Up(max(min(channels, NCCL_MAX_P2P_NCHANNELS), NCCL_MIN_P2P_NCHANNELS));
//   per peer = pow2Up(min over peers): NVLink peers
//   2 x (P / per-link figure), network peers max(m, ceil(m x min(NIC, PCIe) /
//   P2P_PER_CHANNEL_NET_BW)), m = the GPU's NICs in use (1 on DGX/HGX), or
//   NCCL_NCHANNELS_PER_NET_PEER where set; across nodes halved while per-peer
//   x ceil(ranks / 8) > p2p channels, unless that variable is set: then, as on
//   one node, at most the p2p channels.
#include <cstdint>
#include <utility>
#include <vector>

#include "collective/nccl/nccl_parameters.h"

namespace dtcalc {

/// The channel settings NCCL reads from the environment (0: unset, NCCL's
/// default), each stored as NCCL leaves it after its own checks:
///   min, max        NCCL_MIN_NCHANNELS / NCCL_MAX_NCHANNELS, or their legacy
///                   names NCCL_MIN_NRINGS / NCCL_MAX_NRINGS, which the new
///                   ones override (src/graph/connect.cc, ncclMinNchannels /
///                   ncclMaxNchannels): max 1 to 64, min 0 to 64;
///   min_ctas, max_ctas  NCCL_MIN_CTAS / NCCL_MAX_CTAS, the communicator's
///                   config.minCTAs / maxCTAs (src/init.cc, envConfigOverride:
///                   a value <= 0 is ignored; parseCommConfig: at most 64,
///                   defaults 1 and 64, and a minimum above the maximum
///                   becomes the maximum: nccl_cta_bounds);
///   nvls            NCCL_NVLS_NCHANNELS, config.nvlsCTAs (<= 0 ignored);
///   min_p2p, max_p2p NCCL_MIN_P2P_NCHANNELS / NCCL_MAX_P2P_NCHANNELS
///                   (src/graph/paths.cc, defaults 1 and 64);
///   per_net_peer    NCCL_NCHANNELS_PER_NET_PEER, config.nChannelsPerNetPeer
///                   (<= 0 ignored).
struct NcclChannelLimits {
    int min = 0;           ///< copy the ring/tree channels up to at least this many (at most 64)
    int max = 0;           ///< cut the ring/tree channels to at most this many (1 to 64)
    int min_ctas = 0;      ///< NCCL_MIN_CTAS (1 to 64; 0: NCCL's 1)
    int max_ctas = 0;      ///< NCCL_MAX_CTAS (1 to 64; 0: NCCL's 64)
    int nvls = 0;          ///< NCCL_NVLS_NCHANNELS (1 to 64; 0: NCCL's per-generation count)
    int min_p2p = 0;       ///< NCCL_MIN_P2P_NCHANNELS (0 to 64; 0 or 1: NCCL's 1)
    int max_p2p = 0;       ///< NCCL_MAX_P2P_NCHANNELS (1 to 64; 0: NCCL's 64)
    int per_net_peer = 0;  ///< NCCL_NCHANNELS_PER_NET_PEER (1 to 64; 0: NCCL's rule)
    bool operator==(const NcclChannelLimits&) const = default;
};

/// The communicator's CTA bounds (config.minCTAs, config.maxCTAs) after
/// parseCommConfig: {1, 64} unset; the minimum at most the maximum.
std::pair<int, int> nccl_cta_bounds(const NcclChannelLimits& limits);

/// The ring/tree channels the kernels run from the `rule` count NCCL's
/// postset gives (connect.cc, the end of ncclTopoPostset): cut to
/// min(max, maxCTAs), then copied up to max(min, minCTAs), within [1, 64].
int nccl_limited_channels(int rule, const NcclChannelLimits& limits);

/// The NVLS channels (src/transport/nvls.cc, ncclNvlsInit): NCCL_NVLS_NCHANNELS
/// or the generation's `rule` count, then within [minCTAs, maxCTAs].
int nccl_limited_nvls_channels(int rule, const NcclChannelLimits& limits);

struct NcclGraph {
    int channels = 0;     ///< channels the search found (graph->nChannels)
    double bw_intra = 0;  ///< GB/s per channel inside the node
    double bw_inter = 0;  ///< GB/s per channel through a NIC
};

struct NcclTopology {
    int nics = 0;                   ///< NICs in use per node (0 on one node)
    int gpus_per_nic = 1;           ///< GPUs on the busiest NIC in use: ceil(G / nics) (1 on DGX/HGX)
    int nics_per_gpu = 1;           ///< NICs each GPU sends through (1 on DGX/HGX)
    /// The share of each NIC's payload this communicator gets: 1 alone;
    /// less where copies of it on the node's other GPUs share its NICs
    /// (nccl_nic_share).
    double nic_share = 1;
    double nic_gbps = 0;            ///< one NIC's line rate per direction
    double path_gbps = 0;           ///< a GPU's NVLink path (or PCIe without NVLink)
    NcclGraph intra;                ///< one-node ring graph: the NVLink data rate
    NcclGraph ring;                 ///< this communicator's ring graph
    NcclGraph tree;                 ///< its tree graph: the ring's, intra-node speed raised across nodes
    /// Across nodes: NCCL's tree graph has the TREE pattern (all NIC traffic
    /// to and from one GPU) rather than the balanced one, which NCCL's tuning
    /// rates 0.85 lower (nccl_tree_pattern_factor, nccl_bandwidth.h).
    bool tree_nic_on_one_gpu = false;
    int channels = 0;               ///< ring/tree channels the kernels run (after postset and the limits)
    /// The channels NCCL's rules give without NCCL_MIN/MAX_NCHANNELS: the
    /// graph's rates are shared among these, so each channel the kernels run
    /// carries 1 / rule_channels of the NVLink rate (fewer run: less rate;
    /// more: no more than the links carry).
    int rule_channels = 0;
    NcclGraph nvls;                 ///< NVLS graph: channels = heads; 0 without NVLS
    int nvls_channels = 0;          ///< NVLS channels the kernels run
    int p2p_channels = 0;           ///< comm->p2pnChannels
    int p2p_channels_per_peer = 0;  ///< comm->p2pnChannelsPerPeer
};

/// NCCL's speed steps for a compute capability (x10), inter-node or not.
const std::vector<double>& nccl_speed_steps(int sm, bool inter);

/// The NICs under one GPU's switch that NCCL uses (paths.cc,
/// getLocalNetCountByBw): its NICs in turn, each at min(NIC, PCIe), until they
/// carry the GPU's PCIe rate; at most NcclHardware::nics_per_gpu (two 200 Gb/s
/// NICs on PCIe Gen5: 2; two 400 Gb/s: 1, the first already carries 48 GB/s).
int nccl_nics_per_gpu_in_use(const NcclHardware& hw, double nic_gbps);

/// The share of its NICs a communicator of `topology` (G GPUs per node) gets
/// when every one of the node's `node_gpus` GPUs runs a copy of it at once:
/// its GPUs per NIC over the GPUs per NIC of all of them (each NIC carries
/// every copy on its GPUs), at most 1. 1 with a NIC per GPU; 1/2 for a group of
/// one GPU per node with 8 GPUs on 4 NICs; 1/8 with one NIC for 8 GPUs.
double nccl_nic_share(const NcclParameters& params, const NcclTopology& topology, std::int64_t gpus_per_node,
                      std::int64_t node_gpus);

/// `nic_gbps`: the NIC line rate (the [network] outer dimension); ignored on one node.
NcclTopology nccl_topology(const NcclParameters& params, std::int64_t gpus_per_node, std::int64_t nodes,
                           double nic_gbps, const NcclChannelLimits& limits = {});

}  // namespace dtcalc
