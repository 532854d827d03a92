#include "sweep/sweep_plot.h"

#include <fmt/format.h>

#include <algorithm>

namespace dtcalc {

XyChart sweep_case_chart(std::span<const RankedPoint> points, SweepObjective objective,
                         const std::function<std::string(const RankedPoint&)>& describe, const std::string& title) {
    constexpr double kGiB = 1073741824.0;
    const Ranking r = rank_points(points, objective, 1);
    double max_ns = 0;
    for (const RankedPoint& p : points)
        if (p.runs) max_ns = std::max(max_ns, p.iteration_ns);
    const auto [unit, per] = max_ns >= 1e9 ? std::pair{"s", 1e9} : max_ns >= 1e6 ? std::pair{"ms", 1e6} : std::pair{"us", 1e3};

    XyChart chart;
    chart.title = title;
    Series fits{"", chart_color(0), {}, false, false, Marker::Circle, false};
    Series over{"", chart_color(2), {}, false, false, Marker::Cross, false};
    Series unchecked{"", chart_color(9), {}, false, false, Marker::Circle, true};
    Series front{"", chart_color(1), {}, true, false, Marker::None, false};
    double x_min = 0, x_max = 0, y_min = 0, y_max = 0;
    bool first = true;
    for (const RankedPoint& p : points) {
        if (!p.runs) continue;
        const double x = p.iteration_ns / per, y = p.memory_bytes / kGiB;
        (!p.fits ? over : p.memory_limit_bytes > 0 ? fits : unchecked).points.emplace_back(x, y);
        x_min = first ? x : std::min(x_min, x);
        x_max = first ? x : std::max(x_max, x);
        y_min = first ? y : std::min(y_min, y);
        y_max = first ? y : std::max(y_max, y);
        first = false;
    }
    // The memory limits the points were checked against: a line each (most sweeps have one).
    std::vector<double> limits;
    for (const RankedPoint& p : points)
        if (p.runs && p.memory_limit_bytes > 0 &&
            std::find(limits.begin(), limits.end(), p.memory_limit_bytes) == limits.end())
            limits.push_back(p.memory_limit_bytes);
    std::sort(limits.begin(), limits.end());
    for (double limit : limits)
        chart.y_lines.push_back({limit / kGiB, fmt::format("memory limit {:.2f} GiB", limit / kGiB), "#c0392b"});
    for (const RankedPoint& p : r.pareto) front.points.emplace_back(p.iteration_ns / per, p.memory_bytes / kGiB);
    fits.name = fmt::format("fits in memory ({})", fits.points.size());
    over.name = fmt::format("does not fit ({})", over.points.size());
    front.name = fmt::format("Pareto front of time and memory ({})", front.points.size());
    unchecked.name = fmt::format("memory not checked: no capacity known ({})", unchecked.points.size());
    chart.series = {front, fits, over};
    if (!unchecked.points.empty()) {
        // Where no capacity is known, empty "fits" and "does not fit" entries say nothing.
        for (Series* s : {&chart.series[1], &chart.series[2]})
            if (s->points.empty()) s->name.clear();
        chart.series.push_back(unchecked);
    }

    chart.x = {fmt::format("iteration time ({})", unit), wants_log_axis(x_min, x_max), false, TickStyle::Decimal,
               TickFormat::Number};
    chart.y = {"peak memory per GPU (GiB)", wants_log_axis(y_min, y_max), true, TickStyle::Decimal, TickFormat::Number};

    const RankedPoint* best = r.best_fitting ? &*r.best_fitting : r.best.empty() ? nullptr : &r.best.front();
    if (best) {
        chart.callouts.push_back({best->iteration_ns / per, best->memory_bytes / kGiB,
                                  best->fits ? "best" : "best (does not fit)",
                                  "#111111"});
        const char* which = !r.best_fitting ? "" : best->memory_limit_bytes > 0 ? " that fits in memory" : " (memory not checked)";
        chart.notes.push_back(fmt::format("best by {}{}: {} ({:.3f} {}, {:.2f} GiB)", sweep_objective_name(objective),
                                          which, describe(*best),
                                          best->iteration_ns / per, unit, best->memory_bytes / kGiB));
    }
    if (r.points > r.runs)
        chart.notes.push_back(fmt::format("{} of {} points cannot run or are not allowed (not drawn).", r.points - r.runs,
                                          r.points));
    return chart;
}

std::string sweep_plot_svg(const std::vector<XyChart>& charts) {
    constexpr double kWidth = 760, kPanel = 480;
    std::string body;
    double y = 0;
    for (const XyChart& chart : charts) {
        const double h = kPanel + 15.0 * static_cast<double>(chart.notes.size());
        body += render_xy_chart(chart, {0, y, kWidth, h});
        y += h;
    }
    return svg_document(kWidth, std::max(y, 1.0), body);
}

}  // namespace dtcalc
