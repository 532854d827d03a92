#include "calibrate/group_fit.h"

#include <algorithm>
#include <cmath>

#include "calibrate/log_space_search.h"

namespace dtcalc {

double squared_log_error(double predicted, double measured) {
    const double e = std::log(predicted / measured);
    return e * e;
}

ErrorStats error_stats(const std::vector<std::size_t>& rows, const std::vector<double>& predicted,
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

FitOutcome fit_groups(RowPredictor& evaluator, const CalibrationProblem& problem, const std::vector<std::size_t>& groups,
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

double objective_on(const CalibrationProblem& problem, const std::vector<std::size_t>& groups,
                    const std::vector<double>& predicted) {
    double total = 0;
    for (std::size_t g : groups) {
        double sum = 0;
        for (std::size_t r : problem.group_rows[g]) sum += squared_log_error(predicted[r], problem.data[r].measured);
        total += sum / static_cast<double>(problem.group_rows[g].size());
    }
    return groups.empty() ? 0 : total / static_cast<double>(groups.size());
}

}  // namespace dtcalc
