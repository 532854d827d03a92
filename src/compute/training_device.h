#pragma once
// An accelerator as `predict` times it: peak FLOP/s per precision, memory
// bandwidth and capacity, and achieved fractions of peak measured on real
// kernels (a curve per device, from its preset, never a factor per workload).
//
//   GEMM        max(F / (peak_p x eff_gemm(F)), B / (bw x eff_mem))   F = FLOPs of one GEMM
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
    double attention_efficiency = 1;
    double memory_efficiency = 1;

    double peak_tflops(Precision p) const { return p == Precision::FP8 ? peak_tflops_fp8 : peak_tflops_bf16; }
};

double gemm_time_ns(const TrainingDevice& d, Precision p, double flops, double bytes);
double attention_time_ns(const TrainingDevice& d, double flops, double bytes);
double memory_time_ns(const TrainingDevice& d, double bytes);

}  // namespace dtcalc
