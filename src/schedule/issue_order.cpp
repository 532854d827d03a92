#include "schedule/issue_order.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "collective/collective_cost.h"
#include "core/error.h"
#include "schedule/op_pricing.h"
#include "schedule/role_couplings.h"

namespace dtcalc {
namespace {

constexpr int kStreams = 3;  // accelerator compute, host compute, communication
constexpr int kNoStream = -1;


int stream_of(const Op& op) {
    switch (op.kind) {
        case OpKind::Compute: return op.host ? 1 : 0;
        case OpKind::Collective:
        case OpKind::Send:
        case OpKind::Memory: return 2;
        case OpKind::Recv: return kNoStream;
    }
    return kNoStream;
}

struct Event {
    double time;
    std::uint64_t seq;
    int op;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

// The discrete-event list scheduler itself.
class IssueScheduler {
public:
    IssueScheduler(const WorkloadGraph& graph, const OpPrices& pricing, const RoleCouplings& couplings, Schedule& out)
        : graph_(graph), ns_(pricing.ns), couplings_(couplings), out_(out) {
        const std::size_t n = graph.ops.size();
        const std::size_t roles = static_cast<std::size_t>(graph.roles);
        pending_.assign(n, 0);
        first_succ_.assign(n + 1, 0);
        for (std::size_t i = 0; i < n; ++i) {
            pending_[i] = static_cast<int>(graph.ops[i].dep_count);
            for (std::uint32_t p : graph.predecessors(static_cast<int>(i))) ++first_succ_[p + 1];
        }
        for (std::size_t i = 0; i < n; ++i) first_succ_[i + 1] += first_succ_[i];
        succ_.resize(first_succ_.back());
        std::vector<std::uint32_t> fill(first_succ_.begin(), first_succ_.end() - 1);
        for (std::size_t i = 0; i < n; ++i)
            for (std::uint32_t p : graph.predecessors(static_cast<int>(i))) succ_[fill[p]++] = static_cast<int>(i);
        ready_.resize(roles * kStreams);
        busy_.assign(roles * kStreams, 0);
        last_on_stream_.assign(roles * kStreams, -1);
        compute_free_at_.assign(roles, 0.0);
        state_.assign(n, State::Waiting);
        ready_time_.assign(n, 0.0);
        ready_by_.assign(n, -1);
        waiting_recv_.assign(n, -1);
        sync_issued_.assign(couplings.sync_members.size(), 0);
        sync_latest_.assign(couplings.sync_members.size(), -1);
    }

    void run() {
        const int n = static_cast<int>(graph_.ops.size());
        for (int i = 0; i < n; ++i)
            if (pending_[static_cast<std::size_t>(i)] == 0) make_ready(i, 0.0);
        for (int r = 0; r < graph_.roles; ++r) issue_ready(r, 0.0);
        while (!events_.empty()) {
            std::pop_heap(events_.begin(), events_.end(), std::greater<Event>());
            const Event e = events_.back();
            events_.pop_back();
            finish(e.op, e.time);
        }
        for (int i = 0; i < n; ++i)
            if (state_[static_cast<std::size_t>(i)] != State::Done) report_stuck(i);
    }

private:
    enum class State : std::uint8_t { Waiting, Ready, Issued, Done };

    void push(double time, int op) {
        events_.push_back({time, seq_++, op});
        std::push_heap(events_.begin(), events_.end(), std::greater<Event>());
    }

    std::vector<int>& ready_heap(int role, int stream) {
        return ready_[static_cast<std::size_t>(role * kStreams + stream)];
    }

    void make_ready(int op, double t) {
        state_[static_cast<std::size_t>(op)] = State::Ready;
        ready_time_[static_cast<std::size_t>(op)] = t;
        const Op& o = graph_.ops[static_cast<std::size_t>(op)];
        const int s = stream_of(o);
        if (s == kNoStream) {
            issue(op, t);
            return;
        }
        std::vector<int>& heap = ready_heap(o.role, s);
        heap.push_back(op);
        std::push_heap(heap.begin(), heap.end(), std::greater<int>());
    }

    // Every free stream of the role starts its lowest-index ready op.
    void issue_ready(int role, double t) {
        for (int s = 0; s < kStreams; ++s) {
            const std::size_t slot = static_cast<std::size_t>(role * kStreams + s);
            std::vector<int>& heap = ready_[slot];
            if (busy_[slot] || heap.empty()) continue;
            std::pop_heap(heap.begin(), heap.end(), std::greater<int>());
            const int op = heap.back();
            heap.pop_back();
            issue(op, t);
        }
    }

