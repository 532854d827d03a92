#pragma once
// `dtcalc predict --plot`: one picture of where the iteration goes and what
// fills a GPU's memory.
//
// - Time: the slowest stage's iteration as one stacked bar, compute, exposed
//   communication by group (tp, cp, ep, dp, pp) and the pipeline bubble,
//   which add up to the iteration (predict/time_accounts.h). Groups in flight
//   at the same time each count their exposed time; where they do, the sum
//   over groups exceeds the exposed total, and the bar and its legend share
//   the exposed total among the groups in proportion to their own exposed
//   times (a note says so; predict's table keeps each group's own time).
// - Memory: per pipeline stage (the peak stage alone beyond 16 stages)
//   weights, gradients, optimizer state, activations and buffers, against the
//   memory limit (the device's capacity unless --memory-limit says otherwise).
#include <string>

#include "predict/predict.h"
#include "report/predict_report.h"
#include "report/svg_chart.h"

namespace dtcalc {

/// The time bar of `r` (its values in the unit the chart names).
BarChart predict_time_chart(const PredictResult& r);

/// The memory bars of `in` and `r`, in GiB.
BarChart predict_memory_chart(const PredictInputs& in, const PredictResult& r);

/// The whole SVG document.
std::string predict_plot_svg(const PredictInputs& in, const PredictResult& r, const PredictLabels& labels);

}  // namespace dtcalc
