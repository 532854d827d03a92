#include "chakra/collective_sync.h"

#include <algorithm>

#include "chakra/comm_peers.h"
#include "chakra/node_error.h"

namespace dtcalc::chakra {

std::vector<int> CollectiveSyncs::member_roles(std::int32_t group) const {
    std::vector<int> roles;
    if (group == kAllNpus) {
        roles = role_of_rank_;
    } else {
        for (int r : groups_.groups[static_cast<std::size_t>(group)].second)
            roles.push_back(role_of_rank_[static_cast<std::size_t>(r)]);
    }
    std::sort(roles.begin(), roles.end());
    return roles;
}

int CollectiveSyncs::sync_for(int role, int rank, std::int32_t group, std::uint32_t node) {
    std::vector<int> make_up = member_roles(group);
    if (std::all_of(make_up.begin(), make_up.end(), [&](int r) { return r == role; })) return -1;
    const int m = make_up_ids_.try_emplace(make_up, static_cast<int>(make_up_ids_.size())).first->second;
    const int k = occurrences_[m]++;
    auto [it, added] = sync_ids_.try_emplace({m, k}, static_cast<int>(syncs_.size()));
    if (added) {
        make_up.erase(std::unique(make_up.begin(), make_up.end()), make_up.end());
        syncs_.push_back({std::move(make_up), {}, rank, node});
    }
    syncs_[static_cast<std::size_t>(it->second)].roles.push_back(role);
    return it->second;
}

void CollectiveSyncs::check_counterparts() const {
    for (const Sync& s : syncs_) {
        if (s.roles == s.make_up) continue;
        int missing = -1;
        for (int r : s.make_up)
            if (std::find(s.roles.begin(), s.roles.end(), r) == s.roles.end()) missing = r;
        const int other = missing >= 0 ? representative_[static_cast<std::size_t>(missing)] : s.rank;
        // Without a comm-group file every collective spans all NPUs (ASTRA-sim's
        // "empty"): traces whose collectives run on smaller groups then fail
        // here, and the message names the flag that was left out.
        const std::string hint = groups_.file.empty()
                                     ? "; no --comm-group-configuration was given, so every collective spans all NPUs: "
                                       "give the comm-group JSON the traces' pg_name attributes refer to"
                                     : "";
        fail_node(index_.file_of(s.rank), index_.shape_of(s.rank).nodes[s.node],
                  "this collective has no counterpart in " + index_.file_of(other) +
                      " (the NPUs of a communicator must issue the same collectives on it, in the same order)" + hint);
    }
}

}  // namespace dtcalc::chakra
