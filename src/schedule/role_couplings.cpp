#include "schedule/role_couplings.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include "schedule/op_pricing.h"

namespace dtcalc {
namespace {

struct Endpoint {
    int from, to, tag, op;
    bool operator<(const Endpoint& o) const { return std::tie(from, to, tag, op) < std::tie(o.from, o.to, o.tag, o.op); }
    bool same_key(const Endpoint& o) const { return from == o.from && to == o.to && tag == o.tag; }
};

[[noreturn]] void unmatched_send(const WorkloadGraph& graph, const Endpoint& send) {
    fail_on_op(graph, send.op, "send to role " + std::to_string(send.to) + " with tag " + std::to_string(send.tag) +
                                   " has no matching receive");
}

}  // namespace

RoleCouplings couple_roles(const WorkloadGraph& graph) {
    const int n = static_cast<int>(graph.ops.size());
    RoleCouplings c;
    c.matching_send.assign(static_cast<std::size_t>(n), -1);
    c.sync_of.assign(static_cast<std::size_t>(n), -1);

    std::vector<Endpoint> sends, recvs;
    std::vector<std::pair<int, int>> syncs;  // (sync id, op)
    for (int i = 0; i < n; ++i) {
        const Op& op = graph.ops[static_cast<std::size_t>(i)];
        if (op.kind == OpKind::Send) sends.push_back({op.role, op.peer_role, op.tag, i});
        if (op.kind == OpKind::Recv) recvs.push_back({op.peer_role, op.role, op.tag, i});
        if (op.kind == OpKind::Collective && op.sync >= 0) syncs.emplace_back(op.sync, i);
    }
    // Sorted by key, then op: the k-th send of a key meets the k-th receive.
    std::sort(sends.begin(), sends.end());
    std::sort(recvs.begin(), recvs.end());
    std::size_t s = 0;
    for (const Endpoint& r : recvs) {
        if (s < sends.size() && sends[s] < Endpoint{r.from, r.to, r.tag, -1}) unmatched_send(graph, sends[s]);
        if (s == sends.size() || !sends[s].same_key(r))
            fail_on_op(graph, r.op, "receive from role " + std::to_string(r.from) + " with tag " + std::to_string(r.tag) +
                                        " has no matching send");
        c.matching_send[static_cast<std::size_t>(r.op)] = sends[s].op;
        ++s;
    }
    if (s < sends.size()) unmatched_send(graph, sends[s]);

    std::sort(syncs.begin(), syncs.end());
    for (std::size_t i = 0; i < syncs.size(); ++i) {
        if (i == 0 || syncs[i].first != syncs[i - 1].first) c.sync_members.emplace_back();
        c.sync_members.back().push_back(syncs[i].second);
        c.sync_of[static_cast<std::size_t>(syncs[i].second)] = static_cast<int>(c.sync_members.size()) - 1;
    }
    return c;
}

}  // namespace dtcalc
