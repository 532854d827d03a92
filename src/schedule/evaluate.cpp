#include "schedule/evaluate.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <queue>
#include <span>
#include <string>
#include <unordered_map>

#include "collective/collective_cost.h"
#include "core/error.h"
#include "schedule/issue_order.h"
#include "schedule/op_pricing.h"

namespace dtcalc {

EvaluationSystem roofline_evaluation(const Network& network, const SystemConfig& system, NetworkBackend backend) {
    EvaluationSystem eval;
    eval.network = &network;
    eval.system = &system;
    eval.backend = backend;
    eval.device.peak_tflops = system.peak_perf_tflops;
    eval.device.mem_bw_gbps = system.local_mem_bw_gbps;
    return eval;
}
namespace {


// Dependencies the graph implies beyond its edges: a receive waits for its
// matching send; the ops of one collective seen from several roles wait for
// each other's predecessors. Kept in flat arrays (no allocation per op).
struct ImpliedEdges {
    std::vector<int> matching_send;             // recv op -> its send op, else -1
    std::vector<int> sync_of;                   // op -> index into sync_members, or -1
    std::vector<std::vector<int>> sync_members;
};

ImpliedEdges imply_edges(const WorkloadGraph& graph) {
    const int n = static_cast<int>(graph.ops.size());
    ImpliedEdges e;
    e.matching_send.assign(static_cast<std::size_t>(n), -1);
    e.sync_of.assign(static_cast<std::size_t>(n), -1);

    // Sends and receives pair up in order per (from role, to role, tag): sort
    // both lists by that key (stable, so the k-th send meets the k-th receive).
    struct Endpoint {
        int from, to, tag, op;
        bool operator<(const Endpoint& o) const { return std::tie(from, to, tag, op) < std::tie(o.from, o.to, o.tag, o.op); }
        bool same_key(const Endpoint& o) const { return from == o.from && to == o.to && tag == o.tag; }
    };
    std::vector<Endpoint> sends, recvs;
    std::vector<std::pair<int, int>> syncs;  // (sync id, op)
    for (int i = 0; i < n; ++i) {
        const Op& op = graph.ops[static_cast<std::size_t>(i)];
        if (op.kind == OpKind::Send) sends.push_back({op.role, op.peer_role, op.tag, i});
        if (op.kind == OpKind::Recv) recvs.push_back({op.peer_role, op.role, op.tag, i});
        if (op.kind == OpKind::Collective && op.sync >= 0) syncs.emplace_back(op.sync, i);
    }
    std::sort(sends.begin(), sends.end());
    std::sort(recvs.begin(), recvs.end());
    std::size_t si = 0;
    for (std::size_t ri = 0; ri < recvs.size(); ++ri) {
        const Endpoint& r = recvs[ri];
        while (si < sends.size() && sends[si] < Endpoint{r.from, r.to, r.tag, -1}) {
            fail_on_op(graph, sends[si].op, "send to role " + std::to_string(sends[si].to) + " with tag " +
                                          std::to_string(sends[si].tag) + " has no matching receive");
        }
        if (si == sends.size() || !sends[si].same_key(r))
            fail_on_op(graph, r.op, "receive from role " + std::to_string(r.from) + " with tag " + std::to_string(r.tag) +
                                  " has no matching send");
        e.matching_send[static_cast<std::size_t>(r.op)] = sends[si].op;
        ++si;
    }
    if (si < sends.size())
        fail_on_op(graph, sends[si].op, "send to role " + std::to_string(sends[si].to) + " with tag " +
                                      std::to_string(sends[si].tag) + " has no matching receive");
    std::sort(syncs.begin(), syncs.end());
    for (std::size_t i = 0; i < syncs.size(); ++i) {
        if (i == 0 || syncs[i].first != syncs[i - 1].first) e.sync_members.emplace_back();
        e.sync_members.back().push_back(syncs[i].second);
        e.sync_of[static_cast<std::size_t>(syncs[i].second)] = static_cast<int>(e.sync_members.size()) - 1;
    }
    return e;
}

template <class F>
void for_each_predecessor(const WorkloadGraph& graph, const ImpliedEdges& implied, int op, F&& f) {
    for (std::uint32_t p : graph.predecessors(op)) f(static_cast<int>(p));
    const int send = implied.matching_send[static_cast<std::size_t>(op)];
    if (send >= 0) f(send);
    const int sync = implied.sync_of[static_cast<std::size_t>(op)];
    if (sync >= 0)
        for (int other : implied.sync_members[static_cast<std::size_t>(sync)])
            if (other != op)
                for (std::uint32_t p : graph.predecessors(other)) f(static_cast<int>(p));
}

// Topological order that keeps the graph's own order wherever it can (Kahn's
// algorithm, always taking the lowest-numbered ready op). When every edge
// already points backwards, that order is 0..n-1 and costs one scan.
std::vector<int> topological_order(const WorkloadGraph& graph, const ImpliedEdges& implied) {
    const int n = static_cast<int>(graph.ops.size());
    bool in_order = true;
    for (int i = 0; i < n && in_order; ++i)
        for_each_predecessor(graph, implied, i, [&](int p) {
            if (p >= i) in_order = false;
        });
    std::vector<int> order;
    order.reserve(static_cast<std::size_t>(n));
    if (in_order) {
        for (int i = 0; i < n; ++i) order.push_back(i);
        return order;
    }
    // Successor lists in one array (CSR), then Kahn's algorithm.
    std::vector<int> pending(static_cast<std::size_t>(n), 0);
    std::vector<int> first(static_cast<std::size_t>(n) + 1, 0);
    for (int i = 0; i < n; ++i)
        for_each_predecessor(graph, implied, i, [&](int p) {
            ++pending[static_cast<std::size_t>(i)];
            ++first[static_cast<std::size_t>(p) + 1];
        });
    for (int i = 0; i < n; ++i) first[static_cast<std::size_t>(i) + 1] += first[static_cast<std::size_t>(i)];
    std::vector<int> successors(static_cast<std::size_t>(first.back()));
    std::vector<int> fill(first.begin(), first.end() - 1);
    for (int i = 0; i < n; ++i)
        for_each_predecessor(graph, implied, i, [&](int p) { successors[static_cast<std::size_t>(fill[static_cast<std::size_t>(p)]++)] = i; });
    std::vector<int> heap;
    heap.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        if (pending[static_cast<std::size_t>(i)] == 0) heap.push_back(i);
    std::make_heap(heap.begin(), heap.end(), std::greater<int>());
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), std::greater<int>());
        const int op = heap.back();
        heap.pop_back();
        order.push_back(op);
        for (int k = first[static_cast<std::size_t>(op)]; k < first[static_cast<std::size_t>(op) + 1]; ++k) {
            const int s = successors[static_cast<std::size_t>(k)];
            if (--pending[static_cast<std::size_t>(s)] == 0) {
                heap.push_back(s);
                std::push_heap(heap.begin(), heap.end(), std::greater<int>());
            }
        }
    }
    if (static_cast<int>(order.size()) != n) {
        int stuck = 0;
        while (pending[static_cast<std::size_t>(stuck)] == 0) ++stuck;
        fail_on_op(graph, stuck, "is part of a dependency cycle");
    }
    return order;
}

}  // namespace

