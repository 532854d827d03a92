#pragma once
// Bandwidths of NCCL's collective algorithms, per protocol, in GB/s (= bytes/ns).
//
// Rates and channels come from nccl_shape.h / nccl_topology.h ("graph
// channels": the channels NCCL's search found, which NCCL's per-channel caps
// multiply; the kernels run twice as many).
//
// Ring ("bus" bandwidth: the per-GPU rate of the ring's links; a collective
// moves bus_factor x size over it, bus_factor = 2(n-1)/n all-reduce,
// (n-1)/n all-gather and reduce-scatter):
//   one node:   bus = NVLink rate
//   many nodes: bus = min(NVLink, node network)
//   node network, Simple, G > 1 GPUs per node: each NIC carries channels/NICs
//     ring channels, each moving m bytes per ring step (its share of a
//     rank's block) in NCCL's slices (two per chunk of four 512 KiB steps,
//     one network send each):
//       channel rate = m / (m / ring-network-channel-bandwidth
//                           + sends(m) x ring-network-slice-overhead-us)
//       node network = NICs x min(NIC payload, channels/NICs x channel rate)
//     (both constants calibrated on the 10 x 8 rings, the one shape whose
//     NICs carry two channels and are not full; presets/nics/ndr400.toml)
//   node network, LL / LL128: nccl_network_rate (one send per step)
//   Simple: bus;  LL128: min(bus x ll128-factor, graph channels x ll128-max-per-channel)
//   LL:     min(bus x ll-factor, ll-max-bus-bandwidth[node bucket])
//
// Tree (all-reduce; "algorithm" bandwidth: size / time). An inner GPU of a
// node's chain sends each byte twice over NVLink (up, then down); a chain of
// two GPUs has no inner GPU and each end sends it once; a node's NICs carry,
// per direction, S/2 for each edge it has in each of NCCL's two trees
// (nccl_tree_network_load: S on two nodes, 1.5 S on three, 2 S from four on).
// So, as a rate per direction before the trees' factor 2, with chain = NVLink
// rate (3 or more GPUs per node) or 2 x NVLink rate (2 GPUs per node),
//   link = chain (one node); min(chain, 2 x node network x fan-in factor /
//          load) across nodes; the node network alone with one GPU per node
//          (fan-in factor, nccl_tree_network_factor: NCCL's rating of its
//          tree, 0.92, x 0.85 with the TREE pattern, where a node reduces two
//          children's streams through its NICs, from four nodes on; 1 below)
//   as it runs: Simple bus = min(link, channels x tree-max-per-channel[bucket]);
//     LL128 bus = min(link x tree-ll128-factor[bucket], channels x
//     tree-ll128-max-per-channel[bucket]), with the channels the kernels run
//     (twice the graph's: each runs once per tree); LL as NCCL's tuning.
//   NCCL's tuning (the choice, nccl_selection.h): bus = min(link x
//     tree-factor, graph channels x tree-max-per-channel[bucket]); LL:
//     min(bus x tree-ll-factor, ll-max[bucket]); LL128: min(bus x
//     tree-ll128-factor[bucket], graph channels x tree-ll128-max-per-channel).
//     Forced trees on two nodes run faster than that: 2 x 1 H100 over NDR
//     reaches ~50 GB/s where it says 41.4 (validation/nccl/SOURCE.md)
//   algbw = bus / 2 (each of the two trees carries half, up and down)
//
// NVLS all-reduce on one node (algorithm bandwidth): every GPU sends its whole
// buffer into the switch and reads 1/n of the reduced result back, then
// multicasts its 1/n: S(1 + 1/n) per direction per GPU, so
//   algbw = nvls-efficiency x NVLink rate x n/(n+1)
// NVLS all-gather / reduce-scatter: a GPU's own share stays local and it takes
// the other n-1 in (all-gather; reduce-scatter the reverse), S (n-1)/n in the
// busier direction: algbw = nvls-efficiency x NVLink x n/(n-1) (an 8 x H100
// all-gather prints 300 GB/s of bus bandwidth, this 306: NVIDIA/nccl#1506).
// These are the rates at NCCL's default 128 KiB chunk; smaller chunks stream
// slower by each chunk's cost (nccl_nvls_pipeline.h, applied in nccl_cost.cpp).
// NVLS-tree (all-reduce across nodes): min(NVLS all-reduce on the node's G
// GPUs at the NVLS-tree chunk, heads' NICs / 2); every head runs every NVLS channel, so each NIC
// carries all of them, each sending NCCL's NVLS-tree chunk at a time
// (nccl_tree_pipeline.h; network rate of channels x heads over the NICs); on
// the NICs carry it load times per direction (nccl_tree_network_load). Its
// stream is also bounded by NCCL's per-head figure (nccl_nvls_tree_rates).
// PAT (one GPU per node): bus = NIC payload x pat-bandwidth-factor.
// A small ring or tree runs on fewer channels and threads (nccl_launch.h): its
// NVLink side moves the launched lanes' share of the rate, its network side
// the rate of the launched channels, each sending its larger share per step.
// With one GPU per node, ring and tree use the NIC payload as the node network
// (no per-send cost: NCCL's latency already charges every step the network
// latency; nccl_shape.h).
#include "collective/nccl/nccl_launch.h"
#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_shape.h"
#include "core/collective_kind.h"

