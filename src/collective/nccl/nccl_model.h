#pragma once
// The `nccl` backend: what NCCL does with a collective on the communicator a
// CommGroup describes, and how long it takes.
//
//   shape, rates = nccl_shape.h          (ranks, nodes, GPUs per node; link rates)
//   choice       = nccl_select(...)      (NCCL's own cost model; --algo/--proto restrict it)
//   time         = nccl_collective_cost  (all-reduce, all-gather, reduce-scatter)
//                  nccl_send_recv_cost / nccl_all_to_all_cost (point-to-point)
//
// As a CollectiveResult: one phase (dimension 0 on one node, else the outermost
// spanned dimension), latency = per-step latencies, bandwidth = size over the
// bottleneck rate, wait = pipeline fill; `algorithm` names the choice
// ("nvls/Simple"), with NICs in use per node and the channels it runs. An
// all-reduce, all-gather or reduce-scatter of 0 bytes takes no time and no
// phase, its choice "none": NCCL discards it (nccl_discards). One rank runs
// no algorithm: "copy" where NCCL copies the buffer (out of place, and the
// tables state the copy's rate), else "none" at 0 (nccl_one_rank.h); no NICs,
// no channels.
#include <array>
#include <cstdint>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_selection.h"
#include "collective/nccl/nccl_shape.h"

namespace dtcalc {

struct NcclPrediction {
    NcclChoice choice;
    int channels = 1;
    int steps = 0;
    double bytes_per_step = 0;
    double latency_ns = 0;
    double fill_ns = 0;
    double bandwidth_ns = 0;
    double time_ns = 0;
};

NcclPrediction nccl_predict(CollectiveKind kind, std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                            const NcclParameters& params, const NcclForce& force = {},
                            const NcclReduction& reduction = {});

/// Throws InputError (key "backend") when the system carries no NCCL
/// parameters, and as nccl_select does for an impossible --algo/--proto.
CollectiveResult nccl_collective_time(const Network& network, const SystemConfig& system,
                                      const CollectiveQuery& query);

/// NCCL's tuning table for one collective on one communicator: an entry
/// (nccl_tuning) per tuned algorithm and protocol.
struct NcclTuningTable {
    std::int64_t ranks = 0;
    std::int64_t nodes = 0;
    std::int64_t gpus_per_node = 0;
    std::array<std::array<NcclTuning, kNcclProtocols>, kNcclTunedAlgorithms> entries{};  ///< [algorithm][protocol]
};
/// The table for `query.kind` on the communicator `query.group` describes, as
/// NCCL_DEBUG_SUBSYS=TUNING prints it, with the pairs `query.nccl` (--algo /
/// --proto) turns off shown off. Throws as nccl_collective_time.
NcclTuningTable nccl_tuning_table(const Network& network, const SystemConfig& system, const CollectiveQuery& query);

/// A send/recv of `query.bytes` between two GPUs of one node within the
/// communicator `query.group` describes (nccl_send_recv_node_pair_cost), in
/// ns. Throws as nccl_collective_time.
double nccl_send_recv_node_pair_ns(const Network& network, const SystemConfig& system, const CollectiveQuery& query);

}  // namespace dtcalc
