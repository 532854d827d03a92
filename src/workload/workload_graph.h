#pragma once
// A workload: a DAG of ops on one or more representative NPUs ("roles").
//
// NPUs that do the same work at the same time (all data-parallel and
// tensor-parallel ranks of one pipeline stage, say) share one role and one
// timeline, so the graph does not grow with the data-parallel degree. Each
// role has one compute stream, one communication resource per network
// dimension, and one memory stream.
//
// Edges are data or control dependencies: an op starts when all its
// predecessors have ended and its stream is free. Across roles, a receive
// ends when the matching send's transfer has ended, and ops sharing a
// `sync` id are one collective seen from several roles: it starts when every
// role has reached it.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "collective/comm_group.h"
#include "core/collective_kind.h"

namespace dtcalc {

enum class OpKind : std::uint8_t { Compute, Collective, Send, Recv, Memory };

/// Where an op sits in a training step, for per-layer reports.
enum class OpPhase : std::uint8_t { Forward, InputGradient, WeightGradient, Update, Other };

std::string_view op_kind_name(OpKind kind);
std::string_view op_phase_name(OpPhase phase);

struct Op {
    OpKind kind = OpKind::Compute;
    OpPhase phase = OpPhase::Other;
    int role = 0;
    int layer = -1;  ///< index into WorkloadGraph::layers, -1 for none
    int name = -1;   ///< index into WorkloadGraph::names, -1 for none
    int micro_batch = -1;  ///< shown after the name in labels ("F mb3"), -1 for none
    int chunk = -1;        ///< virtual pipeline chunk, shown as " c1", -1 for none

    // Compute: FLOPs and bytes moved (roofline), or a fixed duration.
    // Memory: bytes moved at the memory stream's bandwidth, or a fixed duration.
    double flops = 0;
    double bytes = 0;
    double duration_ns = -1;  ///< >= 0: the op takes exactly this long (any kind)
    bool host = false;        ///< Compute on the host CPU (a stream of its own under IssuePolicy::ReadyLowestIndex)

    // Collective: kind, bytes as nccl-tests counts them, communicator group
    // (a Collective or Send with duration_ns >= 0 takes that long instead: a
    // builder that already priced it, e.g. several collectives merged into one op).
    CollectiveKind collective = CollectiveKind::AllReduce;
    std::uint64_t comm_bytes = 0;
    int group = -1;  ///< index into WorkloadGraph::groups
    int sync = -1;   ///< ops of several roles with the same id are one collective
    /// Collective / Send: the traffic class's lane, below WorkloadGraph::lanes.
    /// Ops of one lane queue on each dimension they cross; ops of different
    /// lanes share its links (schedule/link_sharing.h).
    int lane = 0;

    // Send / receive (comm_bytes, and `group` names the path: a two-member span).
    int peer_role = -1;
    int tag = 0;

    std::uint32_t dep_begin = 0;  ///< into WorkloadGraph::deps
    std::uint32_t dep_count = 0;
};

class WorkloadGraph {
public:
    int roles = 1;
    /// NPUs each role stands for (reports and memory use it); defaults to 1.
    std::vector<std::int64_t> role_npus{1};
    /// Optional: the role of each NPU rank (index = rank). Empty means ranks
    /// fill the roles in order, role_npus[r] ranks each.
    std::vector<int> rank_role;
    /// Communication lanes per network dimension (Op::lane): 1, one queue per
    /// dimension as ASTRA-sim's system layer has; a training step's builder
    /// gives one per traffic class.
    int lanes = 1;
    std::vector<Op> ops;
    std::vector<std::uint32_t> deps;
    std::vector<CommGroup> groups;
    std::vector<std::string> names;
    std::vector<std::string> layers;

    /// Appends an op depending on `predecessors` (indices of earlier or later
    /// ops; checked by validate()). Returns its index.
    int add(Op op, std::span<const int> predecessors = {});
    int add(Op op, std::initializer_list<int> predecessors) {
        return add(op, std::span<const int>(predecessors.begin(), predecessors.size()));
    }
    void add_dependency_list(int op, std::span<const int> predecessors);  ///< replaces op's deps (op must be last added)

    int intern_name(const std::string& name);  ///< appends a name (see also name_id)
    int name_id(const std::string& name);      ///< the index of an equal name, appending it if new
    int add_group(const CommGroup& group);
    int add_layer(const std::string& name);

    std::span<const std::uint32_t> predecessors(int op) const {
        const Op& o = ops[static_cast<std::size_t>(op)];
        return {deps.data() + o.dep_begin, o.dep_count};
    }
    std::string op_label(int op) const;  ///< its name (with micro-batch and chunk), or "op N"
};

}  // namespace dtcalc
