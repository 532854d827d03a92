#include "compute/training_device.h"

#include <algorithm>

namespace dtcalc {

namespace {
const GemmShapeModel& shape_model(const TrainingDevice& d, Precision p) {
    return p == Precision::FP8 ? d.fp8_gemm_shape : d.gemm_shape;
}
}  // namespace

bool times_gemm_shapes(const TrainingDevice& d, Precision p) { return shape_model(d, p).given(); }

double gemm_time_ns(const TrainingDevice& d, Precision p, double m, double n, double k, double bytes, double batch) {
    const double flops = 2.0 * m * n * k * batch;
    if (!times_gemm_shapes(d, p) || flops <= 0) return gemm_time_ns(d, p, flops, bytes);
    const double compute = flops / (d.peak_tflops(p) * 1e3 * gemm_shape_efficiency(shape_model(d, p), m, n, k, batch));
    return std::max(compute, memory_time_ns(d, bytes));
}

double gemm_time_ns(const TrainingDevice& d, Precision p, double flops, double bytes) {
    if (flops <= 0 && bytes <= 0) return 0;
    // Known only by its FLOPs on a device timed by shape: a large GEMM, at the plateau.
    if (times_gemm_shapes(d, p))
        return std::max(flops / (d.peak_tflops(p) * 1e3 * std::min(1.0, shape_model(d, p).plateau)), memory_time_ns(d, bytes));
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
