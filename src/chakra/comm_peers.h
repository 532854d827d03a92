#pragma once
// Whom each communication node talks to, checked against the network and the
// comm-group file: a send's or receive's peer rank, a collective's
// communicator group.
//
// Checked, with the file and node id in the message: a send on its own NPU's
// trace (comm_src) and a receive likewise (comm_dst); peers within
// 0..NPUs-1; a collective's pg_name known to the comm-group file and holding
// the NPU; no involved_dim list that leaves dimensions out.
#include <cstdint>
#include <string>
#include <vector>

#include "chakra/comm_groups.h"
#include "chakra/trace_set.h"

namespace dtcalc::chakra {

/// A collective's group: every NPU of the network.
constexpr std::int32_t kAllNpus = -1;
/// A pg_name the comm-group file does not define.
constexpr std::int32_t kUnknown = -2;

/// Per rank, per comm node of its shape (ShapeIndex::comm order): its peer,
/// the peer rank of a send or receive; for a collective, kAllNpus or an index
/// into CommGroupTable::groups (a group of fewer than every NPU).
using PeerTable = std::vector<std::vector<std::int32_t>>;

class PeerResolver {
public:
    /// Maps each of `traces`' pg names to its group. Both are held by
    /// reference.
    PeerResolver(const TraceSet& traces, const CommGroupTable& groups);

    /// The peer of comm node `n` of `rank`'s trace (`file`), whose peer
    /// fields are `p`. Throws InputError when a check fails.
    std::int32_t peer(const std::string& file, int rank, const TraceNode& n, const PeerFields& p) const;

private:
    const TraceSet& traces_;
    const CommGroupTable& groups_;
    std::vector<std::int32_t> pg_group_;  // per TraceSet::pg_names: group index, kAllNpus or kUnknown
};

}  // namespace dtcalc::chakra
