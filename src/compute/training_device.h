#pragma once
// An accelerator as `predict` times it: peak FLOP/s per precision, memory
// bandwidth and capacity, and achieved fractions of peak measured on real
// kernels (a curve per device, from its preset, never a factor per workload).
//
//   GEMM        max(F / (peak_p x eff x s), B / (bw x eff_mem))
//               eff = eff_shape(m, n, k) (compute/gemm_efficiency.h) where the device
//               states a GEMM benchmark for precision p, else eff_gemm(F), F = FLOPs of one GEMM;
//               s = the share of that throughput sustained in a training step, per
//               precision (fp8 GEMMs run at a lower clock under the power cap)
//               (fp8 casts are elementwise passes of their own: model/fp8_casts.h)
//   attention   fused causal attention, in bf16, F the forward's FLOPs on the half it computes:
//               forward  max(F / (peak_bf16 x eff_f(s)), B / (bw x eff_mem))
//               backward max(2.5 F / (peak_bf16 x eff_b(s)), 2 B / (bw x eff_mem))
//               (five matmuls against the forward's two), eff(s) = plateau x s / (s + s0)
//               over the kernel's sequence length s: a fixed cost per query tile (its
//               softmax epilogue, the half-empty diagonal tile) against a loop over s keys.
//               A device given one attention-efficiency e has eff_f = e, eff_b = 1.25 e
//               (the backward twice the forward's time) at every length.
//   elementwise B / (bw x eff_mem)
//   framework   b x tokens x hidden / tp bytes per transformer layer and pass (forward,
//               backward) at the elementwise rate: the memory traffic the framework's
//               kernels beside those timed here move, per element of the layer's
//               activation on this rank. In bytes, not time, so that it moves to another
//               device at that device's own memory bandwidth.
#include <string>

#include "compute/gemm_efficiency.h"
#include "compute/roofline.h"
#include "plan/parallel_plan.h"

namespace dtcalc {

/// Fused attention's achieved share of the bf16 peak at sequence length s:
/// plateau x s / (s + seq_overhead).
struct AttentionCurve {
    double plateau = 1;
    double seq_overhead = 0;  ///< s0, in tokens
    double at(double seq) const { return plateau * seq / (seq + seq_overhead); }
};

struct TrainingDevice {
    std::string name;
    double peak_tflops_bf16 = 0;
    double peak_tflops_fp8 = 0;   ///< 0: no fp8 (plans asking for it are refused)
    double peak_tflops_fp32 = 0;  ///< 0: not stated (gen-workload's roofline of 4-byte elements needs it)
    double hbm_gbps = 0;
    double hbm_capacity_bytes = 0;  ///< 0: unknown (no memory limit unless given)
    EfficiencyCurve gemm_efficiency;  ///< by FLOPs of one GEMM
    EfficiencyCurve fp8_gemm_efficiency;  ///< fp8 GEMMs, of the fp8 peak; empty: gemm_efficiency
    GemmShapeModel gemm_shape;      ///< BF16 GEMMs by shape; not given: gemm_efficiency
    GemmShapeModel fp8_gemm_shape;  ///< fp8 GEMMs by shape, of the fp8 peak; not given: gemm_efficiency curves
    double framework_bytes_per_element = 0;  ///< framework traffic per activation element (token x hidden / tp), layer and pass
    /// The share of its benchmark's GEMM throughput a GEMM sustains inside a
    /// training step (clocks under the power cap, kernels back to back).
    double sustained_gemm_fraction = 1;
    /// The same for fp8 GEMMs. They draw more power per clock, so under the same power
    /// cap they run at a lower clock than bf16 GEMMs (a preset not stating it: the bf16 figure).
    double sustained_gemm_fraction_fp8 = 1;
    AttentionCurve attention_forward;                     ///< forward, on its FLOPs
    AttentionCurve attention_backward{1.25, 0};           ///< backward, on 2.5x the forward's FLOPs
    double memory_efficiency = 1;
    /// Non-empty: the efficiencies above are this other device's, not measured
    /// on this one (reports say so).
    std::string efficiency_assumed_from;

    double peak_tflops(Precision p) const { return p == Precision::FP8 ? peak_tflops_fp8 : peak_tflops_bf16; }
    double sustained_fraction(Precision p) const {
        return p == Precision::FP8 ? sustained_gemm_fraction_fp8 : sustained_gemm_fraction;
    }
};

double gemm_time_ns(const TrainingDevice& d, Precision p, double flops, double bytes);
/// A GEMM of known shape (m x k) times (k x n), `batch` of them in one launch;
/// `bytes` for all of them. Devices without a shape model for p use the FLOPs curve.
double gemm_time_ns(const TrainingDevice& d, Precision p, double m, double n, double k, double bytes, double batch = 1);
/// Which product of a linear layer a GEMM is: Y = X W, dX = dY W^T, dW = X^T dY.
enum class GemmPass { Forward, InputGradient, WeightGradient };
/// A mixture-of-experts layer's grouped GEMM: one launch over `experts` experts, the routed
/// tokens split evenly among them, each expert with its own weights (Transformer Engine's
/// GroupedLinear, cuBLAS's grouped kernels). m, n, k are the whole product: the routed-token
/// dimension is m in the forward and input gradient, k in the weight gradient, and each
/// expert's GEMM takes 1 / experts of it. One expert is one GEMM.
double expert_gemm_time_ns(const TrainingDevice& d, Precision p, GemmPass pass, double m, double n, double k,
                           double experts);
/// The bytes a GEMM of (m x k) times (k x n) moves: operands at the precision's width
/// (2 B in bf16, 1 B in fp8), the output in bf16 (2 B).
double gemm_bytes(Precision p, double m, double n, double k);
/// Whether GEMMs in p are timed by shape.
bool times_gemm_shapes(const TrainingDevice& d, Precision p);
/// The device as a GEMM sees it while `sms` of its streaming multiprocessors run
/// other kernels beside it: the peaks scale with the SMs left, and the GEMM's
/// waves are counted over them (its benchmark plateau is kept). A device timed
/// without an SM count (a FLOPs curve), or with no more SMs than `sms`, is
/// returned as it is.
TrainingDevice with_sms_reserved(const TrainingDevice& d, double sms);
/// Fused causal attention over a sequence of `seq` tokens (the kernel's length): the
/// forward of `flops` FLOPs (the half it computes) moving `bytes`, and its backward.
double attention_forward_time_ns(const TrainingDevice& d, double flops, double bytes, double seq);
double attention_backward_time_ns(const TrainingDevice& d, double flops, double bytes, double seq);
double memory_time_ns(const TrainingDevice& d, double bytes);

/// A device known only by a peak and a memory bandwidth, at full efficiency
/// (ASTRA-sim's peak-perf and local-mem-bw).
TrainingDevice roofline_device(double peak_tflops, double bandwidth_gbps);
/// One op on the device's roofline: its bf16 peak at gemm_efficiency (by the
/// op's FLOPs), its HBM at memory_efficiency (compute/roofline.h). A device
/// without a peak (or a bandwidth) cannot time an op that needs it: callers
/// check `can_time`.
RooflineTime roofline_time(const TrainingDevice& d, double flops, double bytes);
bool can_time(const TrainingDevice& d, double flops, double bytes);

}  // namespace dtcalc
