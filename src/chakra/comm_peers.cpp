#include "chakra/comm_peers.h"

#include <algorithm>

#include "chakra/node_error.h"

namespace dtcalc::chakra {

PeerResolver::PeerResolver(const TraceSet& traces, const CommGroupTable& groups) : traces_(traces), groups_(groups) {
    for (const std::string& name : traces_.pg_names) {
        const auto found = groups_.find(name);
        if (!found) {
            pg_group_.push_back(kUnknown);
        } else if (*found == nullptr) {
            pg_group_.push_back(kAllNpus);
        } else {
            const auto at = std::find_if(groups_.groups.begin(), groups_.groups.end(),
                                         [&](const auto& g) { return g.first == name; });
            pg_group_.push_back(static_cast<std::int32_t>(at - groups_.groups.begin()));
        }
    }
}

std::int32_t PeerResolver::peer(const std::string& file, int rank, const TraceNode& n, const PeerFields& p) const {
    const long long npus = traces_.npus;
    std::int32_t peer = 0;
    if (n.kind == NodeKind::Send || n.kind == NodeKind::Recv) {
        const bool send = n.kind == NodeKind::Send;
        const std::int64_t self = send ? p.src : p.dst;
        const std::int64_t other = send ? p.dst : p.src;
        const char* self_key = send ? "comm_src" : "comm_dst";
        const char* other_key = send ? "comm_dst" : "comm_src";
        if (self >= 0 && self != rank)
            fail_node(file, n, std::string(node_kind_name(n.kind)) + " has " + self_key + " " +
                                   std::to_string(self) + ", but this is rank " + std::to_string(rank) +
                                   "'s trace (a node runs on the NPU whose trace holds it)");
        if (other >= npus)
            fail_node(file, n, std::string(other_key) + " " + std::to_string(other) + " is not an NPU (the network has " +
                                   std::to_string(npus) + ")");
        peer = static_cast<std::int32_t>(other);
    } else {
        if (n.partial_involved_dim)
            fail_node(file, n, "an involved_dim list that leaves dimensions out is not modelled");
        const std::int32_t group = p.pg >= 0 ? pg_group_[static_cast<std::size_t>(p.pg)] : kAllNpus;
        if (group == kUnknown)
            fail_node(file, n, "pg_name '" + traces_.pg_names[static_cast<std::size_t>(p.pg)] +
                                   "' is not a communicator in " + groups_.file);
        peer = kAllNpus;
        if (group >= 0) {
            const std::vector<int>& ranks = groups_.groups[static_cast<std::size_t>(group)].second;
            if (std::find(ranks.begin(), ranks.end(), rank) == ranks.end())
                fail_node(file, n, "pg_name '" + groups_.groups[static_cast<std::size_t>(group)].first + "' (" +
                                       groups_.file + ") does not include rank " + std::to_string(rank));
            if (static_cast<long long>(ranks.size()) != npus) peer = group;
        }
    }
    return peer;
}

}  // namespace dtcalc::chakra
