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
#include "schedule/link_sharing.h"
#include "schedule/op_pricing.h"
#include "schedule/role_couplings.h"

namespace dtcalc {

EvaluationSystem roofline_evaluation(const System& system) {
    EvaluationSystem eval;
    eval.system = &system;
    eval.device = roofline_device(system.config.peak_perf_tflops, system.config.local_mem_bw_gbps);
    return eval;
}

namespace {

// An op's predecessors: its edges, its matching send, and the predecessors of
// the other ops of its collective (they start together).
template <class F>
void for_each_predecessor(const WorkloadGraph& graph, const RoleCouplings& implied, int op, F&& f) {
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
std::vector<int> topological_order(const WorkloadGraph& graph, const RoleCouplings& implied) {
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
    const RoleCouplings implied = couple_roles(graph);
    const std::vector<int> order = topological_order(graph, implied);
    const OpPrices durations = price_ops(graph, sys);

    Schedule out;
    out.ops.assign(static_cast<std::size_t>(n), {});
    out.exposed_ns.assign(static_cast<std::size_t>(n), 0.0);
    out.roles.assign(static_cast<std::size_t>(graph.roles), {});

    // Stream state per role: compute, memory, one per network dimension and lane.
    const int dims = static_cast<int>(sys.system->network.dimensions.size());
    const int lanes = std::max(1, graph.lanes);
    const int streams_per_role = 2 + dims * lanes;
    struct StreamState {
        double free_at = 0;
        double started_at = 0;  // of the last op
        int last_op = -1;
    };
    std::vector<StreamState> streams(static_cast<std::size_t>(graph.roles * streams_per_role));
    auto stream = [&](int role, int index) -> StreamState& {
        return streams[static_cast<std::size_t>(role * streams_per_role + index)];
    };
    std::vector<char> done(static_cast<std::size_t>(n), 0);

    // The streams an op occupies: compute 0, memory 1, dimension d and lane l at 2 + d x lanes + l.
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
                    if (g.members[static_cast<std::size_t>(d)] > 1) list[count++] = 2 + d * lanes + op.lane;
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
            const int count = occupied(op, stream_list.data());
            double end = start + durations.ns[static_cast<std::size_t>(m)];
            const bool on_links = op.kind == OpKind::Collective || op.kind == OpKind::Send;
            if (lanes > 1 && on_links && count > 0) {  // other lanes on the same dimensions share the links
                LaneBusy busy;
                for (int k = 0; k < count; ++k) {
                    const int first_lane = stream_list[static_cast<std::size_t>(k)] - op.lane;
                    for (int l = 0; l < lanes; ++l) {
                        const StreamState& other = stream(op.role, first_lane + l);
                        if (l != op.lane && other.free_at > start) busy = merge_busy(busy, {other.started_at, other.free_at});
                    }
                }
                end = shared_link_end(start, durations.ns[static_cast<std::size_t>(m)], busy);
            }
            out.ops[static_cast<std::size_t>(m)] = {start, end, bound_by};
            done[static_cast<std::size_t>(m)] = 1;
            for (int k = 0; k < count; ++k) {
                StreamState& s = stream(op.role, stream_list[static_cast<std::size_t>(k)]);
                s.free_at = end;
                s.started_at = start;
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
