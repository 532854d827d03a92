#pragma once
// What one step of an algorithm costs on one dimension's links, per backend.
//
// astra-unaware (ASTRA-sim's congestion-unaware backend): a message costs
//   floor(hops * latency + bytes / B), B = bandwidth_GBps * 2^30 / 1e9 B/ns,
// paid once whatever the hop count; concurrent messages never slow each other,
// so a step with several messages costs its slowest one.
//
// astra-aware (ASTRA-sim's congestion-aware backend): links are
// store-and-forward queues, each hop costs floor(latency + bytes / B), a Switch
// path is two links. A step whose NPU sends k messages at once queues them on
// its link: (k - 1) more serialisations. (Exact for one message per step, as in
// ring; for direct it is the source-link bound and ignores the destination side.)
//
// Local reduction (both backends): 3 * floor(bytes / local_mem_bw) ns, the
// memory bus reading two operands and writing one at local-mem-bw GB/s (decimal).
#include "collective/algorithm_steps.h"
#include "collective/backend.h"
#include "network/network.h"

namespace dtcalc {

/// ASTRA-sim's bytes per ns for a link of `gbps` ("1 GB is 2^30 B").
double astra_bytes_per_ns(double gbps);

struct StepCost {
    double latency_ns = 0;    ///< hops x latency
    double bandwidth_ns = 0;  ///< serialisation
    double total_ns = 0;      ///< what the step takes, after the backend's rounding
};

/// One step of `run` on a dimension, among `group_size` consecutive members of it.
StepCost step_cost(const Dimension& dimension, int group_size, NetworkBackend backend, const StepRun& run);

/// Local reduction of `bytes` at `local_mem_bw_gbps`.
double reduction_ns(std::uint64_t bytes, double local_mem_bw_gbps);

/// Serialisation of one message of the run on the dimension's link (aware
/// backend's contention between chunks), 0 for the unaware backend.
double link_serialization_ns(const Dimension& dimension, NetworkBackend backend, std::uint64_t bytes);

}  // namespace dtcalc
