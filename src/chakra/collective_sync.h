#pragma once
// Sync ids of the collectives of a role graph. A collective whose group holds
// NPUs of other roles must run together with the matching collective of those
// roles: the k-th collective a role issues over groups of one role make-up
// (the sorted roles of the group's members) gets the same sync id in every
// role of that make-up.
//
// Checked once every role is built: each role of a make-up issued each of
// its sync ids, else the collective has no counterpart (an InputError at the
// node, naming the representative's file of a role that lacks it).
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "chakra/comm_groups.h"
#include "chakra/trace_index.h"

namespace dtcalc::chakra {

class CollectiveSyncs {
public:
    /// All are held by reference; `role_of_rank` and `representative` as
    /// RolePartition's (role_partition.h).
    CollectiveSyncs(const TraceIndex& index, const CommGroupTable& groups, const std::vector<int>& role_of_rank,
                    const std::vector<int>& representative)
        : index_(index), groups_(groups), role_of_rank_(role_of_rank), representative_(representative) {}

    /// Starts counting the collectives of the next role.
    void start_role() { occurrences_.clear(); }

    /// The sync id of collective `node` (of `rank`'s shape, issued by `role`)
    /// over `group` (kAllNpus or a group index); -1 when every member is of
    /// `role`.
    int sync_for(int role, int rank, std::int32_t group, std::uint32_t node);

    /// Throws InputError for a sync id that a role of its make-up never issued.
    void check_counterparts() const;

private:
    std::vector<int> member_roles(std::int32_t group) const;

    const TraceIndex& index_;
    const CommGroupTable& groups_;
    const std::vector<int>& role_of_rank_;
    const std::vector<int>& representative_;
    struct Sync {
        std::vector<int> make_up;  // distinct roles of the group
        std::vector<int> roles;    // roles that issued it
        int rank = 0;              // where it was first seen, for messages
        std::uint32_t node = 0;
    };
    std::map<std::vector<int>, int> make_up_ids_;
    std::map<std::tuple<int, int>, int> sync_ids_;  // (make-up, k) -> index into syncs_
    std::vector<Sync> syncs_;
    std::map<int, int> occurrences_;  // per make-up, in the role being built
};

}  // namespace dtcalc::chakra
