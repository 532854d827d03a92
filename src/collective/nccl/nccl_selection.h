#pragma once
// Which algorithm and protocol NCCL runs a collective with, decided the way
// NCCL decides it: its own cost model (latency + size / bandwidth for every
// enabled pair, the smallest wins), which is not the same as the time dtcalc
// then predicts for that pair (nccl_cost.h). Keeping the two apart reproduces
// NCCL's choices, including the ones its model gets wrong.
//
// NCCL's view of each pair (sizes in bytes, times in ns), from the graphs of
// nccl_topology.h as NCCL's tuning.cc rates them: rings and trees by graph
// channels x per-channel speed (the intra-node speed up to two nodes, the
// inter-node one beyond):
//   ring:      ring latency (x ring-plateau-factor for a multi-node Simple
//              all-reduce once each rank's share per channel is >= 64 B)
//              + size / (bus x n / steps), bus with NCCL's LL/LL128 caps
//   tree:      tree latency + size / (tree algbw x tree-correction[p][log2(size/64)])
//              (correction for 64 B .. 2^23 x 64 B only), x 0.85 where the tree
//              graph keeps all NIC traffic on one GPU (nccl_topology.h)
//   nvls:      nvls latency + size / bw, bw = heads x min(speed x
//              nvls-efficiency x (heads-1)/heads x (2 for all-reduce; (G-1)/G
//              for all-gather and reduce-scatter), the graph's inter-node
//              speed), then x n/steps for all-reduce
//   nvls-tree: base + latencies + size / (heads x min(intra, inter,
//              max-per-channel[bucket]) x n/steps), intra as nvls all-reduce per
//              head, inter = the graph's inter-node speed (x2 on two nodes)
//   pat:       pat latency + size / (graph channels x speed x pat-bandwidth-factor)
// Enabled: ring for all-reduce, all-gather, reduce-scatter; tree for
// all-reduce; nvls on one node with an NVLS graph of 2 heads or more (Simple);
// nvls-tree across nodes likewise (all-reduce, Simple); pat for all-gather and
// reduce-scatter with one GPU per node (Simple); nvls and nvls-tree for an
// all-reduce or reduce-scatter only of what NVLS reduces (nccl_reduction.h);
// LL128 only with ll128 = true
// unless NCCL_PROTO names it (nccl_force.h).
// All-to-all and send/recv are grouped point-to-point: always p2p/Simple.
#include <cstdint>

#include "collective/nccl/nccl_force.h"
#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_reduction.h"
#include "collective/nccl/nccl_shape.h"
#include "core/collective_kind.h"

namespace dtcalc {

struct NcclChoice {
    NcclAlgorithm algorithm = NcclAlgorithm::Ring;
    NcclProtocol protocol = NcclProtocol::Simple;
};

/// True when NCCL launches nothing for the call: an all-reduce, all-gather or
/// reduce-scatter of 0 bytes (fewer elements than ranks in nccl-tests' sweeps)
/// is discarded before any choice (src/enqueue.cc, taskAppend: "Empty
/// collectives can be discarded").
bool nccl_discards(CollectiveKind kind, std::uint64_t bytes);

/// One entry of NCCL's tuning table for a collective on this communicator, as
/// NCCL_DEBUG_SUBSYS=TUNING prints it ("latency / bandwidth", tuning.cc,
/// ncclTopoTuneModel): before ncclTopoGetAlgoTime's refinements by size (the
/// ring's plateau factor, the tree correction).
struct NcclTuning {
    double latency_ns = -1;     ///< < 0: NCCL has the pair off
    double bandwidth_gbps = 0;  ///< GB/s NCCL divides the size by (nccl-tests' size, nBytes)
    bool on() const { return latency_ns >= 0; }
};

/// The entry for one pair; off (latency < 0) when the pair is not enabled for
/// this collective and communicator, or `force` turns it off.
NcclTuning nccl_tuning(CollectiveKind kind, const NcclShape& shape, const NcclRates& rates, const NcclParameters& params,
                       NcclAlgorithm algorithm, NcclProtocol protocol, const NcclForce& force = {},
                       const NcclReduction& reduction = {});

/// NCCL's own estimate for one pair, in ns; negative when the pair is not
/// enabled for this collective and communicator, or `force` (NCCL_ALGO /
/// NCCL_PROTO, nccl_force.h) turns it off.
double nccl_tuning_time_ns(CollectiveKind kind, std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                           const NcclParameters& params, NcclAlgorithm algorithm, NcclProtocol protocol,
                           const NcclForce& force = {}, const NcclReduction& reduction = {});

/// The pair NCCL picks among those `force` leaves on. Throws InputError
/// (key "nccl") when none of them runs on this communicator, naming the pairs
/// that do and, for each algorithm left on, why it does not ("tree: runs
/// all-reduce only").
NcclChoice nccl_select(CollectiveKind kind, std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                       const NcclParameters& params, const NcclForce& force = {},
                       const NcclReduction& reduction = {});

}  // namespace dtcalc
