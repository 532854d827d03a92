#include "calibrate/calibration_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/text_formats.h"

namespace dtcalc {
namespace {

// 712900 as itself, 0.7508 as itself: whole numbers in full, others in 6 significant digits.
std::string value_text(double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15) return fmt::format("{}", static_cast<long long>(v));
    return fmt::format("{:g}", v);
}

std::string percent(double fraction) { return fmt::format("{:.2f}%", 100 * fraction); }

std::string inputs_text(const std::vector<std::string>& inputs) {
    std::string out;
    for (const std::string& i : inputs) out += (out.empty() ? "" : ", ") + i;
    return out;
}

std::string json_number(double v) { return fmt::format("{:.6g}", v); }

std::string stats_json(const ErrorStats& s) {
    return fmt::format("{{\"rows\": {}, \"mean\": {}, \"max\": {}}}", s.rows, json_number(s.mean), json_number(s.max));
}

// What the table says of a constant: kept and why, or fitted, with where it
// landed and whether the rows pin it there.
std::string fit_note(const ConstantFit& c) {
    if (!c.fitted) return "kept: " + c.reason;
    std::string note = c.after >= c.high ? "fitted, at its upper bound"
                       : c.after <= c.low ? "fitted, at its lower bound"
                                          : "fitted";
    if (!c.pinned) note += "; not pinned: moving it 10 % changes no fitted row";
    return note;
}

// The constants a leave-one-group-out refit put at a bound where the fit on
// every group did not: the rows left cannot place them, and the group's
// out-of-sample error then says as much about the model as about the group.
// So is a constant the refit kept at the preset's value because the groups
// left do not move it, where the fit on every group pins it: the left-out
// group keeps the benefit of a value its own rows helped set.
enum class Unplaced { AtUpperBound, AtLowerBound, Kept };
struct UnplacedConstant {
    std::size_t constant;
    Unplaced how;
};
std::vector<UnplacedConstant> unplaced_constants(const GroupFit& g, const std::vector<ConstantFit>& constants) {
    std::vector<UnplacedConstant> hits;
    if (!g.left_out) return hits;
    for (std::size_t i = 0; i < constants.size() && i < g.left_out_values.size(); ++i) {
        const ConstantFit& c = constants[i];
        if (!c.fitted) continue;
        const double v = g.left_out_values[i];
        if (i < g.left_out_kept.size() && g.left_out_kept[i]) {
            if (c.pinned) hits.push_back({i, Unplaced::Kept});
        } else if (v >= c.high && c.after < c.high) {
            hits.push_back({i, Unplaced::AtUpperBound});
        } else if (v <= c.low && c.after > c.low) {
            hits.push_back({i, Unplaced::AtLowerBound});
        }
    }
    return hits;
}

// Rows of a contradiction shown in the table (JSON lists them all).
constexpr std::size_t kRowsShown = 6;

// One line per file: a failing node pair's log shows as one line, its rows'
// lines, how far they sit from the runs that agree, and their groups.
//   logs/nccl_N2_G1_a_b.log: 4 rows (lines 12-46), 1.4-15.8x the others' median: send-recv/2gpu/2node
void write_outliers_by_file(std::ostream& out, const std::vector<Outlier>& outliers) {
    for (std::size_t i = 0; i < outliers.size();) {
        std::size_t j = i;
        int first_line = outliers[i].where.line, last_line = first_line;
        double low = outliers[i].measured / outliers[i].others_median, high = low;
        std::vector<std::string> groups;
        for (; j < outliers.size() && outliers[j].where.file == outliers[i].where.file; ++j) {
            const Outlier& o = outliers[j];
            first_line = std::min(first_line, o.where.line);
            last_line = std::max(last_line, o.where.line);
            const double r = o.measured / o.others_median;
            low = std::min(low, r);
            high = std::max(high, r);
            if (std::find(groups.begin(), groups.end(), o.group) == groups.end()) groups.push_back(o.group);
        }
        const std::size_t n = j - i;
        const std::string lines = first_line == last_line ? fmt::format("line {}", first_line)
                                                          : fmt::format("lines {}-{}", first_line, last_line);
        const std::string from = fmt::format("{:.3g}", low), to = fmt::format("{:.3g}", high);
        const std::string spread = from == to ? from + "x" : from + "-" + to + "x";
        std::string group_list;
        for (const std::string& g : groups) group_list += (group_list.empty() ? "" : ", ") + g;
        out << fmt::format("  {}: {} {} ({}), {} the others' median: {}\n", outliers[i].where.file, n,
                           n == 1 ? "row" : "rows", lines, spread, group_list);
        i = j;
    }
}

}  // namespace