namespace dtcalc {

struct NcclRingRate {
    double bus_gbps = 0;
};

/// `message_bytes`: what one launched channel sends per step
/// (nccl_network_rate); `launch`: the channels and threads NCCL launches for
/// the size (nccl_launch.h): the NVLink side takes its share of the lanes, the
/// NICs the launched channels.
NcclRingRate nccl_ring_rate(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                            NcclProtocol protocol, double message_bytes, const NcclLaunch& launch);
/// The same with the Simple bus rate and the graph channels given instead of derived.
NcclRingRate nccl_ring_rate_on(double link_gbps, double graph_channels, const NcclShape& shape,
                               const NcclParameters& params, NcclProtocol protocol);
/// Network sends per ring channel per ring step for `rank_bytes` (Simple):
/// 2 per full 2 MiB chunk, and 1 or 2 for the rest (NCCL's slicing).
double nccl_ring_network_sends(const NcclParameters& params, double rank_bytes);
/// Bytes of a Simple ring step's first network send for `rank_bytes` per
/// channel: a 1 MiB slice of a full 2 MiB chunk, else half the step (at least
/// 1/32 of a slice), or the whole step when it goes in one send.
double nccl_ring_first_send_bytes(const NcclParameters& params, double rank_bytes);
/// Bytes one ring channel moves before the next rank can pass anything on
/// (the ring's fill, nccl_cost.h): across nodes with Simple, the first network
/// send, which the receiver sees only whole; otherwise one pipeline step,
/// min(rank_bytes, step-bytes[protocol]).
double nccl_ring_fill_bytes(const NcclShape& shape, const NcclParameters& params, NcclProtocol protocol,
                            double rank_bytes);
/// What of a ring step's network latency its later slices hide, in ns: the
/// step's bytes after its first send at `channel_gbps` (one channel's share of
/// the ring's rate); 0 for LL and LL128, whose steps are single sends
/// (nccl_latency.h, the ring as it runs).
double nccl_ring_hidden_ns(const NcclParameters& params, NcclProtocol protocol, double rank_bytes,
                           double channel_gbps);
/// One ring channel's Simple rate through a NIC, moving `rank_bytes` per ring step.
double nccl_ring_network_channel_rate(const NcclParameters& params, double rank_bytes);

/// What a node's NICs carry per direction in NCCL's double binary tree over
/// `nodes` nodes (src/graph/trees.cc, ncclGetDtree), in units of the data:
/// each tree carries half of it, S/2 across each of its edges each way, and
/// the busiest node has 2 edges in all on two nodes (1), 3 on three (1.5) and
/// 4 from four nodes on (2: inside one tree, a leaf in the other); 0 on one node.
double nccl_tree_network_load(std::int64_t nodes);

/// The most children across the network that a node of one of NCCL's trees
/// over `nodes` nodes reduces from (ncclGetBtree): 0 on one node, 1 on two and
/// three (each tree a single edge or a chain, 0 - 2 - 1), 2 from four nodes on
/// (node 2 of four has children 1 and 3).
int nccl_tree_network_fan_in(std::int64_t nodes);

/// NCCL's rating of a tree whose graph has the TREE pattern, all of a node's
/// NIC traffic to and from one GPU (tree_nic_on_one_gpu), against the balanced
/// one (src/graph/tuning.cc, ncclTopoTuneModel: `busBw *= .85`): 0.85, else 1.
double nccl_tree_pattern_factor(const NcclTopology& topology);

/// What of its NICs' rate a tree across nodes streams at as it runs: where a
/// node reduces two children's streams arriving through its NICs (fan-in 2,
/// from four nodes on), NCCL's own rating of its tree against the links
/// (ncclTopoTuneModel: `busBw * .92` for a tree all-reduce, tree-bandwidth-
/// factor, times nccl_tree_pattern_factor); with one child per node (two and
/// three nodes) the links' whole rate. Forced trees
/// show it: 2 x 1 H100 and 2 x 8 H800 stream at their links, three GB200
/// nodes within 3 % of theirs, while 5 x 8 H100 over RoCE moves 0.79 of its
/// ring (NVIDIA/nccl#1368) and 8 nodes of DGX-1 0.85 (NVIDIA/nccl#319);
/// validation/nccl/SOURCE.md, "Five nodes, ring and tree".
double nccl_tree_network_factor(const NcclShape& shape, const NcclTopology& topology,
                                const NcclParameters& params);

/// Tree all-reduce algorithm bandwidth as it runs, before NCCL's size
/// correction, on the channels NCCL launches for the size (nccl_launch.h).
double nccl_tree_algbw(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                       NcclProtocol protocol, double message_bytes, const NcclLaunch& launch);
/// The same with the link rate and the graph channels given instead of derived.
double nccl_tree_algbw_on(double link_gbps, double graph_channels, const NcclShape& shape,
                          const NcclParameters& params, NcclProtocol protocol);

double nccl_nvls_algbw(CollectiveKind kind, const NcclShape& shape, const NcclRates& rates,
                       const NcclParameters& params);

/// The rates of an NVLS-tree all-reduce (algorithm bandwidths, GB/s), for
/// NVLS-tree chunks of `chunk_bytes` (nccl_nvls_tree_chunk_bytes), each
/// channel sending one chunk at a time through a NIC.
struct NcclNvlsTreeRates {
    double node_nvls = 0;  ///< NVLS all-reduce inside a node of G GPUs, at this chunk
    double up = 0;         ///< the first loop's climb: min(node NVLS, the NICs)
    double steady = 0;     ///< min(node NVLS, the NICs / tree load): the fill's way down
    double stream = 0;     ///< what the data streams at: steady, at most NCCL's per-head figure
};
NcclNvlsTreeRates nccl_nvls_tree_rates(const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                                       double chunk_bytes);

double nccl_pat_bus_gbps(const NcclRates& rates, const NcclParameters& params);

/// Ring steps: 2(n-1) for all-reduce, n-1 for all-gather and reduce-scatter.
int nccl_ring_steps(CollectiveKind kind, std::int64_t ranks);
/// Steps that cross nodes: 2(N-1) all-reduce, N-1 otherwise; 0 on one node.
int nccl_ring_network_steps(CollectiveKind kind, std::int64_t nodes);

}  // namespace dtcalc
