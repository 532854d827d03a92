#pragma once
// A Chakra trace set as a WorkloadGraph: one role per group of NPUs that do
// the same thing at the same time, each role's nodes as ops timed the way
// ASTRA-sim times them (node_timing.h), to be evaluated with
// IssuePolicy::ReadyLowestIndex.
//
// Roles. Two NPUs share a role when they have the same shape (trace_set.h),
// the same node times, and their peers share roles pairwise: the k-th send or
// receive goes to (comes from) NPUs of the same role, the k-th collective's
// group holds the same roles. This is found by partition refinement from
// (shape, times): split the classes by the classes of the peers until nothing
// splits. NPUs of a role then have identical timelines in ASTRA-sim's model,
// so one representative (the lowest rank) is evaluated for all.
//
// Ops of a role are its representative's nodes in increasing node id (the
// order in which ASTRA-sim issues ready nodes); INVALID and METADATA nodes take
// no time and no resource, so they are left out and their dependants wait for
// their dependencies instead. A send's or receive's peer is the peer NPU's
// role; its tag is (comm_tag, comm_size), as ASTRA-sim matches messages. A
// collective whose group holds NPUs of other roles gets a sync id: the k-th
// collective over groups of the same role make-up in each of those roles.
//
// Checked here, with the file and node id in the message: peers within
// 0..NPUs-1; a send on its own NPU's trace (comm_src) and a receive likewise
// (comm_dst); a collective's pg_name known to the comm-group file and holding
// the NPU; every send matched by a receive on the peer NPU with the same tag
// and size (and the reverse); collective types dtcalc can time.
#include <cstdint>
#include <vector>

#include "chakra/comm_groups.h"
#include "chakra/node_timing.h"
#include "chakra/trace_set.h"
#include "workload/workload_graph.h"

namespace dtcalc::chakra {

/// What ASTRA-sim's statistics count an op as.
enum class OpClass : std::uint8_t { Gpu, Cpu, Comm, RemoteMemory };

struct TraceOp {
    int shape = 0;            ///< index into TraceSet::shapes
    std::uint32_t node = 0;   ///< index into that shape's nodes
    OpClass op_class = OpClass::Gpu;
    CompTime compute;         ///< COMP nodes: the roofline figures
};

struct TraceGraph {
    TraceSet traces;
    WorkloadGraph graph;
    std::vector<TraceOp> ops;             ///< parallel to graph.ops
    std::vector<std::uint32_t> role_ops;  ///< ops of role r: [role_ops[r], role_ops[r+1])
    std::vector<int> representative;      ///< lowest rank of each role
    std::vector<int> invalid_nodes;       ///< INVALID nodes left out, per role
};

TraceGraph build_trace_graph(TraceSet traces, const CommGroupTable& groups, const TimingModel& model);

}  // namespace dtcalc::chakra
