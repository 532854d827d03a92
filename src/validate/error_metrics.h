#pragma once
// How far predictions are from measurements.
//
//   error of one case = |predicted / measured - 1|
//   geomean = exp(mean(ln error))   (0 when any error is exactly 0; the metric
//             ASTRA-sim reports its validation in)
//   median  = middle error (mean of the two middle ones for an even count)
//   max     = largest error;  mean = arithmetic mean
// An empty list summarises to 0.
#include <optional>
#include <span>
#include <string_view>

namespace dtcalc {

enum class ErrorMetric { Geomean, Median, Max, Mean };

std::optional<ErrorMetric> parse_error_metric(std::string_view name);  ///< "geomean", "median", "max", "mean"
std::string_view error_metric_name(ErrorMetric metric);

/// |predicted / measured - 1|; measured must be > 0.
double relative_error(double predicted, double measured);

double summarize_errors(ErrorMetric metric, std::span<const double> errors);

}  // namespace dtcalc
