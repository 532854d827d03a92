#include "compute/roofline.h"

#include <algorithm>
#include <cmath>

namespace dtcalc {

double EfficiencyCurve::at(double size) const {
    if (points.empty()) return 1.0;
    if (size <= points.front().first) return points.front().second;
    if (size >= points.back().first) return points.back().second;
    const double x = std::log10(size);
    for (std::size_t i = 1; i < points.size(); ++i) {
        if (size <= points[i].first) {
            const double x0 = std::log10(points[i - 1].first);
            const double x1 = std::log10(points[i].first);
            const double t = (x - x0) / (x1 - x0);
            return points[i - 1].second + t * (points[i].second - points[i - 1].second);
        }
    }
    return points.back().second;
}

}  // namespace dtcalc
