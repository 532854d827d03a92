#include "calibrate/calibration.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "calibrate/group_fit.h"
#include "calibrate/leave_out.h"
#include "calibrate/row_consensus.h"
#include "calibrate/row_predictor.h"
#include "config/calibration_table.h"
#include "config/preset.h"
#include "validate/validation_plan.h"

namespace dtcalc {
namespace {

// A constant of the network model ([nccl] tables): a training run depends on
// it only through its exposed communication, a few percent of the step, and
// on every other rate of the cluster at the same time, so it cannot pin it;
// such constants are fitted on collective measurements only.
bool is_network_constant(const std::string& key) { return key.rfind("nccl.", 0) == 0; }

std::vector<std::size_t> matching_groups(const std::vector<std::string>& patterns, const std::vector<std::string>& names,
                                         const char* flag) {
    std::vector<std::size_t> out;
    for (const std::string& pattern : patterns) {
        bool any = false;
        for (std::size_t g = 0; g < names.size(); ++g) {
            if (!group_matches(pattern, names[g])) continue;
            any = true;
            if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
        }
        if (!any) {
            std::string known;
            for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
            throw InputError({flag, 0, 0, ""}, "'" + pattern + "' matches no group of the data (groups: " + known + ")");
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string group_list(const std::vector<std::size_t>& groups, const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t g : groups) out += (out.empty() ? "" : ", ") + names[g];
    return out;
}

}  // namespace

std::string_view group_role_name(GroupRole role) {
    switch (role) {
        case GroupRole::Fit: return "fit";
        case GroupRole::Check: return "check";
        case GroupRole::Unused: return "unused";
    }
    return "";
}

double written_value(double value, bool integer, double low, double high) {
    double v = value;
    if (v != 0) {
        const double scale = std::pow(10.0, 3 - static_cast<int>(std::floor(std::log10(std::abs(v)))));
        v = std::round(v * scale) / scale;
    }
    if (integer) {
        v = std::round(v);
        return std::clamp(v, std::ceil(low), std::floor(high));
    }
    return std::clamp(v, low, high);
}

CalibrationResult calibrate_preset(const ConfigValue& preset_root, const std::string& preset_path,
                                   const CalibrationData& input, const CalibrationOptions& options) {
    if (preset_from_config(preset_root, preset_path).calibration.empty())
        throw InputError({"--preset", 0, 0, ""},
                         preset_path +
                             " marks no constant as calibrated: it has no [calibration] table of \"key\" = [low, high]");
    const std::vector<MeasuredRow> data = measured_rows(input);
    RowPredictor evaluator(preset_root, preset_path, data, input, options);
    CalibrationResult result;
    result.rows_read = data.size();

    // Rows of one collective, shape and size (one training case and metric)
    // `ratio` or more apart: outliers beside a majority that agrees, or all
    // of them contradictory (row_consensus.h).
    std::map<std::string, std::vector<std::size_t>> same;
    std::vector<std::string> order;
    for (std::size_t r = 0; r < data.size(); ++r) {
        const std::string& key = data[r].same;
        auto [it, fresh] = same.try_emplace(key);
        if (fresh) order.push_back(key);
        it->second.push_back(r);
    }
    std::vector<bool> used(data.size(), true);
    for (const auto& key : order) {
        const std::vector<std::size_t>& rows = same[key];
        std::vector<double> values;
        for (std::size_t r : rows) values.push_back(data[r].measured);
        const RowConsensus consensus = row_consensus(values, options.contradiction_ratio);
        const MeasuredRow& first = data[rows.front()];
        if (consensus.contradictory) {
            Contradiction c;
            c.group = first.group;
            c.bytes = first.bytes;
            c.label = first.label;
            c.unit = first.unit;
            c.ratio = *std::max_element(values.begin(), values.end()) / *std::min_element(values.begin(), values.end());
            for (std::size_t r : rows) {
                c.rows.push_back(data[r].where);
                c.measured.push_back(data[r].measured);
                used[r] = false;
            }
            result.contradictions.push_back(std::move(c));
            continue;
        }
        const double median = consensus.outliers.empty() ? 0 : median_of(values, consensus.kept);
        for (std::size_t k : consensus.outliers) {
            const MeasuredRow& row = data[rows[k]];
            result.outliers.push_back({row.group, row.bytes, row.label, row.unit, row.where, row.measured, median});
            used[rows[k]] = false;
        }
    }
    std::stable_sort(result.outliers.begin(), result.outliers.end(), [](const Outlier& a, const Outlier& b) {
        return a.where.file != b.where.file ? a.where.file < b.where.file : a.where.line < b.where.line;
    });

    CalibrationProblem problem{data, {}, {}, {}, options.min_rows};
    for (std::size_t r = 0; r < data.size(); ++r) {
        if (!used[r]) continue;
        ++result.rows_used;
        const std::string& name = data[r].group;
        auto it = std::find(problem.group_names.begin(), problem.group_names.end(), name);
        if (it == problem.group_names.end()) {
            problem.group_names.push_back(name);
            problem.group_rows.emplace_back();
            it = problem.group_names.end() - 1;
        }
        problem.group_rows[static_cast<std::size_t>(it - problem.group_names.begin())].push_back(r);
    }
    if (problem.group_names.empty())
        throw InputError({"--fit", 0, 0, ""}, "nothing to fit: every row is contradictory or an outlier");

    // Which groups are fitted and which held out.
    const std::vector<std::size_t> check = matching_groups(options.check_groups, problem.group_names, "--check");
    std::vector<std::size_t> fit;
    if (!options.fit_groups.empty()) {
        fit = matching_groups(options.fit_groups, problem.group_names, "--fit");
        for (std::size_t g : fit)
            if (std::find(check.begin(), check.end(), g) != check.end())
                throw InputError({"--check", 0, 0, ""},
                                 "group " + problem.group_names[g] + " is matched by --fit too; a group is fitted or checked, not both");
    } else {
        for (std::size_t g = 0; g < problem.group_names.size(); ++g)
            if (std::find(check.begin(), check.end(), g) == check.end()) fit.push_back(g);
        if (fit.empty()) throw InputError({"--check", 0, 0, ""}, "holds out every group: nothing is left to fit");
    }

    // The preset's predictions, and which rows each constant changes.
    std::vector<std::size_t> all_used;
    for (std::size_t r = 0; r < data.size(); ++r)
        if (used[r]) all_used.push_back(r);
    const std::vector<double> start = evaluator.start();
    std::vector<double> before(data.size(), 0.0);
    evaluator.predict_rows(start, all_used, before);
    const std::size_t n_constants = start.size();
    problem.sensitive.assign(n_constants, std::vector<bool>(data.size(), false));
    std::vector<double> probe(data.size(), 0.0);
    for (std::size_t i = 0; i < n_constants; ++i) {
        const CalibratedConstant& c = evaluator.constants()[i];
        const bool network = is_network_constant(c.key);
        for (double v : {c.low, std::sqrt(c.low * c.high), c.high}) {
            std::vector<double> values = start;
            values[i] = v;
            evaluator.predict_rows(values, all_used, probe);
            for (std::size_t r : all_used)
                if (std::abs(probe[r] - before[r]) > 1e-12 * std::abs(before[r]) && !(network && data[r].training))
                    problem.sensitive[i][r] = true;
        }
    }

    const FitOutcome outcome = fit_groups(evaluator, problem, fit, start);
    result.evaluations += outcome.evaluations;
    std::vector<double> after(data.size(), 0.0);
    evaluator.predict_rows(outcome.values, all_used, after);
    result.objective_before = objective_on(problem, fit, before);
    result.objective_after = objective_on(problem, fit, after);

    std::vector<std::size_t> fitted_rows;
    for (std::size_t g : fit)
        fitted_rows.insert(fitted_rows.end(), problem.group_rows[g].begin(), problem.group_rows[g].end());
    for (std::size_t i = 0; i < n_constants; ++i) {
        const CalibratedConstant& c = evaluator.constants()[i];
        ConstantFit f;
        f.key = c.key;
        f.low = c.low;
        f.high = c.high;
        f.before = c.value;
        f.after = outcome.values[i];
        f.rows = outcome.rows_per_constant[i];
        f.fitted = outcome.fitted[i];
        if (f.fitted) f.pinned = moves_a_row(evaluator, outcome.values, i, fitted_rows, after);
        if (!f.fitted) {
            std::vector<std::size_t> elsewhere;
            for (std::size_t g = 0; g < problem.group_names.size(); ++g)
                for (std::size_t r : problem.group_rows[g])
                    if (problem.sensitive[i][r] && std::find(fit.begin(), fit.end(), g) == fit.end()) {
                        elsewhere.push_back(g);
                        break;
                    }
            const bool training_only = std::all_of(all_used.begin(), all_used.end(),
                                                   [&](std::size_t r) { return data[r].training != nullptr; });
            if (f.rows > 0)
                f.reason = fmt::format("changes only {} fitted row(s); fitting it needs {}", f.rows, options.min_rows);
            else if (is_network_constant(c.key) && training_only)
                f.reason = "a network constant: fitted on collective measurements (nccl-tests) only, and the data has none";
            else if (!elsewhere.empty())
                f.reason = "changes no fitted row, only rows of " + group_list(elsewhere, problem.group_names);
            else
                f.reason = "changes no row of the data: none of these measurements depends on it";
        }
        result.constants.push_back(std::move(f));
    }

    for (std::size_t g = 0; g < problem.group_names.size(); ++g) {
        GroupFit gf;
        gf.group = problem.group_names[g];
        const bool fitted = std::find(fit.begin(), fit.end(), g) != fit.end();
        const bool checked = std::find(check.begin(), check.end(), g) != check.end();
        gf.role = fitted ? GroupRole::Fit : checked ? GroupRole::Check : GroupRole::Unused;
        gf.before = error_stats(problem.group_rows[g], before, data);
        gf.after = error_stats(problem.group_rows[g], after, data);
        result.groups.push_back(std::move(gf));
    }
    result.hold_out = options.hold_out;
    const std::vector<std::vector<std::size_t>> units = hold_out_units(problem, fit, options.hold_out);
    if (units.size() >= 2 && options.leave_one_group_out) {
        const std::vector<LeftOut> refits =
            leave_each_out(evaluator, problem, fit, units, start, options, preset_root, preset_path, input);
        for (std::size_t k = 0; k < units.size(); ++k) {
            for (std::size_t i = 0; i < units[k].size(); ++i) {
                GroupFit& gf = result.groups[units[k][i]];
                gf.left_out = refits[k].stats[i];
                gf.left_out_values = refits[k].values;
                gf.left_out_kept = refits[k].kept;
            }
            result.evaluations += refits[k].evaluations;
        }
    }
    return result;
}

}  // namespace dtcalc

namespace dtcalc {

std::string training_group_name(const TrainingCase& c) {
    std::string family;
    std::size_t start = 0;
    while (start <= c.id.size()) {
        std::size_t end = c.id.find('-', start);
        if (end == std::string::npos) end = c.id.size();
        const std::string word = c.id.substr(start, end - start);
        if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0]))) break;
        family += (family.empty() ? "" : "-") + word;
        start = end + 1;
    }
    return "training/" + (family.empty() ? c.id : family);
}

CalibrationResult calibrate_preset(const ConfigValue& preset_root, const std::string& preset_path,
                                   const std::vector<NcclMeasurement>& rows, const CalibrationOptions& options) {
    CalibrationData data;
    data.collectives = rows;
    return calibrate_preset(preset_root, preset_path, data, options);
}

}  // namespace dtcalc
