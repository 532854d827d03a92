#include "validate/error_metrics.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace dtcalc {

std::optional<ErrorMetric> parse_error_metric(std::string_view name) {
    if (name == "geomean") return ErrorMetric::Geomean;
    if (name == "median") return ErrorMetric::Median;
    if (name == "max") return ErrorMetric::Max;
    if (name == "mean") return ErrorMetric::Mean;
    return std::nullopt;
}

std::string_view error_metric_name(ErrorMetric metric) {
    switch (metric) {
        case ErrorMetric::Geomean: return "geomean";
        case ErrorMetric::Median: return "median";
        case ErrorMetric::Max: return "max";
        case ErrorMetric::Mean: return "mean";
    }
    return "?";
}

double relative_error(double predicted, double measured) { return std::fabs(predicted / measured - 1.0); }

double summarize_errors(ErrorMetric metric, std::span<const double> errors) {
    if (errors.empty()) return 0.0;
    switch (metric) {
        case ErrorMetric::Geomean: {
            double log_sum = 0;
            for (double e : errors) {
                if (e <= 0) return 0.0;
                log_sum += std::log(e);
            }
            return std::exp(log_sum / static_cast<double>(errors.size()));
        }
        case ErrorMetric::Median: {
            std::vector<double> sorted(errors.begin(), errors.end());
            std::sort(sorted.begin(), sorted.end());
            const std::size_t n = sorted.size();
            return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        }
        case ErrorMetric::Max: return *std::max_element(errors.begin(), errors.end());
        case ErrorMetric::Mean: {
            double sum = 0;
            for (double e : errors) sum += e;
            return sum / static_cast<double>(errors.size());
        }
    }
    return 0.0;
}

}  // namespace dtcalc
