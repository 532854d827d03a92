#pragma once
// The critical-path evaluator: one pass over a workload DAG in topological
// order. An op starts when its predecessors have ended and its stream is free:
//     start = max(end of each predecessor, stream free)
//     end   = start + duration
// Each op remembers which of the two bound its start, so the critical path is
// read back from the op that ends last.
//
// Streams per role: one compute stream; one communication resource per
// network dimension and lane (a collective holds every dimension its group
// spans, a send the dimension it crosses; WorkloadGraph::lanes, one unless a
// builder gives each traffic class its own, whose ops then share the
// dimension's links as schedule/link_sharing.h says); one memory stream. Ops on one stream run in
// the order of the topological pass, which keeps the graph's own op order
// wherever the dependencies allow it (issue order, as on a GPU stream).
//
// Approximation, stated: concurrent collectives on the same dimensions run one
// after another in issue order, each taking its stand-alone time. ASTRA-sim
// instead interleaves their chunks in the dimension's active-chunk slots (and
// under LIFO lets a later collective's chunks pass earlier waiting ones). The
// busy time of each dimension is the same either way; what can differ is which
// of two overlapping collectives finishes first. Collectives that do not
// overlap in time are exact.
#include <vector>

#include "compute/roofline.h"
#include "compute/system.h"
#include "workload/workload_graph.h"

namespace dtcalc {

/// How ops get onto their streams.
enum class IssuePolicy {
    GraphOrder,        ///< the one pass in topological order described above
    ReadyLowestIndex,  ///< ASTRA-sim's Chakra workload layer (schedule/issue_order.h)
};

struct EvaluationSystem {
    const System* system = nullptr;  ///< prices the collectives and sends
    TrainingDevice device;  ///< times compute ops given in FLOPs and bytes on its roofline
    double memory_stream_gbps = 0;  ///< for Memory ops given in bytes
    IssuePolicy issue = IssuePolicy::GraphOrder;
};

/// The system as ASTRA-sim's workload layer sees it: compute on the roofline
/// of the system's peak-perf and local-mem-bw.
EvaluationSystem roofline_evaluation(const System& system);

struct OpTiming {
    double start_ns = 0;
    double end_ns = 0;
    int bound_by = -1;  ///< the predecessor or stream predecessor that set the start; -1 when it started at 0
};

struct RoleSummary {
    double wall_ns = 0;          ///< when the role's last op ends
    double compute_busy_ns = 0;  ///< compute stream busy
    double comm_busy_ns = 0;     ///< time with any communication in flight
    double exposed_comm_ns = 0;  ///< wall - compute busy (ASTRA-sim's definition)
};

/// ASTRA-sim's roofline statistics over compute ops timed by the roofline.
struct RooflineStats {
    int ops = 0;
    double compute_bound_percent = 0;
    double average_compute_utilization = 0;  ///< achieved FLOP/s over peak, averaged over ops
    double average_memory_utilization = 0;   ///< achieved bytes/s over bandwidth, averaged over ops
    double average_operational_intensity = 0;  ///< FLOPs per byte, averaged over ops
};

struct Schedule {
    std::vector<OpTiming> ops;
    std::vector<RoleSummary> roles;
    double wall_ns = 0;
    std::vector<int> critical_path;  ///< op indices, first to last
    /// Per op: compute-stream time it left exposed (waits of compute ops it bound).
    std::vector<double> exposed_ns;
    RooflineStats roofline;
};

/// Throws InputError (key "workload") for a cycle, a dangling dependency, an
/// unmatched send or receive, a bad group index, or an op the device cannot time.
Schedule evaluate(const WorkloadGraph& graph, const EvaluationSystem& system);

}  // namespace dtcalc
