#include "compute/training_device.h"

#include <algorithm>

namespace dtcalc {

double gemm_time_ns(const TrainingDevice& d, Precision p, double flops, double bytes) {
    if (flops <= 0 && bytes <= 0) return 0;
    const EfficiencyCurve& curve =
        p == Precision::FP8 && !d.fp8_gemm_efficiency.points.empty() ? d.fp8_gemm_efficiency : d.gemm_efficiency;
    const double compute = flops / (d.peak_tflops(p) * 1e3 * curve.at(flops));
    return std::max(compute, memory_time_ns(d, bytes));
}

double attention_time_ns(const TrainingDevice& d, double flops, double bytes) {
    if (flops <= 0 && bytes <= 0) return 0;
    const double compute = flops / (d.peak_tflops_bf16 * 1e3 * d.attention_efficiency);
    return std::max(compute, memory_time_ns(d, bytes));
}

double memory_time_ns(const TrainingDevice& d, double bytes) {
    return bytes > 0 ? bytes / (d.hbm_gbps * d.memory_efficiency) : 0.0;
}

}  // namespace dtcalc
