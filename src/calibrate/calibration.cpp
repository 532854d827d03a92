#include "calibrate/calibration.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "calibrate/log_space_search.h"
#include "calibrate/row_predictor.h"
#include "config/calibration_table.h"
#include "config/preset.h"
#include "sweep/ordered_runner.h"
#include "validate/validation_plan.h"

namespace dtcalc {
namespace {

double squared_log_error(double predicted, double measured) {
    const double e = std::log(predicted / measured);
    return e * e;
}

ErrorStats stats_of(const std::vector<std::size_t>& rows, const std::vector<double>& predicted,
                    const std::vector<MeasuredRow>& data) {
    ErrorStats s;
    for (std::size_t r : rows) {
        const double e = std::abs(predicted[r] / data[r].measured - 1);
        s.mean += e;
        s.max = std::max(s.max, e);
        ++s.rows;
    }
    if (s.rows > 0) s.mean /= static_cast<double>(s.rows);
    return s;
}

// A constant of the network model ([nccl] tables): a training run depends on
// it only through its exposed communication, a few percent of the step, and
// on every other rate of the cluster at the same time, so it cannot pin it;
// such constants are fitted on collective measurements only.
bool is_network_constant(const std::string& key) { return key.rfind("nccl.", 0) == 0; }

struct Problem {
    const std::vector<MeasuredRow>& data;
    std::vector<std::string> group_names;
    std::vector<std::vector<std::size_t>> group_rows;  // used rows of each group
    std::vector<std::vector<bool>> sensitive;          // [constant][row]
    int min_rows = 3;
};

struct FitOutcome {
    std::vector<double> values;
    std::vector<std::size_t> rows_per_constant;
    std::vector<bool> fitted;
    int evaluations = 0;
};

FitOutcome fit_groups(RowPredictor& evaluator, const Problem& problem, const std::vector<std::size_t>& groups,
                      const std::vector<double>& start) {
    const std::size_t n_constants = start.size();
    std::vector<std::size_t> rows_in;
    std::vector<int> group_slot(problem.data.size(), -1);
    for (std::size_t k = 0; k < groups.size(); ++k)
        for (std::size_t r : problem.group_rows[groups[k]]) {
            rows_in.push_back(r);
            group_slot[r] = static_cast<int>(k);
        }
    FitOutcome out;
    out.values = start;
    std::vector<std::vector<std::size_t>> rows_of(n_constants);
    std::vector<double> low, high;
    for (std::size_t i = 0; i < n_constants; ++i) {
        for (std::size_t r : rows_in)
            if (problem.sensitive[i][r]) rows_of[i].push_back(r);
        out.rows_per_constant.push_back(rows_of[i].size());
        out.fitted.push_back(static_cast<int>(rows_of[i].size()) >= problem.min_rows);
        low.push_back(evaluator.constants()[i].low);
        high.push_back(evaluator.constants()[i].high);
    }
    if (rows_in.empty() || std::none_of(out.fitted.begin(), out.fitted.end(), [](bool b) { return b; })) return out;

    // The last accepted point's squared log error per row and their sums per
    // group; a trial that changes one constant recomputes only its rows.
    std::vector<double> predicted(problem.data.size(), 0.0);
    std::vector<double> row_error(problem.data.size(), 0.0);
    std::vector<double> group_sum(groups.size(), 0.0);
    std::vector<double> trial_predicted(problem.data.size(), 0.0);
    auto objective_of = [&](const std::vector<double>& sums) {
        double total = 0;
        for (std::size_t k = 0; k < groups.size(); ++k)
            total += sums[k] / static_cast<double>(problem.group_rows[groups[k]].size());
        return total / static_cast<double>(groups.size());
    };
    auto objective = [&](const std::vector<double>& values, int changed) {
        if (changed < 0) {
            evaluator.predict_rows(values, rows_in, predicted);
            std::fill(group_sum.begin(), group_sum.end(), 0.0);
            for (std::size_t r : rows_in) {
                row_error[r] = squared_log_error(predicted[r], problem.data[r].measured);
                group_sum[static_cast<std::size_t>(group_slot[r])] += row_error[r];
            }
            return objective_of(group_sum);
        }
        const auto& rows = rows_of[static_cast<std::size_t>(changed)];
        evaluator.predict_rows(values, rows, trial_predicted);
        std::vector<double> sums = group_sum;
        for (std::size_t r : rows)
            sums[static_cast<std::size_t>(group_slot[r])] +=
                squared_log_error(trial_predicted[r], problem.data[r].measured) - row_error[r];
        return objective_of(sums);
    };
    const LogSearchResult result = minimize_in_log_box(objective, start, low, high, out.fitted);
    out.values = result.values;
    out.evaluations = result.evaluations;
    for (std::size_t i = 0; i < n_constants; ++i) {
        const CalibratedConstant& c = evaluator.constants()[i];
        if (out.fitted[i]) out.values[i] = written_value(out.values[i], c.integer, c.low, c.high);
    }
    return out;
}

// Whether moving constant `i` 10 % either way from `values` (within its
// bounds) changes the prediction of one of `rows` (`at`: their predictions at
// `values`) by more than a part in 10^9.
bool moves_a_row(RowPredictor& evaluator, const std::vector<double>& values, std::size_t i,
                 const std::vector<std::size_t>& rows, const std::vector<double>& at) {
    const CalibratedConstant& c = evaluator.constants()[i];
    std::vector<double> moved(at.size(), 0.0);
    for (double factor : {1.1, 1.0 / 1.1}) {
        std::vector<double> trial = values;
        trial[i] = std::clamp(values[i] * factor, c.low, c.high);
        if (trial[i] == values[i]) continue;
        evaluator.predict_rows(trial, rows, moved);
        for (std::size_t r : rows)
            if (std::abs(moved[r] - at[r]) > 1e-9 * std::abs(at[r])) return true;
    }
    return false;
}

double objective_on(const Problem& problem, const std::vector<std::size_t>& groups,
                    const std::vector<double>& predicted) {
    double total = 0;
    for (std::size_t g : groups) {
        double sum = 0;
        for (std::size_t r : problem.group_rows[g]) sum += squared_log_error(predicted[r], problem.data[r].measured);
        total += sum / static_cast<double>(problem.group_rows[g].size());
    }
    return groups.empty() ? 0 : total / static_cast<double>(groups.size());
}

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


// One held-out refit: the constants fitted without a unit of groups, and
// each of its groups' error with them.
struct LeftOut {
    std::vector<ErrorStats> stats;  // per group of the unit, in its order
    std::vector<double> values;
    std::vector<bool> kept;  // per constant: the groups left do not place it (too few rows, or not pinned)
    int evaluations = 0;
};

// What a refit leaves out: each fitted group alone (HoldOut::Group), or every
// fitted group of one shape at once (HoldOut::Shape, hold_out_shape), in order
// of each unit's first group.
std::vector<std::vector<std::size_t>> hold_out_units(const Problem& problem, const std::vector<std::size_t>& fit,
                                                     HoldOut by) {
    std::vector<std::vector<std::size_t>> units;
    std::vector<std::string> keys;
    for (std::size_t g : fit) {
        const std::string key = by == HoldOut::Shape ? hold_out_shape(problem.group_names[g]) : problem.group_names[g];
        const auto it = std::find(keys.begin(), keys.end(), key);
        if (it == keys.end()) {
            keys.push_back(key);
            units.push_back({g});
        } else {
            units[static_cast<std::size_t>(it - keys.begin())].push_back(g);
        }
    }
    return units;
}

// Refits without each unit of fitted groups in turn (units[k] -> out[k]).
// The refits are independent, so they run on worker threads, each with its
// own RowPredictor (a predictor holds the preset it edits); every refit is
// the same deterministic search whatever the thread count, and the results
// land in their own slots, so the output does not depend on it. The first
// refit to throw, in unit order, is rethrown.
std::vector<LeftOut> leave_each_out(RowPredictor& evaluator, const Problem& problem,
                                    const std::vector<std::size_t>& fit,
                                    const std::vector<std::vector<std::size_t>>& units,
                                    const std::vector<double>& start, const CalibrationOptions& options,
                                    const ConfigValue& preset_root, const std::string& preset_path,
                                    const CalibrationData& input) {
    std::vector<LeftOut> out(units.size());
    std::vector<std::exception_ptr> errors(units.size());
    std::mutex reporting;
    std::size_t done = 0;
    auto refit = [&](RowPredictor& predictor, std::size_t k) {
        try {
            const std::vector<std::size_t>& unit = units[k];
            std::vector<std::size_t> rest;
            for (std::size_t h : fit)
                if (std::find(unit.begin(), unit.end(), h) == unit.end()) rest.push_back(h);
            const FitOutcome without = fit_groups(predictor, problem, rest, start);
            std::vector<double> predicted(problem.data.size(), 0.0);
            out[k].values = without.values;
            out[k].evaluations = without.evaluations;
            // A constant the groups left do not place keeps the preset's value,
            // and with it what the left-out rows put into that value.
            std::vector<std::size_t> rest_rows;
            for (std::size_t h : rest)
                rest_rows.insert(rest_rows.end(), problem.group_rows[h].begin(), problem.group_rows[h].end());
            predictor.predict_rows(without.values, rest_rows, predicted);
            for (std::size_t i = 0; i < without.values.size(); ++i)
                out[k].kept.push_back(!without.fitted[i] ||
                                      !moves_a_row(predictor, without.values, i, rest_rows, predicted));
            for (std::size_t g : unit) {
                predictor.predict_rows(without.values, problem.group_rows[g], predicted);
                out[k].stats.push_back(stats_of(problem.group_rows[g], predicted, problem.data));
            }
        } catch (...) {
            errors[k] = std::current_exception();
        }
        const std::lock_guard<std::mutex> lock(reporting);
        ++done;
        if (options.progress) options.progress(done, units.size());
    };
    const auto threads =
        static_cast<unsigned>(std::min<std::size_t>(static_cast<std::size_t>(effective_threads(options.threads)), units.size()));
    if (threads <= 1) {
        for (std::size_t k = 0; k < units.size(); ++k) refit(evaluator, k);
    } else {
        std::atomic<std::size_t> next{0};
        auto worker = [&](RowPredictor& predictor) {
            for (std::size_t k = next++; k < units.size(); k = next++) refit(predictor, k);
        };
        std::vector<std::unique_ptr<RowPredictor>> predictors;
        for (unsigned t = 1; t < threads; ++t)
            predictors.push_back(
                std::make_unique<RowPredictor>(preset_root, preset_path, problem.data, input, options));
        std::vector<std::thread> pool;
        for (auto& p : predictors) pool.emplace_back(worker, std::ref(*p));
        worker(evaluator);
        for (std::thread& t : pool) t.join();
    }
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    return out;
}

}  // namespace

std::string hold_out_shape(const std::string& group) {
    if (group.rfind("training/", 0) == 0) return group;
    const std::size_t slash = group.find('/');
    return slash == std::string::npos ? group : group.substr(slash + 1);
}

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

    // Contradictory rows: one collective, shape and size (one training case and metric), `ratio` apart.
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
        double lo = data[rows.front()].measured, hi = lo;
        for (std::size_t r : rows) {
            lo = std::min(lo, data[r].measured);
            hi = std::max(hi, data[r].measured);
        }
        if (hi / lo < options.contradiction_ratio) continue;
        Contradiction c;
        c.group = data[rows.front()].group;
        c.bytes = data[rows.front()].bytes;
        c.label = data[rows.front()].label;
        c.unit = data[rows.front()].unit;
        c.ratio = hi / lo;
        for (std::size_t r : rows) {
            c.rows.push_back(data[r].where);
            c.measured.push_back(data[r].measured);
            used[r] = false;
        }
        result.contradictions.push_back(std::move(c));
    }

    Problem problem{data, {}, {}, {}, options.min_rows};
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
        throw InputError({"--fit", 0, 0, ""}, "nothing to fit: every row is contradictory");

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
        gf.before = stats_of(problem.group_rows[g], before, data);
        gf.after = stats_of(problem.group_rows[g], after, data);
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
