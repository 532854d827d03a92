#include "validate/validation_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <set>
#include <string>

#include "core/text_formats.h"

namespace dtcalc {
namespace {

std::string percent(double fraction) { return fmt::format("{:.2f}%", 100.0 * fraction); }
std::string signed_percent(double fraction) { return fmt::format("{:+.2f}%", 100.0 * fraction); }
std::string number(double value) { return fmt::format("{:.12g}", value); }

std::string gate_text(const GateCheck& g) {
    return fmt::format("{}<={}", error_metric_name(g.metric), percent(g.bound));
}

std::size_t datasets_in(const ValidationReport& report) {
    std::set<std::string> names;
    for (const GroupSummary& g : report.groups) names.insert(g.dataset);
    return names.size();
}

}  // namespace

void write_validation_table(std::ostream& out, const ValidationReport& report, bool per_case) {
    fmt::print(out, "# validate {}: {} datasets, {} cases; error = predicted / measured - 1\n", report.plan_path,
               datasets_in(report), report.cases.size());
    std::size_t wd = 7, wg = 5, wl = 4;
    for (const ValidationCase& c : report.cases) {
        wd = std::max(wd, c.dataset.size());
        wg = std::max(wg, c.group.size());
        wl = std::max(wl, c.label.size());
    }
    fmt::print(out, "\n# summary per group: error = |predicted / measured - 1|{}\n",
               per_case ? "" : " (--verbose lists every case)");
    std::size_t wgs = 5;
    for (const GroupSummary& g : report.groups) wgs = std::max(wgs, g.group.size());
    fmt::print(out, "{:<{}}  {:<{}}  {:>5}  {:>8}  {:>8}  {:>8}  {:>8}  {:>10}  {:<18}  {:<6}  {}\n", "dataset", wd,
               "group", wgs, "cases", "mean", "geomean", "median", "max", "reference", "gate", "status", "note");
    for (const GroupSummary& g : report.groups) {
        const std::string reference = g.reference_geomean ? percent(*g.reference_geomean) : "";
        std::string note = g.note;
        if (g.reference_geomean)
            note = g.reference_name + " geomean on these cases" + (note.empty() ? "" : "; " + note);
        if (g.gates.empty()) {
            fmt::print(out, "{:<{}}  {:<{}}  {:>5}  {:>8}  {:>8}  {:>8}  {:>8}  {:>10}  {:<18}  {:<6}  {}\n", g.dataset,
                       wd, g.group, wgs, g.cases, percent(g.mean), percent(g.geomean), percent(g.median), percent(g.max),
                       reference, "none", "-", note);
            continue;
        }
        for (std::size_t i = 0; i < g.gates.size(); ++i) {
            const GateCheck& gate = g.gates[i];
            std::string line_note = i == 0 ? note : "";
            if (!gate.why.empty()) line_note += (line_note.empty() ? "" : "; ") + gate.why;
            fmt::print(out, "{:<{}}  {:<{}}  {:>5}  {:>8}  {:>8}  {:>8}  {:>8}  {:>10}  {:<18}  {:<6}  {}\n", g.dataset,
                       wd, g.group, wgs, g.cases, percent(g.mean), percent(g.geomean), percent(g.median),
                       percent(g.max), reference, gate_text(gate), gate.passed ? "pass" : "FAIL", line_note);
        }
    }
    for (const std::string& gate : report.unmatched_gates) fmt::print(out, "gate '{}' matched no group: FAIL\n", gate);
    if (per_case) {
        out << "\n# every case\n";
        fmt::print(out, "{:<{}}  {:<{}}  {:<{}}  {:>15}  {:>15}  {:<6}  {:>9}  {:<16}  {:>15}  {:>9}\n", "dataset", wd,
                   "group", wg, "case", wl, "measured", "predicted", "unit", "error", "model", "reference", "ref error");
        for (const ValidationCase& c : report.cases) {
            const std::string reference = c.reference ? fmt::format("{:.3f}", *c.reference) : "";
            const std::string reference_error = c.reference ? signed_percent(*c.reference / c.measured - 1.0) : "";
            fmt::print(out, "{:<{}}  {:<{}}  {:<{}}  {:>15.3f}  {:>15.3f}  {:<6}  {:>9}  {:<16}  {:>15}  {:>9}\n",
                       c.dataset, wd, c.group, wg, c.label, wl, c.measured, c.predicted, c.unit,
                       signed_percent(c.predicted / c.measured - 1.0),
                       c.measured_model.empty() || c.measured_model == c.model
                           ? c.model
                           : c.model + " (NCCL ran " + c.measured_model + ")",
                       reference, reference_error);
        }
    }
    fmt::print(out, "\n{}: {} gates checked, {} failed\n", report.passed() ? "PASS" : "FAIL", report.gates_checked,
               report.gates_failed);
}

void write_validation_csv(std::ostream& out, const ValidationReport& report) {
    fmt::print(out, "dataset,group,case,x,measured,predicted,unit,error,model,reference,reference_error,source\n");
    for (const ValidationCase& c : report.cases) {
        fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(c.dataset), csv_field(c.group),
                   csv_field(c.label), number(c.x), number(c.measured), number(c.predicted), csv_field(c.unit),
                   number(c.predicted / c.measured - 1.0), csv_field(c.model), c.reference ? number(*c.reference) : "",
                   c.reference ? number(*c.reference / c.measured - 1.0) : "", csv_field(c.source));
    }
}

