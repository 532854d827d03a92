#include "calibrate/log_space_search.h"

#include <algorithm>
#include <cmath>

namespace dtcalc {

LogSearchResult minimize_in_log_box(const LogSearchObjective& objective, const std::vector<double>& start,
                                    const std::vector<double>& low, const std::vector<double>& high,
                                    const std::vector<bool>& free, const LogSearchSettings& settings) {
    LogSearchResult out;
    out.values = start;
    out.objective = objective(out.values, -1);
    out.evaluations = 1;
    const double golden = (std::sqrt(5.0) - 1) / 2;
    for (int sweep = 0; sweep < settings.max_sweeps; ++sweep) {
        ++out.sweeps;
        double largest_move = 0;
        for (std::size_t i = 0; i < out.values.size(); ++i) {
            if (!free[i]) continue;
            const double a = std::log(low[i]);
            const double b = std::log(high[i]);
            const double x0 = std::log(out.values[i]);
            // exp(log(high)) may round above high: clamp the value too.
            auto value_at = [&](double x) { return std::clamp(std::exp(std::clamp(x, a, b)), low[i], high[i]); };
            std::vector<double> trial = out.values;
            auto f = [&](double x) {
                trial[i] = value_at(x);
                ++out.evaluations;
                return objective(trial, static_cast<int>(i));
            };
            double best_x = x0;
            double best_f = out.objective;
            const int n = std::max(2, settings.grid_points);
            const double cell = (b - a) / (n - 1);
            double grid_x = x0;
            double grid_f = out.objective;
            // The grid on the first sweep finds the basin; later sweeps refine
            // within a cell either side of where the coordinate stands.
            for (int k = 0; sweep == 0 && k < n; ++k) {
                const double x = a + cell * k;
                const double fx = f(x);
                if (fx < grid_f) {
                    grid_f = fx;
                    grid_x = x;
                }
            }
            // Golden section over the cells either side of the best grid point.
            double lo = std::max(a, grid_x - cell);
            double hi = std::min(b, grid_x + cell);
            double c = hi - golden * (hi - lo);
            double d = lo + golden * (hi - lo);
            double fc = f(c);
            double fd = f(d);
            for (int step = 0; step < settings.golden_steps; ++step) {
                if (fc < fd) {
                    hi = d;
                    d = c;
                    fd = fc;
                    c = hi - golden * (hi - lo);
                    fc = f(c);
                } else {
                    lo = c;
                    c = d;
                    fc = fd;
                    d = lo + golden * (hi - lo);
                    fd = f(d);
                }
            }
            const double mid = (lo + hi) / 2;
            const double fmid = f(mid);
            for (const auto& [x, fx] : {std::pair{grid_x, grid_f}, std::pair{c, fc}, std::pair{d, fd}, std::pair{mid, fmid}}) {
                if (fx < best_f) {
                    best_f = fx;
                    best_x = x;
                }
            }
            if (best_x != x0) {
                largest_move = std::max(largest_move, std::abs(best_x - x0));
                out.values[i] = value_at(best_x);
                out.objective = objective(out.values, -1);  // the accepted point, every part recomputed
                ++out.evaluations;
            }
        }
        if (largest_move <= settings.tolerance) break;
    }
    return out;
}

}  // namespace dtcalc