void write_calibration_table(std::ostream& out, const CalibrationHeader& header, const CalibrationResult& result) {
    std::size_t fit = 0, check = 0;
    for (const GroupFit& g : result.groups) {
        if (g.role == GroupRole::Fit) ++fit;
        if (g.role == GroupRole::Check) ++check;
    }
    out << fmt::format("# calibrate preset {} on {}: {} rows in {} groups ({} fitted, {} checked)\n", header.preset,
                       inputs_text(header.inputs), result.rows_used, result.groups.size(), fit, check);
    if (!header.nccl_env.empty()) out << "# the runs' NCCL settings: " << fmt::format("{}", fmt::join(header.nccl_env, " ")) << "\n";
    out << fmt::format("# objective (mean squared log error, groups weighted equally) on the fitted groups: {:.6f} -> {:.6f}\n",
                       result.objective_before, result.objective_after);
    out << fmt::format("{:<40} {:>12} {:>12} {:>20} {:>6}\n", "constant", "before", "after", "bounds", "rows");
    for (const ConstantFit& c : result.constants) {
        const std::string bounds = fmt::format("[{}, {}]", value_text(c.low), value_text(c.high));
        out << fmt::format("{:<40} {:>12} {:>12} {:>20} {:>6}  {}\n", c.key, value_text(c.before), value_text(c.after), bounds, c.rows,
                           fit_note(c));
    }
    out << "\nerror per group, |predicted / measured - 1|: with the preset's values, the fitted ones, and fitted without "
        << (result.hold_out == HoldOut::Shape ? "every group of its shape (GPUs x nodes)" : "the group") << "\n";
    out << fmt::format("{:<28} {:<6} {:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "group", "role", "rows",
                       "MAE before", "max before", "MAE after", "max after", "MAE out", "max out");
    for (const GroupFit& g : result.groups) {
        const std::string out_mean = g.left_out ? percent(g.left_out->mean) : "-";
        const std::string out_max = g.left_out ? percent(g.left_out->max) : "-";
        out << fmt::format("{:<28} {:<6} {:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", g.group,
                           group_role_name(g.role), g.before.rows, percent(g.before.mean), percent(g.before.max),
                           percent(g.after.mean), percent(g.after.max), out_mean, out_max);
    }
    bool any_hit = false;
    std::vector<std::string> listed;  // a shape's refit is listed once
    for (const GroupFit& g : result.groups) {
        const std::vector<UnplacedConstant> hits = unplaced_constants(g, result.constants);
        if (hits.empty()) continue;
        const std::string without = result.hold_out == HoldOut::Shape ? hold_out_shape(g.group) : g.group;
        if (std::find(listed.begin(), listed.end(), without) != listed.end()) continue;
        listed.push_back(without);
        if (!any_hit)
            out << "\nout-of-sample refits that cannot place a constant the fit on every group places (the groups "
                   "left put it at a bound, or do not move it and it keeps the preset's value):\n";
        any_hit = true;
        out << fmt::format("  without {}:", without);
        for (std::size_t k = 0; k < hits.size(); ++k) {
            const ConstantFit& c = result.constants[hits[k].constant];
            const double v = g.left_out_values[hits[k].constant];
            const std::string what = hits[k].how == Unplaced::Kept
                                         ? fmt::format("kept at {} (not pinned)", value_text(v))
                                         : fmt::format("{} -> {} ({} bound)", value_text(c.after), value_text(v),
                                                       hits[k].how == Unplaced::AtUpperBound ? "upper" : "lower");
            out << fmt::format(" {} {}{}", c.key, what, k + 1 < hits.size() ? "," : "");
        }
        out << "\n";
    }
    if (!result.outliers.empty()) {
        out << "\noutlier rows (2x or more from the runs of their collective, shape and size, or training case and "
               "metric, that agree), left out of the fit:\n";
        write_outliers_by_file(out, result.outliers);
    }
    if (!result.contradictions.empty()) {
        out << "\ncontradictory rows (one collective, shape and size, or one training case and metric, 2x or more "
               "apart, no majority agreeing), left out of the fit:\n";
        for (const Contradiction& c : result.contradictions) {
            out << fmt::format("  {} {} ({:.2f}x):", c.group, c.label, c.ratio);
            const std::size_t shown = c.rows.size() > kRowsShown ? kRowsShown : c.rows.size();
            for (std::size_t i = 0; i < shown; ++i)
                out << fmt::format(" {}:{} {:g} {}{}", c.rows[i].file, c.rows[i].line, c.measured[i], c.unit,
                                   i + 1 < shown ? "," : "");
            if (shown < c.rows.size())
                out << fmt::format(" and {} more (--format json lists every row)", c.rows.size() - shown);
            out << "\n";
        }
    }
    if (!header.written.empty()) out << "\nwrote " << header.written << "\n";
}

