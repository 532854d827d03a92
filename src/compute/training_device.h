#pragma once
// An accelerator as `predict` times it: peak FLOP/s per precision, memory
// bandwidth and capacity, and achieved fractions of peak measured on real
// kernels (a curve per device, from its preset, never a factor per workload).
//
//   GEMM        max(F / (peak_p x eff_gemm(F)), B / (bw x eff_mem))   F = FLOPs of one GEMM
//               (+ in fp8 the cast of both operands: 3 bytes per element at bw x eff_mem)
//   attention   max(F / (peak_bf16 x eff_attn), B / (bw x eff_mem))  fused attention runs in bf16
//   elementwise B / (bw x eff_mem)
#include <string>

#include "compute/roofline.h"
#include "plan/parallel_plan.h"

namespace dtcalc {

struct TrainingDevice {
    std::string name;
    double peak_tflops_bf16 = 0;
    double peak_tflops_fp8 = 0;   ///< 0: no fp8 (plans asking for it are refused)
    double hbm_gbps = 0;
    double hbm_capacity_bytes = 0;  ///< 0: unknown (no memory limit unless given)
    EfficiencyCurve gemm_efficiency;  ///< by FLOPs of one GEMM
    EfficiencyCurve fp8_gemm_efficiency;  ///< fp8 GEMMs, of the fp8 peak; empty: gemm_efficiency
    /// fp8 GEMMs first cast their bf16 operands: read 2 bytes, write 1 per element.
    double fp8_cast_bytes_per_element = 3;
    double attention_efficiency = 1;
    double memory_efficiency = 1;
    /// Non-empty: the efficiencies above are this other device's, not measured
    /// on this one (reports say so).
    std::string efficiency_assumed_from;

    double peak_tflops(Precision p) const { return p == Precision::FP8 ? peak_tflops_fp8 : peak_tflops_bf16; }
};

double gemm_time_ns(const TrainingDevice& d, Precision p, double flops, double bytes);
double attention_time_ns(const TrainingDevice& d, double flops, double bytes);
double memory_time_ns(const TrainingDevice& d, double bytes);

}  // namespace dtcalc
