#pragma once
// The out-of-sample half of `dtcalc calibrate` (calibration.h): the fit done
// again without each unit of fitted groups (one group, or every group of one
// shape), and each left-out group's error with the constants fitted without it.
#include <cstddef>
#include <string>
#include <vector>

#include "calibrate/calibration.h"
#include "calibrate/group_fit.h"
#include "calibrate/row_predictor.h"
#include "config/config_value.h"

namespace dtcalc {

// One held-out refit: the constants fitted without a unit of groups, and
// each of its groups' error with them.
struct LeftOut {
    std::vector<ErrorStats> stats;  // per group of the unit, in its order
    std::vector<double> values;
    std::vector<bool> kept;  // per constant: the groups left do not place it (too few rows, or not pinned)
    int evaluations = 0;
};

/// What a refit leaves out: each fitted group alone (HoldOut::Group), or every
/// fitted group of one shape at once (HoldOut::Shape, hold_out_shape), in order
/// of each unit's first group.
std::vector<std::vector<std::size_t>> hold_out_units(const CalibrationProblem& problem,
                                                     const std::vector<std::size_t>& fit, HoldOut by);

/// Refits without each unit of fitted groups in turn (units[k] -> out[k]).
/// The refits are independent, so they run on worker threads, each with its
/// own RowPredictor (a predictor holds the preset it edits); every refit is
/// the same deterministic search whatever the thread count, and the results
/// land in their own slots, so the output does not depend on it. The first
/// refit to throw, in unit order, is rethrown.
std::vector<LeftOut> leave_each_out(RowPredictor& evaluator, const CalibrationProblem& problem,
                                    const std::vector<std::size_t>& fit,
                                    const std::vector<std::vector<std::size_t>>& units,
                                    const std::vector<double>& start, const CalibrationOptions& options,
                                    const ConfigValue& preset_root, const std::string& preset_path,
                                    const CalibrationData& input);

}  // namespace dtcalc
