#include "chakra/run_statistics.h"

#include <algorithm>
#include <cmath>

#include "chakra/memory_tracker.h"
#include "core/error.h"
#include "core/interval_union.h"

namespace dtcalc::chakra {
namespace {

// Whole cycles of a time; a time of 2^63 ns (292 years) or more is out of range (llround would overflow).
// `workload` (the trace prefix) names the run in the message.
std::uint64_t cycles(double ns, const std::string& workload) {
    if (!(ns < 9.2e18))
        throw InputError({workload, 0, 0, ""}, "out of range: the run takes more than 9.2e18 cycles (292 years); "
                                               "accepted are runs shorter than 2^63 cycles");
    return ns > 0 ? static_cast<std::uint64_t>(std::llround(ns)) : 0;
}

AstraRankStats role_statistics(const TraceGraph& trace, const Schedule& schedule, const SystemConfig& system, int role) {
    AstraRankStats s;
    const std::uint32_t begin = trace.role_ops[static_cast<std::size_t>(role)];
    const std::uint32_t end = trace.role_ops[static_cast<std::size_t>(role) + 1];
    std::vector<std::pair<double, double>> intervals[4];
    bool present[4] = {false, false, false, false};
    double finish = 0, gpu_work = 0;
    double weight = 1, bound = 0, compute_util = 0, memory_util = 0, intensity = 0;
    const double peak = system.peak_perf_tflops * 1e12;
    const double bandwidth = system.local_mem_bw_gbps * 1e9;
    for (std::uint32_t i = begin; i < end; ++i) {
        const TraceOp& op = trace.ops[i];
        const OpTiming& t = schedule.ops[i];
        const double d = t.end_ns - t.start_ns;
        finish = std::max(finish, t.end_ns);
        const auto c = static_cast<std::size_t>(op.op_class);
        present[c] = true;
        intervals[c].emplace_back(t.start_ns, t.end_ns);
        if (op.op_class == OpClass::Gpu) gpu_work += d;
        if (op.op_class == OpClass::Gpu || op.op_class == OpClass::Cpu) {
            weight += d;
            if (op.compute.roofline) {
                if (!op.compute.memory_bound) bound += d;
                if (peak > 0) compute_util += op.compute.perf_flops / peak * d;
                if (bandwidth > 0 && op.compute.intensity > 0)
                    memory_util += op.compute.perf_flops / op.compute.intensity / bandwidth * d;
                intensity += op.compute.intensity * d;
            }
        }
    }
    s.finish_cycles = cycles(finish, trace.traces.prefix);
    s.wall_cycles = s.finish_cycles;
    s.exposed_comm_cycles = s.finish_cycles - std::min(s.finish_cycles, cycles(gpu_work, trace.traces.prefix));
    auto time_of = [&](OpClass c) -> std::optional<std::uint64_t> {
        const auto k = static_cast<std::size_t>(c);
        if (!present[k]) return std::nullopt;
        std::sort(intervals[k].begin(), intervals[k].end());
        return cycles(covered_length(intervals[k]), trace.traces.prefix);
    };
    s.gpu_cycles = time_of(OpClass::Gpu);
    s.cpu_cycles = time_of(OpClass::Cpu);
    s.comm_cycles = time_of(OpClass::Comm);
    s.remote_mem_cycles = time_of(OpClass::RemoteMemory);
    if (trace.invalid_nodes[static_cast<std::size_t>(role)] > 0) s.invalid_cycles = 0;
    s.roofline = system.roofline_enabled;
    s.compute_bound_pct = 100.0 * bound / weight;
    s.compute_utilization_pct = 100.0 * compute_util / weight;
    s.memory_utilization_pct = 100.0 * memory_util / weight;
    s.operation_intensity = intensity / weight;
    if (system.track_local_mem) s.peak_memory_bytes = peak_local_memory(trace, schedule, role);
    return s;
}

}  // namespace

std::vector<AstraRankStats> astra_statistics(const TraceGraph& trace, const Schedule& schedule,
                                             const SystemConfig& system) {
    std::vector<AstraRankStats> per_role;
    for (int role = 0; role < trace.graph.roles; ++role)
        per_role.push_back(role_statistics(trace, schedule, system, role));
    std::vector<AstraRankStats> ranks;
    ranks.reserve(trace.graph.rank_role.size());
    for (std::size_t r = 0; r < trace.graph.rank_role.size(); ++r) {
        AstraRankStats s = per_role[static_cast<std::size_t>(trace.graph.rank_role[r])];
        s.sys_id = static_cast<int>(r);
        ranks.push_back(s);
    }
    return ranks;
}

}  // namespace dtcalc::chakra
