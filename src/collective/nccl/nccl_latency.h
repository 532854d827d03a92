#pragma once
// Latency of NCCL's collective algorithms (the size-independent part), in ns,
// from the preset's per-step figures (given in microseconds, as NCCL states
// them). With n ranks, N nodes, G = n/N GPUs per node, p the protocol:
//
//   ring:  base[ring][p] + (steps - netSteps) x intra + netSteps x inter
//          steps = 2(n-1) all-reduce, n-1 otherwise; netSteps = 2(N-1) or N-1
//          intra = nvlink[ring][p], at least NCCL's net overhead (1 us on
//                  Intel hosts, 2 on AMD; x3 for Simple) when the ring spans nodes (every step is then progressed by
//                  the host proxy)
//          inter = network[ring][p], or network[tree][p] with one GPU per node
//   ring as it runs: the same, but every network step charges only
//          max(0, inter - hidden), hidden = the time the step's data after its
//          first network send takes at the ring's per-channel rate (Simple:
//          the host proxy posts each slice as the GPU hands it over, and the
//          GPU goes on copying the next, so the wait for a send overlaps the
//          later slices; a step of one send, or LL/LL128, hides nothing).
//          NVLink steps stay whole: the warps that copy also wait for the
//          peer's flags and fence their own, one after the other.
//          LL128 across nodes of G > 1 GPUs: every step takes network[ring][LL128]
//          (4.0 us; NCCL's tuning floors the NVLink steps of an inter-node ring
//          at its net overhead, 1 us on Intel hosts): the NVLink steps here, the
//          network steps through the per-send cost the NIC rate already charges
//          them (nccl_network_channel_rate), so not again. Not NCCL's rule but
//          what the 10-node LL128 rows with 2, 4 and 8 GPUs per node take
//          (validation/nccl/SOURCE.md, "an LL128 ring across nodes steps at the
//          network's pace"); one GPU per node keeps NCCL's figures (every step
//          is a network step, and the NIC rate has no per-send cost there).
//  tree:  base[tree][p] + 2 x ((G-1) x nvlink[tree][p] + floor(log2 N) x network[tree][p])
//  nvls:  nvlink[nvls][Simple]
//  nvls-tree: base + nvlink[nvls-tree] + 2 floor(log2 N) x network[nvls-tree]
//  tree and nvls-tree as they run: the same with the depth of the tree NCCL
//         builds (nccl_btree_depth: ceil(log2 N), 4 on 10 nodes) in place of
//         floor(log2 N): a message climbs and comes down every edge of the
//         deepest path, and each edge is one network step. NCCL's estimate
//         undercounts by one edge each way where N is not a power of two
//         (3, 5-7, 9-15 nodes, ...); its choice keeps the estimate.
//  pat:   base[pat] + floor(log2 N) x network[pat] / pat-network-latency-divisor
//         + n x pat-per-rank-latency
#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_shape.h"
#include "core/collective_kind.h"

namespace dtcalc {

/// NCCL's ring latency, as its tuning model charges it (the choice).
double nccl_ring_latency_ns(CollectiveKind kind, const NcclShape& shape, const NcclParameters& params,
                            NcclProtocol protocol);
/// The ring's latency as it runs: each network step exposes only what of its
/// latency `hidden_ns` (the rest of the step after its first network send,
/// nccl_ring_hidden_ns) does not hide, and an LL128 ring across nodes of
/// several GPUs takes the network's per-step latency on every step (above);
/// otherwise 0 gives nccl_ring_latency_ns.
double nccl_ring_run_latency_ns(CollectiveKind kind, const NcclShape& shape, const NcclParameters& params,
                                NcclProtocol protocol, double hidden_ns);
/// NCCL's tree latency, as its tuning model charges it (the choice).
double nccl_tree_latency_ns(const NcclShape& shape, const NcclParameters& params, NcclProtocol protocol);
/// The tree's latency as it runs: 2 x depth network steps (above).
double nccl_tree_run_latency_ns(const NcclShape& shape, const NcclParameters& params, NcclProtocol protocol);
double nccl_nvls_latency_ns(const NcclShape& shape, const NcclParameters& params);
/// NCCL's NVLS-tree latency, as its tuning model charges it (the choice).
double nccl_nvls_tree_latency_ns(const NcclShape& shape, const NcclParameters& params);
/// The NVLS-tree's latency as it runs: 2 x depth network steps (above).
double nccl_nvls_tree_run_latency_ns(const NcclShape& shape, const NcclParameters& params);
double nccl_pat_latency_ns(const NcclShape& shape, const NcclParameters& params);

/// floor(log2(x)) for x >= 1, 0 otherwise.
int nccl_floor_log2(std::int64_t x);

}  // namespace dtcalc