    void issue(int op, double t) {
        const std::size_t i = static_cast<std::size_t>(op);
        const Op& o = graph_.ops[i];
        state_[i] = State::Issued;
        OpTiming& timing = out_.ops[i];
        timing.start_ns = t;
        const int s = stream_of(o);
        if (s != kNoStream) {
            const std::size_t slot = static_cast<std::size_t>(o.role * kStreams + s);
            // Waited for its stream: the op that held it bound the start.
            timing.bound_by = t > ready_time_[i] ? last_on_stream_[slot] : ready_by_[i];
            if (s == 0) {
                const double idle_since = compute_free_at_[static_cast<std::size_t>(o.role)];
                const int b = timing.bound_by;
                if (b >= 0 && t > idle_since && is_comm(graph_.ops[static_cast<std::size_t>(b)].kind))
                    out_.exposed_ns[static_cast<std::size_t>(b)] += t - idle_since;
            }
            busy_[slot] = 1;
            last_on_stream_[slot] = op;
        } else {
            timing.bound_by = ready_by_[i];
        }
        switch (o.kind) {
            case OpKind::Recv: {
                const int send = couplings_.matching_send[i];
                if (state_[static_cast<std::size_t>(send)] >= State::Issued) {
                    end_recv(op, send);
                } else {
                    waiting_recv_[static_cast<std::size_t>(send)] = op;
                }
                return;
            }
            case OpKind::Send: {
                push(t + ns_[i], op);
                const int waiting = waiting_recv_[i];
                if (waiting >= 0) end_recv(waiting, op);
                return;
            }
            case OpKind::Collective: {
                const int sync = couplings_.sync_of[i];
                if (sync < 0) break;
                const std::size_t k = static_cast<std::size_t>(sync);
                const std::vector<int>& members = couplings_.sync_members[k];
                const int latest = sync_latest_[k];
                if (latest < 0 || t >= out_.ops[static_cast<std::size_t>(latest)].start_ns) sync_latest_[k] = op;
                if (++sync_issued_[k] < static_cast<int>(members.size())) return;
                const double begin = out_.ops[static_cast<std::size_t>(sync_latest_[k])].start_ns;
                for (int m : members) {
                    OpTiming& mt = out_.ops[static_cast<std::size_t>(m)];
                    if (begin > mt.start_ns) mt.bound_by = sync_latest_[k];
                    push(begin + ns_[static_cast<std::size_t>(m)], m);
                }
                return;
            }
            default: break;
        }
        push(t + ns_[i], op);
    }

    // A receive ends when both it and its message are there.
    void end_recv(int recv, int send) {
        const double sent = out_.ops[static_cast<std::size_t>(send)].start_ns + ns_[static_cast<std::size_t>(send)];
        OpTiming& timing = out_.ops[static_cast<std::size_t>(recv)];
        if (sent > timing.start_ns) timing.bound_by = send;
        push(std::max(timing.start_ns, sent), recv);
    }

    void finish(int op, double t) {
        const std::size_t i = static_cast<std::size_t>(op);
        const Op& o = graph_.ops[i];
        state_[i] = State::Done;
        out_.ops[i].end_ns = t;
        const int s = stream_of(o);
        if (s != kNoStream) busy_[static_cast<std::size_t>(o.role * kStreams + s)] = 0;
        if (s == 0) compute_free_at_[static_cast<std::size_t>(o.role)] = t;
        int other_role = -1;
        for (std::uint32_t k = first_succ_[i]; k < first_succ_[i + 1]; ++k) {
            const int next = succ_[k];
            if (--pending_[static_cast<std::size_t>(next)] > 0) continue;
            ready_by_[static_cast<std::size_t>(next)] = op;
            make_ready(next, t);
            const int role = graph_.ops[static_cast<std::size_t>(next)].role;
            if (role != o.role) other_role = role;
        }
        issue_ready(o.role, t);
        if (other_role >= 0) issue_ready(other_role, t);  // an edge across roles (rare)
    }

    static bool is_comm(OpKind k) { return k == OpKind::Collective || k == OpKind::Send || k == OpKind::Recv; }

    [[noreturn]] void report_stuck(int op) const {
        const std::size_t i = static_cast<std::size_t>(op);
        const Op& o = graph_.ops[i];
        if (state_[i] == State::Waiting) {
            for (std::uint32_t p : graph_.predecessors(op))
                if (state_[p] != State::Done)
                    fail_on_op(graph_, op, "never starts: it waits for " + graph_.op_label(static_cast<int>(p)) +
                                         ", which never ends (a dependency cycle or a deadlock)");
        }
        if (o.kind == OpKind::Recv)
            fail_on_op(graph_, op, "never ends: the matching send, " +
                                 graph_.op_label(couplings_.matching_send[i]) + ", never starts (deadlock)");
        if (o.kind == OpKind::Collective && couplings_.sync_of[i] >= 0) {
            for (int m : couplings_.sync_members[static_cast<std::size_t>(couplings_.sync_of[i])])
                if (state_[static_cast<std::size_t>(m)] < State::Issued)
                    fail_on_op(graph_, op, "never ends: role " + std::to_string(graph_.ops[static_cast<std::size_t>(m)].role) +
                                         " never reaches its part of the collective, " + graph_.op_label(m) +
                                         " (deadlock)");
        }
        fail_on_op(graph_, op, "never starts: its stream stays busy with an op that never ends (deadlock)");
    }

    const WorkloadGraph& graph_;
    const std::vector<double>& ns_;
    const RoleCouplings& couplings_;
    Schedule& out_;
    std::vector<int> pending_;
    std::vector<std::uint32_t> first_succ_;
    std::vector<int> succ_;
    std::vector<std::vector<int>> ready_;
    std::vector<char> busy_;
    std::vector<int> last_on_stream_;
    std::vector<double> compute_free_at_;
    std::vector<State> state_;
    std::vector<double> ready_time_;
    std::vector<int> ready_by_;
    std::vector<int> waiting_recv_;  // send -> the receive that waits for it
    std::vector<int> sync_issued_;
    std::vector<int> sync_latest_;
    std::vector<Event> events_;
    std::uint64_t seq_ = 0;
};

}  // namespace

Schedule evaluate_in_issue_order(const WorkloadGraph& graph, const EvaluationSystem& sys) {
    check_op_references(graph, false);
    const OpPrices pricing = price_ops(graph, sys);
    const RoleCouplings couplings = couple_roles(graph);
    Schedule out;
    out.ops.assign(graph.ops.size(), {});
    out.exposed_ns.assign(graph.ops.size(), 0.0);
    IssueScheduler(graph, pricing, couplings, out).run();
    summarize_schedule(graph, sys, pricing, out);
    return out;
}

}  // namespace dtcalc
