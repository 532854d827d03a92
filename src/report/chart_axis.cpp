#include "report/chart_axis.h"

#include <algorithm>
#include <cmath>

namespace dtcalc {

double AxisScale::at(double value) const {
    double t = 0;
    if (log) {
        if (!(value > 0) || !(lo > 0) || !(hi > lo)) return pixel_lo;
        t = (std::log10(value) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    } else {
        if (!(hi > lo)) return pixel_lo;
        t = (value - lo) / (hi - lo);
    }
    return pixel_lo + t * (pixel_hi - pixel_lo);
}

bool AxisScale::contains(double value) const {
    // A relative tolerance: ticks computed as k x step may miss an end by rounding.
    const double slack = 1e-9 * std::max(std::abs(lo), std::abs(hi));
    return value >= lo - slack && value <= hi + slack;
}

double nice_step(double span, int max_ticks) {
    if (!(span > 0) || max_ticks < 1) return 1;
    const double raw = span / max_ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw * (1 - 1e-12)) return m * magnitude;
    return 10 * magnitude;
}

std::vector<double> linear_ticks(double lo, double hi, int max_ticks) {
    std::vector<double> ticks;
    if (!(hi > lo)) return ticks;
    const double step = nice_step(hi - lo, max_ticks);
    const double eps = 1e-9;
    for (long long k = static_cast<long long>(std::ceil(lo / step - eps)); k <= static_cast<long long>(std::floor(hi / step + eps));
         ++k)
        ticks.push_back(k == 0 ? 0.0 : static_cast<double>(k) * step);
    return ticks;
}

std::pair<double, double> linear_range(double min, double max, bool from_zero, int max_ticks) {
    const bool nonnegative = min >= 0;
    if (from_zero && nonnegative) min = 0;
    if (!(max > min)) {  // one value: 10 % either side of it (1 either side of 0)
        const double half = min == 0 ? 1 : 0.1 * std::abs(min);
        min -= half;
        max += half;
        if (from_zero && nonnegative) min = std::max(min, 0.0);
    }
    const double step = nice_step(max - min, max_ticks);
    const double lo = std::floor(min / step + 1e-9) * step, hi = std::ceil(max / step - 1e-9) * step;
    return {lo, hi > lo ? hi : lo + step};
}

std::pair<double, double> log_range(double min, double max) {
    if (!(min > 0)) min = max > 0 ? max : 1;
    if (!(max >= min)) max = min;
    double lo = std::log10(min), hi = std::log10(max);
    const double factor2 = std::log10(2.0);
    if (hi - lo < factor2) {
        const double mid = 0.5 * (lo + hi);
        lo = mid - factor2 / 2;
        hi = mid + factor2 / 2;
    }
    const double pad = 0.04 * (hi - lo);
    return {std::pow(10.0, lo - pad), std::pow(10.0, hi + pad)};
}

std::vector<double> log_ticks(double lo, double hi, TickStyle style, int max_ticks) {
    std::vector<double> ticks;
    if (!(lo > 0) || !(hi > lo)) return ticks;
    const AxisScale range{lo, hi, true, 0, 1};
    if (style == TickStyle::PowersOfTwo) {
        const int first = static_cast<int>(std::ceil(std::log2(lo) - 1e-9));
        const int last = static_cast<int>(std::floor(std::log2(hi) + 1e-9));
        const int count = last - first + 1;
        const int every = max_ticks > 0 && count > max_ticks ? (count + max_ticks - 1) / max_ticks : 1;
        for (int e = first; e <= last; ++e)
            if ((e - first) % every == 0) ticks.push_back(std::ldexp(1.0, e));
        return ticks;
    }
    const int first = static_cast<int>(std::floor(std::log10(lo)));
    const int last = static_cast<int>(std::ceil(std::log10(hi)));
    const bool decades_only = std::log10(hi) - std::log10(lo) > 4;
    for (int d = first; d <= last; ++d)
        for (double m : {1.0, 2.0, 5.0}) {
            if (decades_only && m != 1.0) continue;
            const double value = m * std::pow(10.0, d);
            if (range.contains(value)) ticks.push_back(value);
        }
    return ticks;
}

bool wants_log_axis(double min, double max) { return min > 0 && max > 20 * min; }

}  // namespace dtcalc
