#pragma once
// The maths of a chart's axes: where a value lands in pixels (linear or
// logarithmic), the range an axis spans, and where its ticks go.
//
// - Linear ticks step by 1, 2 or 5 times a power of ten, the smallest such
//   step that gives at most `max_ticks` intervals over the range (the usual
//   "nice numbers" rule); they sit on whole multiples of the step.
// - Logarithmic ticks are 1, 2 and 5 times each power of ten (only the powers
//   of ten when the range spans more than four decades), or powers of two for
//   sizes and GPU counts (every k-th when there would be more than `max_ticks`).
// - A log range is the data's, widened to at least a factor of 2 and padded by
//   4 % of its width at each end (in log space); a linear range is widened to
//   whole steps, from zero when asked.
#include <string>
#include <vector>

namespace dtcalc {

enum class TickStyle { Decimal, PowersOfTwo };

/// A data range [lo, hi] drawn over the pixels [pixel_lo, pixel_hi] (pixel_hi
/// may be below pixel_lo: a y axis grows upwards).
struct AxisScale {
    double lo = 0, hi = 1;
    bool log = false;
    double pixel_lo = 0, pixel_hi = 1;
    /// The pixel of `value` (on a log axis, values <= 0 map to pixel_lo).
    double at(double value) const;
    bool contains(double value) const;
};

/// The smallest of 1, 2, 5 x 10^k that cuts `span` into at most `max_ticks` steps.
double nice_step(double span, int max_ticks);

/// Whole multiples of nice_step(hi - lo, max_ticks) inside [lo, hi].
std::vector<double> linear_ticks(double lo, double hi, int max_ticks);

/// [lo, hi] of a linear axis holding [min, max]: from 0 when `from_zero` (and
/// min >= 0), ends rounded out to whole steps; an empty range is widened.
std::pair<double, double> linear_range(double min, double max, bool from_zero, int max_ticks);

/// [lo, hi] of a log axis holding [min, max] (both > 0), as described above.
std::pair<double, double> log_range(double min, double max);

/// Tick values inside [lo, hi] of a log axis.
std::vector<double> log_ticks(double lo, double hi, TickStyle style, int max_ticks);

/// Whether values over [min, max] (both > 0) read better on a log axis: they span more than a factor of 20.
bool wants_log_axis(double min, double max);

}  // namespace dtcalc
