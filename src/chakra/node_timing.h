#pragma once
// How long ASTRA-sim 2.0 (analytical backends) takes for each Chakra node, in
// whole ns (ASTRA-sim's cycles). Facts from its workload and system layers,
// checked against its output on the STAGE sanity trace (validation/chakra):
//
// COMP on the accelerator, roofline-enabled:
//     tensor_size = 0: 0 (ASTRA-sim skips the node as invalid)
//     OI   = num_ops / tensor_size                       (FLOP per byte)
//     perf = min(peak-perf x 1e12, local-mem-bw x 1e9 x OI)   (FLOP/s)
//     t    = floor(num_ops / perf x 1e9)
//   memory-bound when perf < peak; compute utilisation perf / peak, memory
//   utilisation (perf / OI) / (local-mem-bw x 1e9).
// COMP otherwise (roofline off, a CPU op, replay-only), and BROADCAST:
//     duration_micros x 1000, or 1 when it is 0.
// dtcalc's own attribute `dtcalc_duration_ns`, which dtcalc's exporter writes
// (chakra/graph_export.h) and ASTRA-sim ignores, is the node's time when
// present, whatever its kind (the roofline figures of a COMP node still come
// from num_ops and tensor_size).
// COMM_COLL on every NPU (no pg_name, "0", or a group listing all NPUs): the
//   collective engine (collective/collective_cost.h) on the whole network with
//   the system's per-dimension algorithms; an all-gather's comm_size is each
//   NPU's input, so the gathered buffer is comm_size x NPUs.
// COMM_COLL on a communicator group of n < NPUs ranks: ASTRA-sim runs one ring
//   through the ranks in the group's order, whatever the system's algorithms,
//   paying a fixed 10 ns per message (its "local" dimension) instead of
//   endpoint-delay. With C = comm_size / preferred-dataset-splits (raised to n
//   except for all-gather) and a message of m bytes:
//     all-reduce      2(n-1) steps of m = C/n, the first n-1 reducing
//     reduce-scatter  n-1 steps of m = C/n, all reducing
//     all-gather      n-1 steps of m = C
//     all-to-all      n(n-1)/2 steps of m = C/n
//   Member i sends as soon as it has received, so its chunk ends after
//     10 + steps x 10 + reducing steps x 3 floor(m / local-mem-bw)
//        + the message times of the `steps` ring links ending at member i.
//   Chunks go active-chunks-per-dimension at a time (chunk_pipeline.h).
// COMM_SEND: one message, no endpoint delay: floor(hops x latency + B / bw) on
//   the dimension the two NPUs are charged to (congestion-unaware), hops x
//   floor(latency + B / bw) (congestion-aware); bw = GB/s x 2^30 / 1e9 B/ns.
// COMM_RECV: none of its own; it ends when its message arrives.
// MEM_LOAD / MEM_STORE of tensor_size B (remote_memory.h):
//   NO_MEMORY_EXPANSION: a local memory access, floor(B / local-mem-bw) (ASTRA-sim
//     itself stops with "not supported"; dtcalc reads the node as local traffic)
//   PER_NPU: remote-mem-latency + floor(B / remote-mem-bw)
//   PER_NODE / MEMORY_POOL: the same, times the NPUs sharing the port
//     (approximation: the k sharers' simultaneous transfers served in turn;
//     ASTRA-sim gives the first k-1 of them earlier ends)
#include <cstdint>
#include <span>
#include <vector>

#include "chakra/remote_memory.h"
#include "chakra/trace_decoder.h"
#include "compute/system.h"

namespace dtcalc::chakra {

struct TimingModel {
    const System* system = nullptr;  ///< network, knobs and backend
    bool replay_only = false;  ///< system JSON "replay-only": every node replays its duration
    RemoteMemory remote;
};

struct CompTime {
    double ns = 0;
    bool roofline = false;       ///< timed by the roofline (statistics apply)
    double perf_flops = 0;       ///< achieved FLOP/s
    double intensity = 0;        ///< FLOP per byte
    bool memory_bound = false;
};

/// COMP nodes (accelerator or CPU).
CompTime comp_time(const TimingModel& model, const TraceNode& node);

/// The exact attribute, else duration_micros x 1000, 1 when zero.
double replay_time(const TraceNode& node);

/// A collective over every NPU of the network, as each NPU sees it: where
/// ranks finish apart (doubleBinaryTree; halvingDoubling on a congestion-aware
/// Ring: collective/message_model.h) each NPU's own finish, as ASTRA-sim
/// prints `sys[i] finished` for a workload of that one collective.
struct CollectiveTimes {
    double ns = 0;                ///< rank 0's finish
    std::vector<double> by_rank;  ///< each NPU's own finish; empty when all are `ns`
    double of(int rank) const { return by_rank.empty() ? ns : by_rank[static_cast<std::size_t>(rank)]; }
};
CollectiveTimes collective_time_all(const TimingModel& model, CommType type, std::uint64_t comm_size);

/// A collective over `ranks` (fewer than every NPU), as seen by ranks[position].
double collective_time_group(const TimingModel& model, CommType type, std::uint64_t comm_size,
                             std::span<const int> ranks, int position);

/// One message from `src` to `dst`.
double send_time(const TimingModel& model, std::int64_t src, std::int64_t dst, std::uint64_t bytes);

/// A MEM_LOAD / MEM_STORE node of `bytes`.
double memory_time(const TimingModel& model, std::uint64_t bytes);

/// Whether dtcalc can time this collective type (all-reduce, all-gather,
/// reduce-scatter, all-to-all; broadcast replays its duration).
bool timed_collective(CommType type);

}  // namespace dtcalc::chakra