void write_validation_json(std::ostream& out, const ValidationReport& report) {
    fmt::print(out, "{{\n  \"plan\": {},\n  \"passed\": {},\n  \"gates_checked\": {},\n  \"gates_failed\": {},\n",
               json_string(report.plan_path), report.passed() ? "true" : "false", report.gates_checked,
               report.gates_failed);
    out << "  \"unmatched_gates\": [";
    for (std::size_t i = 0; i < report.unmatched_gates.size(); ++i)
        out << (i ? ", " : "") << json_string(report.unmatched_gates[i]);
    out << "],\n  \"groups\": [";
    for (std::size_t i = 0; i < report.groups.size(); ++i) {
        const GroupSummary& g = report.groups[i];
        fmt::print(out,
                   "{}\n    {{\"dataset\": {}, \"group\": {}, \"cases\": {}, \"geomean\": {}, \"median\": {}, "
                   "\"max\": {}, \"mean\": {}, \"reference_geomean\": {}, \"note\": {}, \"gates\": [",
                   i ? "," : "", json_string(g.dataset), json_string(g.group), g.cases, number(g.geomean),
                   number(g.median), number(g.max), number(g.mean),
                   g.reference_geomean ? number(*g.reference_geomean) : "null", json_string(g.note));
        for (std::size_t j = 0; j < g.gates.size(); ++j) {
            const GateCheck& gate = g.gates[j];
            fmt::print(out, "{}{{\"metric\": \"{}\", \"bound\": {}, \"value\": {}, \"passed\": {}}}", j ? ", " : "",
                       error_metric_name(gate.metric), number(gate.bound), number(gate.value),
                       gate.passed ? "true" : "false");
        }
        out << "]}";
    }
    out << (report.groups.empty() ? "],\n" : "\n  ],\n") << "  \"cases\": [";
    for (std::size_t i = 0; i < report.cases.size(); ++i) {
        const ValidationCase& c = report.cases[i];
        fmt::print(out,
                   "{}\n    {{\"dataset\": {}, \"group\": {}, \"case\": {}, \"x\": {}, \"measured\": {}, "
                   "\"predicted\": {}, \"unit\": {}, \"error\": {}, \"model\": {}, \"measured_model\": {}, "
                   "\"reference\": {}, \"source\": {}}}",
                   i ? "," : "", json_string(c.dataset), json_string(c.group), json_string(c.label), number(c.x),
                   number(c.measured), number(c.predicted), json_string(c.unit), number(c.predicted / c.measured - 1.0),
                   json_string(c.model), c.measured_model.empty() ? "null" : json_string(c.measured_model),
                   c.reference ? number(*c.reference) : "null", json_string(c.source));
    }
    out << (report.cases.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

}  // namespace dtcalc
