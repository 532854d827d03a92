#include "calibrate/leave_out.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "sweep/ordered_runner.h"

namespace dtcalc {

std::string hold_out_shape(const std::string& group) {
    if (group.rfind("training/", 0) == 0) return group;
    const std::size_t slash = group.find('/');
    return slash == std::string::npos ? group : group.substr(slash + 1);
}

std::vector<std::vector<std::size_t>> hold_out_units(const CalibrationProblem& problem, const std::vector<std::size_t>& fit,
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

std::vector<LeftOut> leave_each_out(RowPredictor& evaluator, const CalibrationProblem& problem,
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
                out[k].stats.push_back(error_stats(problem.group_rows[g], predicted, problem.data));
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

}  // namespace dtcalc
