#include "report/iteration_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>

#include "core/text_formats.h"
#include "core/text_prefix.h"

namespace dtcalc {
namespace {

std::string number(double value) { return fmt::format("{:.12g}", value); }

bool is_comm(OpKind k) { return k == OpKind::Collective || k == OpKind::Send || k == OpKind::Recv; }

// Adds op i's time to a row: compute by phase, communication end to end and
// its exposed part by phase.
void add_op_to_row(LayerRow& row, const Op& op, const Schedule& schedule, std::size_t i) {
    const double ns = schedule.ops[i].end_ns - schedule.ops[i].start_ns;
    if (op.kind == OpKind::Compute) {
        switch (op.phase) {
            case OpPhase::Forward: row.fwd_compute_ns += ns; break;
            case OpPhase::WeightGradient: row.wg_compute_ns += ns; break;
            case OpPhase::InputGradient: row.ig_compute_ns += ns; break;
            case OpPhase::Update: row.update_ns += ns; break;
            case OpPhase::Other: row.fwd_compute_ns += ns; break;
        }
    } else if (is_comm(op.kind)) {
        const double exposed = schedule.exposed_ns[i];
        switch (op.phase) {
            case OpPhase::WeightGradient:
            case OpPhase::Update:
                row.wg_comm_ns += ns;
                row.wg_exposed_ns += exposed;
                break;
            case OpPhase::InputGradient:
                row.ig_comm_ns += ns;
                row.ig_exposed_ns += exposed;
                break;
            case OpPhase::Forward:
            case OpPhase::Other:
                row.fwd_comm_ns += ns;
                row.fwd_exposed_ns += exposed;
                break;
        }
    }
}

}  // namespace

IterationReport make_iteration_report(const WorkloadGraph& graph, const Schedule& schedule, int passes) {
    IterationReport r;
    r.passes = passes;
    for (std::int64_t n : graph.role_npus) r.npus += n;
    r.roles = schedule.roles;
    r.roofline = schedule.roofline;
    r.wall_ns = schedule.wall_ns;
    r.iteration_ns = passes > 0 ? schedule.wall_ns / passes : schedule.wall_ns;
    // The headline follows the role that finishes last (ties: the first).
    int slowest = 0;
    for (int i = 1; i < static_cast<int>(schedule.roles.size()); ++i)
        if (schedule.roles[static_cast<std::size_t>(i)].wall_ns > schedule.roles[static_cast<std::size_t>(slowest)].wall_ns)
            slowest = i;
    if (!schedule.roles.empty()) {
        const RoleSummary& s = schedule.roles[static_cast<std::size_t>(slowest)];
        r.compute_ns = s.compute_busy_ns;
        r.comm_ns = s.comm_busy_ns;
        r.exposed_comm_ns = s.exposed_comm_ns;
    }
    r.layers.resize(graph.layers.size());
    for (std::size_t i = 0; i < graph.layers.size(); ++i) r.layers[i].name = graph.layers[i];
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
        const Op& op = graph.ops[i];
        if (op.layer < 0 || op.role != slowest) continue;
        add_op_to_row(r.layers[static_cast<std::size_t>(op.layer)], op, schedule, i);
    }
    for (int op : schedule.critical_path) r.critical_path.push_back(graph.op_label(op));
    return r;
}

std::vector<LayerRow> make_role_rows(const WorkloadGraph& graph, const Schedule& schedule, const std::string& prefix) {
    std::vector<LayerRow> rows(static_cast<std::size_t>(graph.roles));
    for (std::size_t r = 0; r < rows.size(); ++r) rows[r].name = prefix + " " + std::to_string(r);
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
        const Op& op = graph.ops[i];
        if (op.role < 0 || op.role >= graph.roles) continue;
        add_op_to_row(rows[static_cast<std::size_t>(op.role)], op, schedule, i);
    }
    return rows;
}

void write_iteration_table(std::ostream& out, const IterationReport& r, TimeUnit unit) {
    const std::string u(time_unit_name(unit));
    fmt::print(out, "{} on {}, backend {}, {} NPUs, {} pass{}\n", r.workload, r.system_label, r.backend, r.npus,
               r.passes, r.passes == 1 ? "" : "es");
    auto line = [&](const char* label, double ns, const std::string& note = "") {
        fmt::print(out, "  {:<24} {:>16} {}{}\n", label, format_time(unit, ns), u, note.empty() ? "" : "   " + note);
    };
    line("iteration time", r.iteration_ns);
    if (r.passes != 1) line("wall time (all passes)", r.wall_ns);
    const double share = r.wall_ns > 0 ? 100.0 * r.exposed_comm_ns / r.wall_ns : 0.0;
    line("compute time", r.compute_ns);
    line("communication time", r.comm_ns);
    line("exposed communication", r.exposed_comm_ns, fmt::format("({:.1f} % of wall)", share));
    if (r.roofline.ops > 0) {
        fmt::print(out, "  roofline: {:.1f} % compute-bound, compute utilization {:.1f} %, memory utilization {:.1f} %, "
                        "operational intensity {:.1f} FLOP/B\n",
                   r.roofline.compute_bound_percent, 100 * r.roofline.average_compute_utilization,
                   100 * r.roofline.average_memory_utilization, r.roofline.average_operational_intensity);
    }
    if (r.layers.empty()) return;
    fmt::print(out, "\nper layer ({}, summed over passes):\n", u);
    fmt::print(out, "  {:<20} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "layer", "fwd", "ig", "wg",
               "fwd comm", "ig comm", "wg comm", "exposed");
    for (const LayerRow& l : r.layers) {
        fmt::print(out, "  {:<20} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}\n", leading_characters(l.name, 20),
                   format_time(unit, l.fwd_compute_ns), format_time(unit, l.ig_compute_ns), format_time(unit, l.wg_compute_ns),
                   format_time(unit, l.fwd_comm_ns), format_time(unit, l.ig_comm_ns), format_time(unit, l.wg_comm_ns),
                   format_time(unit, l.fwd_exposed_ns + l.ig_exposed_ns + l.wg_exposed_ns));
    }
}

