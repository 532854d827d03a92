#pragma once
// The fit inside `dtcalc calibrate` (calibration.h): measured rows in groups,
// which calibrated constants change which rows, and the search for the values
// that minimise the mean over groups of each group's mean squared log error.
// calibration.cpp sets the problem up and reports; leave_out.h refits it
// without each group in turn.
#include <cstddef>
#include <string>
#include <vector>

#include "calibrate/calibration.h"
#include "calibrate/row_predictor.h"

namespace dtcalc {

/// The rows being fitted, their groups, and which constant changes which row.
struct CalibrationProblem {
    const std::vector<MeasuredRow>& data;
    std::vector<std::string> group_names;
    std::vector<std::vector<std::size_t>> group_rows;  // used rows of each group
    std::vector<std::vector<bool>> sensitive;          // [constant][row]
    int min_rows = 3;
};

/// The values one fit found, and which constants it could place.
struct FitOutcome {
    std::vector<double> values;
    std::vector<std::size_t> rows_per_constant;
    std::vector<bool> fitted;
    int evaluations = 0;
};

/// ln(predicted / measured)^2.
double squared_log_error(double predicted, double measured);

/// Mean and largest |predicted / measured - 1| over `rows`.
ErrorStats error_stats(const std::vector<std::size_t>& rows, const std::vector<double>& predicted,
                       const std::vector<MeasuredRow>& data);

/// Fits the constants on `groups` from `start`: a constant that changes fewer
/// than the problem's min_rows of their rows keeps its start value. Fitted
/// values are rounded as the written preset states them (written_value).
FitOutcome fit_groups(RowPredictor& evaluator, const CalibrationProblem& problem,
                      const std::vector<std::size_t>& groups, const std::vector<double>& start);

/// Whether moving constant `i` 10 % either way from `values` (within its
/// bounds) changes the prediction of one of `rows` (`at`: their predictions at
/// `values`) by more than a part in 10^9.
bool moves_a_row(RowPredictor& evaluator, const std::vector<double>& values, std::size_t i,
                 const std::vector<std::size_t>& rows, const std::vector<double>& at);

/// The objective on `groups` for `predicted` rows.
double objective_on(const CalibrationProblem& problem, const std::vector<std::size_t>& groups,
                    const std::vector<double>& predicted);

}  // namespace dtcalc
