#pragma once
// Any workload dtcalc evaluates, written as Chakra traces ASTRA-sim can run:
// PREFIX.<rank>.et for every NPU of the network, and the comm-group JSON.
//
// NPUs and roles: graph.rank_role when given, else ranks fill the roles in
// order (role_npus each). Every NPU of a role gets its role's ops as nodes,
// node id = op index, dependencies as data_deps (within the NPU).
//   Compute    -> COMP_NODE. With roofline (every compute op given as FLOPs
//                 and bytes, none with a duration): num_ops and tensor_size,
//                 and the system JSON gets roofline-enabled 1. Otherwise
//                 duration_micros (rounded), roofline off.
//   Memory     -> MEM_LOAD_NODE with tensor_size.
//   Collective -> COMM_COLL_NODE: comm_type, comm_size (an all-gather's is each
//                 NPU's input), pg_name naming the NPU's own copy of the op's
//                 group (the NPUs sharing its coordinates outside the group's
//                 dimensions, the group's block inside them); none for a group
//                 of every NPU.
//   Send/Recv  -> COMM_SEND_NODE / COMM_RECV_NODE with comm_src, comm_dst,
//                 comm_tag (the op's tag) and comm_size (a receive takes its
//                 send's). The peer NPU of the i-th NPU of a role is the i-th
//                 NPU (in rank order) of the peer role.
// Every node gets empty `inputs` / `outputs` lists (ASTRA-sim's
// track-local-mem wants them) and, unless turned off, dtcalc's attribute
// `dtcalc_duration_ns`: the op's time as dtcalc prices it, which `dtcalc
// astra` uses and ASTRA-sim ignores. With it, reading the traces back gives
// the same timeline as evaluating the graph with IssuePolicy::ReadyLowestIndex.
// Without it, `dtcalc astra` times the nodes as ASTRA-sim does (its
// communicator groups are flat rings, for instance).
#include <cstdint>
#include <string>

#include "compute/system.h"
#include "workload/workload_graph.h"

namespace dtcalc::chakra {

struct ExportOptions {
    bool dtcalc_durations = true;
    long long max_npus = 65536;  ///< refuse to write more files than this
};

struct ExportSummary {
    long long npus = 0;
    int roles = 0;
    std::uint64_t nodes = 0;  ///< over all files
    int comm_groups = 0;
    bool roofline = false;    ///< the traces need roofline-enabled 1
};

/// Writes PREFIX.<rank>.et for every NPU and the comm-group JSON at
/// `comm_group_file`. Throws InputError when the roles do not fit the
/// network, a dependency crosses roles, or a file cannot be written.
ExportSummary export_chakra(const WorkloadGraph& graph, const System& system, const std::string& prefix,
                            const std::string& comm_group_file, const ExportOptions& options = {});

}  // namespace dtcalc::chakra
