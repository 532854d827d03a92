#include "schedule/op_pricing.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

#include "collective/collective_cost.h"
#include "core/error.h"
#include "core/interval_union.h"

namespace dtcalc {
namespace {

}  // namespace

void fail_on_op(const WorkloadGraph& graph, int op, const std::string& message) {
    throw InputError({"", 0, 0, "workload"}, graph.op_label(op) + ": " + message);
}

void check_op_references(const WorkloadGraph& graph, bool priced_needs_group) {
    const int n = static_cast<int>(graph.ops.size());
    for (int i = 0; i < n; ++i) {
        const Op& op = graph.ops[static_cast<std::size_t>(i)];
        if (op.role < 0 || op.role >= graph.roles) fail_on_op(graph, i, "role " + std::to_string(op.role) + " does not exist");
        for (std::uint32_t p : graph.predecessors(i))
            if (p >= static_cast<std::uint32_t>(n))
                fail_on_op(graph, i, "depends on op " + std::to_string(p) + ", which does not exist");
        const bool needs_group = (op.kind == OpKind::Collective || op.kind == OpKind::Send) &&
                                 (priced_needs_group || op.duration_ns < 0);
        if (needs_group && (op.group < 0 || op.group >= static_cast<int>(graph.groups.size())))
            fail_on_op(graph, i, "has no valid communicator group");
        if ((op.kind == OpKind::Send || op.kind == OpKind::Recv) && (op.peer_role < 0 || op.peer_role >= graph.roles))
            fail_on_op(graph, i, "peer role " + std::to_string(op.peer_role) + " does not exist");
        if (!std::isfinite(op.flops) || !std::isfinite(op.bytes) || !std::isfinite(op.duration_ns) || op.flops < 0 ||
            op.bytes < 0)
            fail_on_op(graph, i, "has a negative or non-finite cost");
    }
}

OpPrices price_ops(const WorkloadGraph& graph, const EvaluationSystem& sys) {
    const std::size_t n = graph.ops.size();
    OpPrices p;
    p.ns.assign(n, 0.0);
    p.compute_bound.assign(n, -1);
    std::unordered_map<std::uint64_t, double> cache;  // (bytes, group, kind) -> ns
    for (std::size_t i = 0; i < n; ++i) {
        const Op& op = graph.ops[i];
        const int index = static_cast<int>(i);
        if (op.duration_ns >= 0) {  // priced by whoever built the graph
            p.ns[i] = op.kind == OpKind::Recv ? 0.0 : op.duration_ns;
            continue;
        }
        switch (op.kind) {
            case OpKind::Compute: {
                if (!can_time(sys.device, op.flops, op.bytes))
                    fail_on_op(graph, index, "needs the device's peak-perf and local-mem-bw to be timed by the roofline");
                const RooflineTime r = roofline_time(sys.device, op.flops, op.bytes);
                p.ns[i] = r.ns;
                p.compute_bound[i] = r.compute_bound ? 1 : 0;
                break;
            }
            case OpKind::Memory:
                if (op.bytes > 0) {
                    if (sys.memory_stream_gbps <= 0) fail_on_op(graph, index, "needs a memory bandwidth to be timed");
                    p.ns[i] = op.bytes / sys.memory_stream_gbps;
                }
                break;
            case OpKind::Collective:
            case OpKind::Send: {
                const CollectiveKind kind = op.kind == OpKind::Send ? CollectiveKind::SendRecv : op.collective;
                const std::uint64_t key = (op.comm_bytes << 16) ^ (static_cast<std::uint64_t>(op.group) << 4) ^
                                          static_cast<std::uint64_t>(kind);
                auto found = cache.find(key);
                if (found == cache.end()) {
                    const CollectiveQuery q{kind, op.comm_bytes, graph.groups[static_cast<std::size_t>(op.group)], {}};
                    double ns = 0;
                    try {
                        ns = collective_time(*sys.system, q).time_ns;
                    } catch (const InputError& e) {  // keep a system file's location: it is what to fix
                        fail_on_op(graph, index, e.where().file.empty() ? e.detail() : std::string(e.what()));
                    }
                    found = cache.emplace(key, ns).first;
                }
                p.ns[i] = found->second;
                break;
            }
            case OpKind::Recv: break;
        }
    }
    return p;
}

void summarize_schedule(const WorkloadGraph& graph, const EvaluationSystem& sys, const OpPrices& prices, Schedule& out) {
    const int n = static_cast<int>(graph.ops.size());
    out.roles.assign(static_cast<std::size_t>(graph.roles), {});
    std::vector<std::vector<std::pair<double, double>>> comm(static_cast<std::size_t>(graph.roles));
    RooflineStats& rs = out.roofline;
    int compute_bound = 0;
    for (int i = 0; i < n; ++i) {
        const Op& op = graph.ops[static_cast<std::size_t>(i)];
        const OpTiming& t = out.ops[static_cast<std::size_t>(i)];
        RoleSummary& role = out.roles[static_cast<std::size_t>(op.role)];
        role.wall_ns = std::max(role.wall_ns, t.end_ns);
        if (op.kind == OpKind::Compute && !op.host) role.compute_busy_ns += t.end_ns - t.start_ns;
        if ((op.kind == OpKind::Collective || op.kind == OpKind::Send) && t.end_ns > t.start_ns)
            comm[static_cast<std::size_t>(op.role)].emplace_back(t.start_ns, t.end_ns);
        const signed char cb = prices.compute_bound[static_cast<std::size_t>(i)];
        const double ns = t.end_ns - t.start_ns;
        if (cb >= 0 && ns > 0) {
            ++rs.ops;
            compute_bound += cb;
            rs.average_compute_utilization += op.flops / ns / (sys.device.peak_tflops_bf16 * 1e3);
            rs.average_memory_utilization += op.bytes / ns / sys.device.hbm_gbps;
            rs.average_operational_intensity += op.bytes > 0 ? op.flops / op.bytes : 0.0;
        }
    }
    if (rs.ops > 0) {
        rs.compute_bound_percent = 100.0 * compute_bound / rs.ops;
        rs.average_compute_utilization /= rs.ops;
        rs.average_memory_utilization /= rs.ops;
        rs.average_operational_intensity /= rs.ops;
    }
    for (int r = 0; r < graph.roles; ++r) {
        RoleSummary& role = out.roles[static_cast<std::size_t>(r)];
        std::vector<std::pair<double, double>>& busy = comm[static_cast<std::size_t>(r)];
        std::sort(busy.begin(), busy.end());
        role.comm_busy_ns = covered_length(busy);
        role.exposed_comm_ns = std::max(0.0, role.wall_ns - role.compute_busy_ns);
        out.wall_ns = std::max(out.wall_ns, role.wall_ns);
    }
    int last = -1;
    for (int i = 0; i < n; ++i)
        if (last < 0 || out.ops[static_cast<std::size_t>(i)].end_ns > out.ops[static_cast<std::size_t>(last)].end_ns)
            last = i;
    for (int op = last; op >= 0; op = out.ops[static_cast<std::size_t>(op)].bound_by) {
        out.critical_path.push_back(op);
        if (out.critical_path.size() > static_cast<std::size_t>(n)) break;  // defensive: bound_by never loops
    }
    std::reverse(out.critical_path.begin(), out.critical_path.end());
}

}  // namespace dtcalc