void write_calibration_json(std::ostream& out, const CalibrationHeader& header, const CalibrationResult& result) {
    out << "{\n  \"preset\": " << json_string(header.preset) << ", \"inputs\": [";
    for (std::size_t i = 0; i < header.inputs.size(); ++i) out << (i ? ", " : "") << json_string(header.inputs[i]);
    out << "], \"nccl_env\": [";
    for (std::size_t i = 0; i < header.nccl_env.size(); ++i) out << (i ? ", " : "") << json_string(header.nccl_env[i]);
    out << "],\n  \"rows_read\": " << result.rows_read << ", \"rows_used\": " << result.rows_used
        << ", \"objective_before\": " << json_number(result.objective_before)
        << ", \"objective_after\": " << json_number(result.objective_after)
        << ", \"left_out_by\": " << (result.hold_out == HoldOut::Shape ? "\"shape\"" : "\"group\"")
        << ",\n  \"constants\": [\n";
    for (std::size_t i = 0; i < result.constants.size(); ++i) {
        const ConstantFit& c = result.constants[i];
        out << fmt::format("    {{\"key\": {}, \"before\": {}, \"after\": {}, \"low\": {}, \"high\": {}, \"rows\": {}, "
                           "\"fitted\": {}, \"pinned\": {}, \"at_bound\": {}, \"reason\": {}}}{}\n",
                           json_string(c.key), json_number(c.before), json_number(c.after), json_number(c.low),
                           json_number(c.high), c.rows, c.fitted ? "true" : "false", c.pinned ? "true" : "false",
                           !c.fitted ? "null" : c.after >= c.high ? "\"high\"" : c.after <= c.low ? "\"low\"" : "null",
                           c.fitted ? "null" : json_string(c.reason), i + 1 < result.constants.size() ? "," : "");
    }
    out << "  ],\n  \"groups\": [\n";
    for (std::size_t i = 0; i < result.groups.size(); ++i) {
        const GroupFit& g = result.groups[i];
        std::string left_out = "null";
        if (g.left_out) {
            std::string values;
            for (std::size_t k = 0; k < g.left_out_values.size(); ++k)
                values += (k ? ", " : "") + json_number(g.left_out_values[k]);
            std::string at_bound, kept;
            for (const UnplacedConstant& h : unplaced_constants(g, result.constants)) {
                std::string& list = h.how == Unplaced::Kept ? kept : at_bound;
                list += (list.empty() ? "" : ", ") + json_string(result.constants[h.constant].key);
            }
            left_out = stats_json(*g.left_out);
            left_out.pop_back();
            left_out += ", \"constants\": [" + values + "], \"at_bound\": [" + at_bound + "], \"kept\": [" + kept + "]}";
        }
        out << fmt::format("    {{\"group\": {}, \"role\": {}, \"before\": {}, \"after\": {}, \"left_out\": {}}}{}\n",
                           json_string(g.group), json_string(group_role_name(g.role)), stats_json(g.before),
                           stats_json(g.after), left_out, i + 1 < result.groups.size() ? "," : "");
    }
    out << "  ],\n  \"contradictions\": [";
    for (std::size_t i = 0; i < result.contradictions.size(); ++i) {
        const Contradiction& c = result.contradictions[i];
        out << (i ? ",\n    " : "\n    ") << "{\"group\": " << json_string(c.group) << ", \"size_bytes\": " << c.bytes
            << ", \"label\": " << json_string(c.label) << ", \"unit\": " << json_string(c.unit)
            << ", \"ratio\": " << json_number(c.ratio) << ", \"rows\": [";
        for (std::size_t k = 0; k < c.rows.size(); ++k)
            out << (k ? ", " : "") << "{\"file\": " << json_string(c.rows[k].file) << ", \"line\": " << c.rows[k].line
                << ", \"measured\": " << json_number(c.measured[k]) << "}";
        out << "]}";
    }
    out << (result.contradictions.empty() ? "" : "\n  ") << "],\n  \"outliers\": [";
    for (std::size_t i = 0; i < result.outliers.size(); ++i) {
        const Outlier& o = result.outliers[i];
        out << (i ? ",\n    " : "\n    ") << "{\"file\": " << json_string(o.where.file) << ", \"line\": " << o.where.line
            << ", \"group\": " << json_string(o.group) << ", \"size_bytes\": " << o.bytes
            << ", \"label\": " << json_string(o.label) << ", \"unit\": " << json_string(o.unit)
            << ", \"measured\": " << json_number(o.measured) << ", \"others_median\": " << json_number(o.others_median)
            << "}";
    }
    out << (result.outliers.empty() ? "" : "\n  ") << "],\n  \"written\": "
        << (header.written.empty() ? "null" : json_string(header.written)) << "\n}\n";
}

}  // namespace dtcalc
