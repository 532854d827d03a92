#include "chakra/comm_time_cache.h"

#include <algorithm>

#include "chakra/comm_peers.h"
#include "chakra/node_error.h"
#include "core/error.h"

namespace dtcalc::chakra {

double CommTimeCache::time(int rank, const TraceNode& n, std::int32_t peer) {
    if (n.exact_duration_ns >= 0 && n.kind != NodeKind::Recv) return n.exact_duration_ns;
    const std::string& file = index_.file_of(rank);
    switch (n.kind) {
        case NodeKind::Send: {
            const auto key = std::make_tuple(static_cast<std::int64_t>(rank), static_cast<std::int64_t>(peer), n.comm_size);
            auto found = send_cache_.find(key);
            if (found == send_cache_.end())
                found = send_cache_.emplace(key, send_time(model_, rank, peer, n.comm_size)).first;
            return found->second;
        }
        case NodeKind::Recv: return 0;
        case NodeKind::Collective: {
            const auto type = static_cast<CommType>(n.comm_type);
            if (!timed_collective(type))
                fail_node(file, n, "collective type " + std::string(comm_type_name(type)) +
                                       " is not supported (ASTRA-sim's system layer runs ALL_REDUCE, "
                                       "REDUCE_SCATTER, ALL_GATHER, ALL_TO_ALL and BROADCAST only)");
            if (type == CommType::Broadcast) return replay_time(n);
            if (peer == kAllNpus) {
                const auto key = std::make_pair(n.comm_type, n.comm_size);
                auto found = all_cache_.find(key);
                if (found == all_cache_.end()) {
                    CollectiveTimes ns;
                    try {
                        ns = collective_time_all(model_, type, n.comm_size);
                    } catch (const InputError& e) {  // keep a system file's location: it is what to fix
                        fail_node(file, n, e.where().file.empty() ? e.detail() : std::string(e.what()));
                    }
                    found = all_cache_.emplace(key, std::move(ns)).first;
                }
                return found->second.of(rank);
            }
            const std::vector<int>& ranks = groups_.groups[static_cast<std::size_t>(peer)].second;
            const int position =
                static_cast<int>(std::find(ranks.begin(), ranks.end(), rank) - ranks.begin());
            const auto key = std::make_tuple(n.comm_type, n.comm_size, peer, position);
            auto found = group_cache_.find(key);
            if (found == group_cache_.end())
                found = group_cache_.emplace(key, collective_time_group(model_, type, n.comm_size, ranks, position)).first;
            return found->second;
        }
        default: return 0;
    }
}

}  // namespace dtcalc::chakra
