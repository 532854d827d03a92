#pragma once
// Parallel groups placed on the network's dimensions.
//
// Ranks are numbered with the first axis of the plan's order fastest (TP by
// default), and NPU ids with network dimension 0 fastest; so the first axis
// takes the innermost dimension (or the first factors of it), the next axis
// what is left, and so on. Each group is then a count of members per network
// dimension (CommGroup). A group that would need a fraction of a dimension
// that does not divide it cannot be placed.
#include <string>
#include <vector>

#include "collective/comm_group.h"
#include "network/network.h"
#include "plan/parallel_plan.h"

namespace dtcalc {

struct ParallelGroups {
    CommGroup tp, cp, ep, dp, pp;
    CommGroup expert_dp;     ///< data-parallel group of the experts (dp / ep)
    /// dp x cp: the ranks that hold the same parameters, so reduce their
    /// gradients (and shard the distributed optimizer) together: Megatron-Core's
    /// data-parallel group with context parallelism (parallel_state.py,
    /// get_data_parallel_group(with_context_parallel=True)).
    CommGroup dp_cp;
    CommGroup pp_neighbour;  ///< two adjacent pipeline stages: the path of a stage-to-stage send
};

/// Throws InputError (key "plan") when a group does not fit the dimensions.
ParallelGroups map_parallel_groups(const Network& network, const ParallelPlan& plan);

}  // namespace dtcalc
