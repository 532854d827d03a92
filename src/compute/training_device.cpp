#include "compute/training_device.h"

#include <algorithm>

namespace dtcalc {

namespace {
const GemmShapeModel& shape_model(const TrainingDevice& d, Precision p) {
    return p == Precision::FP8 ? d.fp8_gemm_shape : d.gemm_shape;
}
}  // namespace

double gemm_bytes(Precision p, double m, double n, double k) {
    const double operand = p == Precision::FP8 ? 1.0 : 2.0;
    return (m * k + k * n) * operand + m * n * 2.0;
}

bool times_gemm_shapes(const TrainingDevice& d, Precision p) { return shape_model(d, p).given(); }

TrainingDevice with_sms_reserved(const TrainingDevice& d, double sms) {
    const double all = d.gemm_shape.tiling.sms;
    if (!d.gemm_shape.given() || !(sms > 0) || !(all > sms)) return d;
    TrainingDevice out = d;
    const double left = (all - sms) / all;
    out.peak_tflops_bf16 *= left;
    out.peak_tflops_fp8 *= left;
    out.gemm_shape.tiling.sms = all - sms;
    if (out.fp8_gemm_shape.given() && out.fp8_gemm_shape.tiling.sms > sms) out.fp8_gemm_shape.tiling.sms -= sms;
    return out;
}

double gemm_time_ns(const TrainingDevice& d, Precision p, double m, double n, double k, double bytes, double batch) {
    const double flops = 2.0 * m * n * k * batch;
    if (!times_gemm_shapes(d, p) || flops <= 0) return gemm_time_ns(d, p, flops, bytes);
    return roofline_time(flops, d.peak_tflops(p),
                         gemm_shape_efficiency(shape_model(d, p), m, n, k, batch) * d.sustained_fraction(p), bytes,
                         d.hbm_gbps, d.memory_efficiency)
        .ns;
}

double expert_gemm_time_ns(const TrainingDevice& d, Precision p, GemmPass pass, double m, double n, double k,
                           double experts) {
    const double e = std::max(1.0, experts);
    const double operand = gemm_bytes(p, 0, 1, 1);  // one operand element
    if (pass == GemmPass::WeightGradient) {
        // (m x k)(k x n) with k the routed tokens: each expert's gradient m x n written.
        const double bytes = (m * k + k * n) * operand + e * m * n * 2.0;
        return gemm_time_ns(d, p, m, n, k / e, bytes, e);
    }
    // (m x k)(k x n) with m the routed tokens: each expert's k x n weights read.
    const double bytes = m * k * operand + e * k * n * operand + m * n * 2.0;
    return gemm_time_ns(d, p, m / e, n, k, bytes, e);
}

double gemm_time_ns(const TrainingDevice& d, Precision p, double flops, double bytes) {
    if (flops <= 0 && bytes <= 0) return 0;
    // Known only by its FLOPs on a device timed by shape: a large GEMM, at the plateau.
    if (times_gemm_shapes(d, p))
        return roofline_time(flops, d.peak_tflops(p), std::min(1.0, shape_model(d, p).plateau) * d.sustained_fraction(p),
                             bytes, d.hbm_gbps, d.memory_efficiency)
            .ns;
    const EfficiencyCurve& curve =
        p == Precision::FP8 && !d.fp8_gemm_efficiency.points.empty() ? d.fp8_gemm_efficiency : d.gemm_efficiency;
    return roofline_time(flops, d.peak_tflops(p), curve.at(flops) * d.sustained_fraction(p), bytes, d.hbm_gbps,
                         d.memory_efficiency)
        .ns;
}

double attention_forward_time_ns(const TrainingDevice& d, double flops, double bytes, double seq) {
    if (flops <= 0 && bytes <= 0) return 0;
    return roofline_time(flops, d.peak_tflops_bf16, d.attention_forward.at(seq), bytes, d.hbm_gbps, d.memory_efficiency).ns;
}

double attention_backward_time_ns(const TrainingDevice& d, double flops, double bytes, double seq) {
    if (flops <= 0 && bytes <= 0) return 0;
    // Five matmuls against the forward's two (dQ, dK, dV and the recomputed scores and
    // their gradient): 2.5x its FLOPs; the forward's reads again and the gradients written.
    return roofline_time(2.5 * flops, d.peak_tflops_bf16, d.attention_backward.at(seq), 2 * bytes, d.hbm_gbps,
                         d.memory_efficiency)
        .ns;
}

double memory_time_ns(const TrainingDevice& d, double bytes) {
    return roofline_time(0, d.peak_tflops_bf16, 1, bytes, d.hbm_gbps, d.memory_efficiency).ns;
}

TrainingDevice roofline_device(double peak_tflops, double bandwidth_gbps) {
    TrainingDevice d;
    d.peak_tflops_bf16 = peak_tflops;
    d.hbm_gbps = bandwidth_gbps;
    return d;
}

RooflineTime roofline_time(const TrainingDevice& d, double flops, double bytes) {
    return roofline_time(flops, d.peak_tflops_bf16, d.gemm_efficiency.at(flops), bytes, d.hbm_gbps, d.memory_efficiency);
}

bool can_time(const TrainingDevice& d, double flops, double bytes) {
    return (flops <= 0 || d.peak_tflops_bf16 > 0) && (bytes <= 0 || d.hbm_gbps > 0);
}

}  // namespace dtcalc
