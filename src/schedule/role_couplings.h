#pragma once
// What ties the roles (NPUs) of a workload graph together beyond its edges:
// a receive waits for its matching send, and the ops that are one collective
// seen from several roles (one sync id) start together. Both schedulers, the
// graph-order evaluator and ASTRA-sim's issue order, read the same couplings.
#include <vector>

#include "workload/workload_graph.h"

namespace dtcalc {

struct RoleCouplings {
    std::vector<int> matching_send;             ///< op -> its send when it is a receive, else -1
    std::vector<int> sync_of;                   ///< op -> index into sync_members, else -1
    std::vector<std::vector<int>> sync_members;  ///< the ops of each sync id, in op order
};

/// Sends and receives pair up in order per (from role, to role, tag): the k-th
/// send meets the k-th receive. Throws InputError on the op (its label and
/// source) for a send or receive left without a partner.
RoleCouplings couple_roles(const WorkloadGraph& graph);

}  // namespace dtcalc
