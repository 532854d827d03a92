#pragma once
// The roles of a trace set: groups of NPUs that do the same thing at the same
// time, found by partition refinement. NPUs start in one class per (shape,
// comm times); classes are then split by the classes of their peers -- the
// k-th send's or receive's peer, the member classes of the k-th collective's
// group -- until nothing splits.
#include <cstdint>
#include <vector>

#include "chakra/comm_groups.h"
#include "chakra/comm_peers.h"
#include "chakra/trace_index.h"

namespace dtcalc::chakra {

struct RolePartition {
    std::vector<int> role_of_rank;
    int roles = 0;
    std::vector<int> representative;  ///< lowest rank of each role
};

/// `timing` holds a hash of each rank's comm times, `peers` each rank's
/// resolved peers (comm_peers.h).
RolePartition find_roles(const TraceIndex& index, const PeerTable& peers, const std::vector<std::uint64_t>& timing,
                         const CommGroupTable& groups);

}  // namespace dtcalc::chakra
