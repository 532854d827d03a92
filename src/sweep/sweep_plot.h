#pragma once
// `dtcalc sweep --plot`: iteration time against peak memory for every point
// that runs, those that fit in memory apart from those that do not (and from
// those on a system that states no memory capacity: not checked), the
// Pareto front of time and memory (sweep_ranking.h, the summary's) as a line,
// and the best point by the objective (the best that fits, when one does)
// called out, and the memory limit (each, where points have different ones)
// as a line. One panel per case. Points that cannot run or are not allowed
// have neither time nor memory: a note counts them.
//
// The sweep keeps what ranking needs of every point (RankedPoint) for its
// summary anyway, so the plot costs the sweep nothing; labels are made only
// for the called-out point.
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "report/svg_chart.h"
#include "sweep/sweep_ranking.h"

namespace dtcalc {

/// The chart of one case's points; `describe` labels the best point.
XyChart sweep_case_chart(std::span<const RankedPoint> points, SweepObjective objective,
                         const std::function<std::string(const RankedPoint&)>& describe, const std::string& title);

/// The document: one panel per chart, stacked.
std::string sweep_plot_svg(const std::vector<XyChart>& charts);

}  // namespace dtcalc
