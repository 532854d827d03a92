#include "validate/validation_run.h"

#include <algorithm>

namespace dtcalc {
namespace {

bool selected(const std::vector<std::string>& only, const std::string& name) {
    return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
}

double metric_value(const GroupSummary& s, ErrorMetric metric) {
    switch (metric) {
        case ErrorMetric::Geomean: return s.geomean;
        case ErrorMetric::Median: return s.median;
        case ErrorMetric::Max: return s.max;
        case ErrorMetric::Mean: return s.mean;
    }
    return 0;
}

}  // namespace

ValidationReport run_validation(const ValidationPlan& plan, const ValidationContext& context,
                                const std::vector<std::string>& only) {
    for (const std::string& name : only) {
        bool known = false;
        for (const DatasetSpec& spec : plan.datasets) known = known || spec.name == name;
        if (!known) throw InputError({"--dataset", 0, 0, ""}, "no dataset named '" + name + "' in " + plan.path);
    }
    ValidationReport report;
    report.plan_path = plan.path;
    for (const DatasetSpec& spec : plan.datasets) {
        if (!selected(only, spec.name)) continue;
        const DatasetKind* kind = find_dataset_kind(spec.kind);
        if (!kind) throw InputError(spec.where, "unknown dataset kind '" + spec.kind + "'");
        DatasetResult result = kind->run(spec, context);

        const std::size_t first_group = report.groups.size();
        for (const ValidationCase& c : result.cases) {
            auto it = std::find_if(report.groups.begin() + static_cast<long>(first_group), report.groups.end(),
                                   [&](const GroupSummary& g) { return g.group == c.group; });
            if (it == report.groups.end()) {
                GroupSummary g;
                g.dataset = spec.name;
                g.group = c.group;
                g.reference_name = result.reference_name;
                g.x_label = result.x_label;
                g.points_per_model = result.points_per_model;
                g.unit = c.unit;
                report.groups.push_back(std::move(g));
            }
        }
        for (auto g = report.groups.begin() + static_cast<long>(first_group); g != report.groups.end(); ++g) {
            std::vector<double> errors;
            std::vector<double> reference_errors;
            for (const ValidationCase& c : result.cases) {
                if (c.group != g->group) continue;
                errors.push_back(c.error());
                if (c.reference) reference_errors.push_back(relative_error(*c.reference, c.measured));
            }
            g->cases = errors.size();
            g->geomean = summarize_errors(ErrorMetric::Geomean, errors);
            g->median = summarize_errors(ErrorMetric::Median, errors);
            g->max = summarize_errors(ErrorMetric::Max, errors);
            g->mean = summarize_errors(ErrorMetric::Mean, errors);
            if (!reference_errors.empty())
                g->reference_geomean = summarize_errors(ErrorMetric::Geomean, reference_errors);
            for (const auto& [group, note] : result.group_notes)
                if (group == g->group) g->note += (g->note.empty() ? "" : "; ") + note;
        }
        for (ValidationCase& c : result.cases) report.cases.push_back(std::move(c));
        for (std::string& note : result.notes) report.notes.push_back(std::move(note));
    }
    for (const Gate& gate : plan.gates) {
        if (!selected(only, gate.dataset)) continue;
        bool matched = false;
        for (GroupSummary& g : report.groups) {
            if (g.dataset != gate.dataset || !group_matches(gate.group, g.group)) continue;
            matched = true;
            GateCheck check;
            check.metric = gate.metric;
            check.bound = gate.bound;
            check.value = metric_value(g, gate.metric);
            check.passed = check.value <= gate.bound;
            check.why = gate.why;
            g.gates.push_back(check);
            ++report.gates_checked;
            if (!check.passed) ++report.gates_failed;
        }
        if (!matched) {
            report.unmatched_gates.push_back(gate.dataset + " " + gate.group);
            ++report.gates_failed;
        }
    }
    return report;
}

}  // namespace dtcalc
