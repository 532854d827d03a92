#include "sweep/sweep_ranking.h"

#include <algorithm>

namespace dtcalc {

double objective_value(const RankedPoint& p, SweepObjective objective) {
    switch (objective) {
        case SweepObjective::Time: return p.iteration_ns;
        case SweepObjective::TokensPerSecond: return p.tokens_per_s;
        case SweepObjective::TokensPerSecondPerGpu: return p.tokens_per_s_per_gpu;
        case SweepObjective::Mfu: return p.mfu;
        case SweepObjective::Memory: return p.memory_bytes;
        case SweepObjective::Cost: return p.cost_per_mtok;
    }
    return 0;
}

Ranking rank_points(std::span<const RankedPoint> points, SweepObjective objective, int top, bool fitting_only) {
    Ranking r;
    std::vector<RankedPoint> candidates;
    for (const RankedPoint& p : points) {
        ++r.points;
        if (!p.runs) continue;
        ++r.runs;
        if (p.fits) ++r.fits;
        if (p.fits && !p.memory_known) ++r.fits_unchecked;
        if (fitting_only && !p.fits) continue;
        if (objective == SweepObjective::Cost && p.cost_per_mtok <= 0) continue;  // no tokens: no cost to rank by
        candidates.push_back(p);
    }
    const bool maximize = objective_maximizes(objective);
    auto better = [&](const RankedPoint& a, const RankedPoint& b) {
        const double va = objective_value(a, objective), vb = objective_value(b, objective);
        if (va != vb) return maximize ? va > vb : va < vb;
        return a.point < b.point;
    };
    std::sort(candidates.begin(), candidates.end(), better);
    for (const RankedPoint& p : candidates) {
        if (static_cast<int>(r.best.size()) < top) r.best.push_back(p);
        if (p.fits && !r.best_fitting) r.best_fitting = p;
    }
    std::vector<RankedPoint> by_time;
    for (const RankedPoint& p : points)
        if (p.runs && (p.fits || !fitting_only)) by_time.push_back(p);
    std::sort(by_time.begin(), by_time.end(), [](const RankedPoint& a, const RankedPoint& b) {
        if (a.iteration_ns != b.iteration_ns) return a.iteration_ns < b.iteration_ns;
        if (a.memory_bytes != b.memory_bytes) return a.memory_bytes < b.memory_bytes;
        return a.point < b.point;
    });
    for (const RankedPoint& p : by_time)
        if (r.pareto.empty() || p.memory_bytes < r.pareto.back().memory_bytes) r.pareto.push_back(p);
    return r;
}

}  // namespace dtcalc
