#include "report/astra_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace dtcalc {
namespace {

// ASTRA-sim's peak-memory formatting: float value, powers of 1024.
std::string human_bytes(std::uint64_t bytes) {
    const char* units[] = {"B", "KB", "MB", "GB", "TB"};
    float value = static_cast<float>(bytes);
    int unit = 0;
    std::uint64_t limit = 1024;
    while (unit < 4 && bytes >= limit) {
        ++unit;
        value = static_cast<float>(bytes) / static_cast<float>(limit);
        if (unit < 4) limit *= 1024;
    }
    return fmt::format("{:.2f} {}", value, units[unit]);
}

std::string optional_text(const std::optional<std::uint64_t>& v) { return v ? std::to_string(*v) : std::string(); }

}  // namespace

void write_astra_log(std::ostream& out, std::span<const AstraRankStats> ranks, const AstraLogOptions& options) {
    std::vector<const AstraRankStats*> order;
    for (const AstraRankStats& r : ranks) order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](const AstraRankStats* a, const AstraRankStats* b) {
        return a->finish_cycles != b->finish_cycles ? a->finish_cycles < b->finish_cycles : a->sys_id < b->sys_id;
    });
    const std::string workload = "[" + options.timestamp + "] [workload] [info] ";
    const std::string stats = "[" + options.timestamp + "] [statistics] [info] ";
    std::string text;
    for (const AstraRankStats* r : order) {
        const int id = r->sys_id;
        text += fmt::format("{}sys[{}] finished, {} cycles, exposed communication {} cycles.\n", workload, id,
                            r->finish_cycles, r->exposed_comm_cycles);
        text += fmt::format("{}sys[{}]. Post statistics processing start.\n", stats, id);
        text += fmt::format("{}sys[{}]. Post statistics processing end.\n", stats, id);
        text += fmt::format("{}sys[{}], Wall time: {}\n", stats, id, r->wall_cycles);
        if (r->cpu_cycles) text += fmt::format("{}sys[{}], CPU time: {}\n", stats, id, *r->cpu_cycles);
        if (r->gpu_cycles) text += fmt::format("{}sys[{}], GPU time: {}\n", stats, id, *r->gpu_cycles);
        if (r->comm_cycles) text += fmt::format("{}sys[{}], Comm time: {}\n", stats, id, *r->comm_cycles);
        if (r->remote_mem_cycles)
            text += fmt::format("{}sys[{}], Remote mem time: {}\n", stats, id, *r->remote_mem_cycles);
        if (r->invalid_cycles) text += fmt::format("{}sys[{}], Invalid time: {}\n", stats, id, *r->invalid_cycles);
        if (r->roofline) {
            text += fmt::format("{}sys[{}], Compute bound percentage: {:.3f}%\n", stats, id, r->compute_bound_pct);
            text += fmt::format("{}sys[{}], Average compute utilization: {:.3f}%\n", stats, id,
                                r->compute_utilization_pct);
            text += fmt::format("{}sys[{}], Average memory utilization: {:.3f}%\n", stats, id,
                                r->memory_utilization_pct);
            text += fmt::format("{}sys[{}], Average operation intensity: {:.3f}\n", stats, id, r->operation_intensity);
        }
        if (r->peak_memory_bytes) {
            const std::string peak =
                options.human_memory ? human_bytes(*r->peak_memory_bytes) : std::to_string(*r->peak_memory_bytes);
            text += fmt::format("{}sys[{}] peak memory usage: {}\n", workload, id, peak);
        }
    }
    out << text;
}

void write_astra_csv(std::ostream& out, std::span<const AstraRankStats> ranks) {
    std::string text =
        "sys_id,finish_cycles,wall_cycles,gpu_cycles,cpu_cycles,comm_cycles,remote_mem_cycles,exposed_comm_cycles,"
        "compute_bound_pct,comp_util_pct,mem_util_pct,op_intensity,peak_mem_bytes\n";
    for (const AstraRankStats& r : ranks) {
        text += fmt::format("{},{},{},{},{},{},{},{},", r.sys_id, r.finish_cycles, r.wall_cycles,
                            optional_text(r.gpu_cycles), optional_text(r.cpu_cycles), optional_text(r.comm_cycles),
                            optional_text(r.remote_mem_cycles), r.exposed_comm_cycles);
        if (r.roofline)
            text += fmt::format("{:.3f},{:.3f},{:.3f},{:.3f},", r.compute_bound_pct, r.compute_utilization_pct,
                                r.memory_utilization_pct, r.operation_intensity);
        else
            text += ",,,,";
        text += optional_text(r.peak_memory_bytes) + "\n";
    }
    out << text;
}

void write_astra_json(std::ostream& out, const AstraRunSummary& run, std::span<const AstraRankStats> ranks) {
    nlohmann::ordered_json doc;
    doc["workload"] = run.workload;
    doc["npus"] = run.npus;
    doc["roles"] = run.roles;
    doc["trace_nodes"] = run.trace_nodes;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const AstraRankStats& r : ranks) {
        nlohmann::ordered_json j;
        j["sys_id"] = r.sys_id;
        j["finish_cycles"] = r.finish_cycles;
        j["wall_cycles"] = r.wall_cycles;
        j["exposed_comm_cycles"] = r.exposed_comm_cycles;
        auto put = [&](const char* key, const std::optional<std::uint64_t>& v) {
            j[key] = v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
        };
        put("gpu_cycles", r.gpu_cycles);
        put("cpu_cycles", r.cpu_cycles);
        put("comm_cycles", r.comm_cycles);
        put("remote_mem_cycles", r.remote_mem_cycles);
        if (r.roofline) {
            j["compute_bound_pct"] = r.compute_bound_pct;
            j["comp_util_pct"] = r.compute_utilization_pct;
            j["mem_util_pct"] = r.memory_utilization_pct;
            j["op_intensity"] = r.operation_intensity;
        }
        put("peak_mem_bytes", r.peak_memory_bytes);
        list.push_back(std::move(j));
    }
    doc["ranks"] = std::move(list);
    out << doc.dump(2) << "\n";
}

}  // namespace dtcalc
