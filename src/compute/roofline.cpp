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

RooflineTime roofline_time(double flops, double peak_tflops, double flops_efficiency, double bytes,
                           double bandwidth_gbps, double memory_efficiency) {
    RooflineTime t;
    const double compute_ns = flops > 0 ? flops / (peak_tflops * 1e3 * flops_efficiency) : 0.0;
    const double memory_ns = bytes > 0 ? bytes / (bandwidth_gbps * memory_efficiency) : 0.0;
    t.compute_bound = compute_ns >= memory_ns;
    t.ns = std::max(compute_ns, memory_ns);
    return t;
}

}  // namespace dtcalc
