#pragma once
// A deterministic minimiser over a box of positive numbers, searching each
// coordinate in log space (a rate or a size is as far from 2x as from 0.5x).
//
// Coordinate descent: for each free coordinate in turn, on the first sweep the
// objective on a grid of `grid_points` values evenly spaced in log between its
// bounds (and at its current value), then golden-section refinement over the
// grid cells either side of the best grid point; on later sweeps the
// refinement alone, over a cell either side of the coordinate's value. A
// coordinate moves only to a strictly lower objective. Sweeps repeat until no
// coordinate moves by more than `tolerance` in log, or `max_sweeps` (constants
// that trade against each other, a rate and a per-chunk cost, take many). The
// grid keeps it from stopping in the first local dip of an objective with
// steps (NCCL's algorithm choice flips); the same inputs always give the same
// answer.
#include <functional>
#include <vector>

namespace dtcalc {

struct LogSearchSettings {
    int grid_points = 17;
    int golden_steps = 24;  ///< each shrinks the bracket by 0.618: 24 steps, ~1e-5 of a grid cell
    int max_sweeps = 40;
    double tolerance = 1e-4;  ///< in ln(value): a hundredth of a per cent, below the 4 digits a fit is written with
};

struct LogSearchResult {
    std::vector<double> values;
    double objective = 0;
    int evaluations = 0;
    int sweeps = 0;
};

/// `objective(values, changed)`: the value at `values`, where only
/// coordinate `changed` differs from the last accepted point (-1: any may).
/// `low` and `high` are > 0 with low < high; `start` lies within them; only
/// coordinates with `free[i]` move.
using LogSearchObjective = std::function<double(const std::vector<double>& values, int changed)>;

LogSearchResult minimize_in_log_box(const LogSearchObjective& objective, const std::vector<double>& start,
                                    const std::vector<double>& low, const std::vector<double>& high,
                                    const std::vector<bool>& free, const LogSearchSettings& settings = {});

}  // namespace dtcalc
