#pragma once
// `dtcalc collective --plot`: time and bus bandwidth against message size or
// against GPU count, one line per series, both x axes logarithmic (powers of
// two), time on a log axis, bus bandwidth on a linear one from zero.
#include <string>
#include <vector>

#include "report/collective_report.h"

namespace dtcalc {

enum class CollectivePlotX { Size, Gpus };

struct CollectivePlotPoint {
    double x = 0;  ///< bytes or GPUs
    double time_us = 0;
    double busbw_gbps = 0;
};

struct CollectivePlotSeries {
    std::string name;  ///< in the legend; empty for a lone series
    std::vector<CollectivePlotPoint> points;
};

struct CollectivePlot {
    std::string title;
    CollectivePlotX x = CollectivePlotX::Size;
    std::vector<CollectivePlotSeries> series;
};

/// The plot of a table's rows: against size, one series per GPU count, when
/// the sizes vary; against GPU count when only the count does.
CollectivePlot collective_plot_from_rows(const std::vector<CollectiveRow>& rows, const std::string& system_label);

std::string collective_plot_svg(const CollectivePlot& plot);

}  // namespace dtcalc
