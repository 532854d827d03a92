#pragma once
// Ranking a sweep's points: the best K by the objective among the points that
// can run (memory not limited), the best of those that also fit in memory,
// and the Pareto front of iteration time against peak memory (the points no
// other point beats on both). Ties go to the lower point number, so the
// ranking is deterministic.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sweep/sweep_spec.h"

namespace dtcalc {

/// What ranking needs of one point.
struct RankedPoint {
    std::uint64_t point = 0;
    int case_index = 0;
    bool runs = false;  ///< allowed, and predict can run the plan
    bool fits = false;  ///< runs and fits in memory (predict's `feasible`)
    bool memory_known = true;  ///< a memory limit was checked (false: the system states no capacity and none was given)
    double iteration_ns = 0;
    double tokens_per_s = 0;
    double tokens_per_s_per_gpu = 0;
    double mfu = 0;
    double memory_bytes = 0;
    double memory_limit_bytes = 0;  ///< what `fits` was checked against; 0: no limit known
    double cost_per_mtok = 0;  ///< 0: unknown
};

/// The objective's value of a point (larger is better when it maximizes).
double objective_value(const RankedPoint& p, SweepObjective objective);

struct Ranking {
    std::uint64_t points = 0, runs = 0, fits = 0;
    std::uint64_t fits_unchecked = 0;  ///< of `fits`: no memory limit known, so none was checked
    std::vector<RankedPoint> best;            ///< up to `top`, best first
    std::optional<RankedPoint> best_fitting;  ///< the best point that fits in memory
    std::vector<RankedPoint> pareto;          ///< by increasing iteration time
};

/// With `fitting_only` (a sweep that writes only feasible rows) the best
/// points and the Pareto front are drawn from the points that fit in memory.
Ranking rank_points(std::span<const RankedPoint> points, SweepObjective objective, int top, bool fitting_only = false);

}  // namespace dtcalc
