#pragma once
// One picture per validation group, checked at a glance, with the group's
// error summary and gate verdicts in the title (drawn by report/svg_chart.h):
// - a sweep of one thing (sizes, NPUs): measured time (dots) and dtcalc's
//   prediction (a line; the reference model's dashed when there is one)
//   against it, both axes logarithmic;
// - unrelated cases (training runs of different models and plans): per model
//   one colour and marker, measured filled and dtcalc hollow, joined by a
//   thin line per case, no line from one case to the next.
#include <string>
#include <vector>

#include "validate/validation_run.h"

namespace dtcalc {

/// The SVG document for one group (its cases are the report's cases with the
/// same dataset and group).
std::string group_plot_svg(const GroupSummary& group, const std::vector<const ValidationCase*>& cases);

/// "<dataset>__<group>.svg" with every character outside [A-Za-z0-9._-]
/// replaced by '_'.
std::string group_plot_file_name(const GroupSummary& group);

/// Writes one SVG per group into `dir` (created when missing) and returns the
/// paths written. Throws InputError (key "--plot") when it cannot.
std::vector<std::string> write_group_plots(const ValidationReport& report, const std::string& dir);

}  // namespace dtcalc