void write_iteration_csv(std::ostream& out, const IterationReport& r, TimeUnit unit) {
    const std::string u(time_unit_name(unit));
    fmt::print(out, "workload,system,backend,npus,passes,iteration_time_{0},wall_time_{0},compute_time_{0},comm_time_{0},exposed_comm_{0}\n", u);
    fmt::print(out, "{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.workload), csv_field(r.system_label), r.backend, r.npus, r.passes,
               number(nanoseconds_to(unit, r.iteration_ns)), number(nanoseconds_to(unit, r.wall_ns)),
               number(nanoseconds_to(unit, r.compute_ns)), number(nanoseconds_to(unit, r.comm_ns)),
               number(nanoseconds_to(unit, r.exposed_comm_ns)));
}

void write_layers_csv(std::ostream& out, const IterationReport& r, TimeUnit unit) {
    const std::string u(time_unit_name(unit));
    fmt::print(out, "layer,fwd_compute_{0},wg_compute_{0},ig_compute_{0},fwd_exposed_comm_{0},wg_exposed_comm_{0},"
                    "ig_exposed_comm_{0},fwd_total_comm_{0},wg_total_comm_{0},ig_total_comm_{0},update_{0}\n", u);
    auto t = [&](double ns) { return number(nanoseconds_to(unit, ns)); };
    for (const LayerRow& l : r.layers)
        fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(l.name), t(l.fwd_compute_ns), t(l.wg_compute_ns),
                   t(l.ig_compute_ns), t(l.fwd_exposed_ns), t(l.wg_exposed_ns), t(l.ig_exposed_ns), t(l.fwd_comm_ns),
                   t(l.wg_comm_ns), t(l.ig_comm_ns), t(l.update_ns));
}

void write_iteration_json(std::ostream& out, const IterationReport& r) {
    auto us = [](double ns) { return number(ns * 1e-3); };
    fmt::print(out, "{{\n  \"workload\": {}, \"system\": {}, \"backend\": {}, \"npus\": {}, \"passes\": {},\n",
               json_string(r.workload), json_string(r.system_label), json_string(r.backend), r.npus, r.passes);
    fmt::print(out, "  \"iteration_time_us\": {}, \"wall_time_us\": {}, \"compute_time_us\": {}, \"comm_time_us\": {}, "
                    "\"exposed_comm_us\": {},\n",
               us(r.iteration_ns), us(r.wall_ns), us(r.compute_ns), us(r.comm_ns), us(r.exposed_comm_ns));
    fmt::print(out, "  \"roofline\": {{\"ops\": {}, \"compute_bound_percent\": {}, \"average_compute_utilization\": {}, "
                    "\"average_memory_utilization\": {}, \"average_operational_intensity\": {}}},\n",
               r.roofline.ops, number(r.roofline.compute_bound_percent), number(r.roofline.average_compute_utilization),
               number(r.roofline.average_memory_utilization), number(r.roofline.average_operational_intensity));
    out << "  \"roles\": [";
    for (std::size_t i = 0; i < r.roles.size(); ++i) {
        const RoleSummary& s = r.roles[i];
        fmt::print(out, "{}{{\"wall_time_us\": {}, \"compute_time_us\": {}, \"comm_time_us\": {}, \"exposed_comm_us\": {}}}",
                   i ? ", " : "", us(s.wall_ns), us(s.compute_busy_ns), us(s.comm_busy_ns), us(s.exposed_comm_ns));
    }
    out << "],\n  \"layers\": [";
    for (std::size_t i = 0; i < r.layers.size(); ++i) {
        const LayerRow& l = r.layers[i];
        fmt::print(out,
                   "{}\n    {{\"name\": {}, \"fwd_compute_us\": {}, \"ig_compute_us\": {}, \"wg_compute_us\": {}, "
                   "\"update_us\": {}, \"fwd_comm_us\": {}, \"ig_comm_us\": {}, \"wg_comm_us\": {}, "
                   "\"fwd_exposed_comm_us\": {}, \"ig_exposed_comm_us\": {}, \"wg_exposed_comm_us\": {}}}",
                   i ? "," : "", json_string(l.name), us(l.fwd_compute_ns), us(l.ig_compute_ns), us(l.wg_compute_ns),
                   us(l.update_ns), us(l.fwd_comm_ns), us(l.ig_comm_ns), us(l.wg_comm_ns), us(l.fwd_exposed_ns),
                   us(l.ig_exposed_ns), us(l.wg_exposed_ns));
    }
    out << (r.layers.empty() ? "],\n" : "\n  ],\n");
    out << "  \"critical_path\": [";
    for (std::size_t i = 0; i < r.critical_path.size(); ++i) out << (i ? ", " : "") << json_string(r.critical_path[i]);
    out << "]\n}\n";
}

}  // namespace dtcalc
