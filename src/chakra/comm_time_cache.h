#pragma once
// The time of each communication node (node_timing.h), remembered by what it
// depends on: many nodes, and many ranks, send the same sizes to the same
// kind of peer.
//
// A collective type dtcalc cannot time, or a collective the network cannot
// run, is an InputError at the node (a system file's own errors keep their
// location: that is the file to fix).
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

#include "chakra/comm_groups.h"
#include "chakra/node_timing.h"
#include "chakra/trace_index.h"

namespace dtcalc::chakra {

class CommTimeCache {
public:
    /// All three are held by reference.
    CommTimeCache(const TraceIndex& index, const CommGroupTable& groups, const TimingModel& model)
        : index_(index), groups_(groups), model_(model) {}

    /// The time of comm node `n` of `rank` whose peer (or group) is `peer`
    /// (comm_peers.h): its dtcalc_duration_ns when present (but for a
    /// receive, which takes none of its own: 0), else node_timing.h's.
    double time(int rank, const TraceNode& n, std::int32_t peer);

private:
    const TraceIndex& index_;
    const CommGroupTable& groups_;
    const TimingModel& model_;
    std::map<std::tuple<std::int64_t, std::int64_t, std::uint64_t>, double> send_cache_;
    std::map<std::pair<std::int32_t, std::uint64_t>, CollectiveTimes> all_cache_;
    std::map<std::tuple<std::int32_t, std::uint64_t, std::int32_t, int>, double> group_cache_;
};

}  // namespace dtcalc::chakra