Schedule evaluate(const WorkloadGraph& graph, const EvaluationSystem& sys) {
    if (sys.issue == IssuePolicy::ReadyLowestIndex) return evaluate_in_issue_order(graph, sys);
    check_op_references(graph, true);
    const int n = static_cast<int>(graph.ops.size());
    const ImpliedEdges implied = imply_edges(graph);
    const std::vector<int> order = topological_order(graph, implied);
    const OpPrices durations = price_ops(graph, sys);

    Schedule out;
    out.ops.assign(static_cast<std::size_t>(n), {});
    out.exposed_ns.assign(static_cast<std::size_t>(n), 0.0);
    out.roles.assign(static_cast<std::size_t>(graph.roles), {});

    // Stream state per role: compute, memory, one per network dimension.
    const int dims = static_cast<int>(sys.network->dimensions.size());
    const int streams_per_role = 2 + dims;
    struct StreamState {
        double free_at = 0;
        int last_op = -1;
    };
    std::vector<StreamState> streams(static_cast<std::size_t>(graph.roles * streams_per_role));
    auto stream = [&](int role, int index) -> StreamState& {
        return streams[static_cast<std::size_t>(role * streams_per_role + index)];
    };
    std::vector<char> done(static_cast<std::size_t>(n), 0);

    // The streams an op occupies: compute 0, memory 1, dimension d at 2 + d.
    auto occupied = [&](const Op& op, int* list) -> int {
        switch (op.kind) {
            case OpKind::Compute: list[0] = 0; return 1;
            case OpKind::Memory: list[0] = 1; return 1;
            case OpKind::Recv: return 0;
            case OpKind::Collective:
            case OpKind::Send: {
                int count = 0;
                const CommGroup& g = graph.groups[static_cast<std::size_t>(op.group)];
                for (int d = 0; d < dims && d < static_cast<int>(g.members.size()); ++d)
                    if (g.members[static_cast<std::size_t>(d)] > 1) list[count++] = 2 + d;
                return count;
            }
        }
        return 0;
    };

    std::vector<int> stream_list(static_cast<std::size_t>(streams_per_role));
    for (int op_index : order) {
        if (done[static_cast<std::size_t>(op_index)]) continue;
        const int sync = implied.sync_of[static_cast<std::size_t>(op_index)];
        // The members processed together: the op alone, or every role's view of one collective.
        const int alone = op_index;
        const std::span<const int> members =
            sync >= 0 ? std::span<const int>(implied.sync_members[static_cast<std::size_t>(sync)])
                      : std::span<const int>(&alone, 1);

        double start = 0;
        int bound_by = -1;
        for (int m : members) {
            for_each_predecessor(graph, implied, m, [&](int p) {
                const double end = out.ops[static_cast<std::size_t>(p)].end_ns;
                if (end > start || (end == start && bound_by < 0 && end > 0)) {
                    start = end;
                    bound_by = p;
                }
            });
        }
        double compute_free_before = -1;
        for (int m : members) {
            const Op& op = graph.ops[static_cast<std::size_t>(m)];
            const int count = occupied(op, stream_list.data());
            for (int k = 0; k < count; ++k) {
                const StreamState& s = stream(op.role, stream_list[static_cast<std::size_t>(k)]);
                if (stream_list[static_cast<std::size_t>(k)] == 0) compute_free_before = s.free_at;
                if (s.free_at > start) {
                    start = s.free_at;
                    bound_by = s.last_op;
                }
            }
        }
        for (int m : members) {
            const Op& op = graph.ops[static_cast<std::size_t>(m)];
            const double end = start + durations.ns[static_cast<std::size_t>(m)];
            out.ops[static_cast<std::size_t>(m)] = {start, end, bound_by};
            done[static_cast<std::size_t>(m)] = 1;
            const int count = occupied(op, stream_list.data());
            for (int k = 0; k < count; ++k) {
                StreamState& s = stream(op.role, stream_list[static_cast<std::size_t>(k)]);
                s.free_at = end;
                s.last_op = m;
            }
        }
        // A compute op that waited for communication: that communication was exposed.
        if (compute_free_before >= 0 && bound_by >= 0 && start > compute_free_before) {
            const OpKind k = graph.ops[static_cast<std::size_t>(bound_by)].kind;
            if (k == OpKind::Collective || k == OpKind::Send || k == OpKind::Recv)
                out.exposed_ns[static_cast<std::size_t>(bound_by)] += start - compute_free_before;
        }
    }

    summarize_schedule(graph, sys, durations, out);
    return out;
}

}  // namespace dtcalc
