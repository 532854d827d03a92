#pragma once
// Compute time from the roofline: an op of F FLOPs that moves B bytes takes
//     max(F / (peak x eff_flops(F)), B / (mem_bw x eff_mem(B)))
// which is ASTRA-sim's perf = min(mem_bw x operational intensity, peak) with
// efficiencies. Units: peak in TFLOP/s (1e12), memory bandwidth in GB/s (1e9).
#include <utility>
#include <vector>

namespace dtcalc {

/// Achieved fraction of peak as a function of op size: piecewise linear in
/// log10(size) between points, constant beyond the ends; empty means 1.
struct EfficiencyCurve {
    std::vector<std::pair<double, double>> points;  ///< (size, efficiency in (0, 1]), sizes increasing
    double at(double size) const;
};

struct ComputeDevice {
    double peak_tflops = 0;   ///< dense peak for the workload's precision
    double mem_bw_gbps = 0;   ///< local memory bandwidth
    EfficiencyCurve flops_efficiency;   ///< by FLOPs of the op
    EfficiencyCurve memory_efficiency;  ///< by bytes of the op
};

struct RooflineTime {
    double ns = 0;
    bool compute_bound = true;
};

/// Zero FLOPs and zero bytes take no time. A device without a peak (or a
/// bandwidth) cannot time an op that needs it: callers check `can_time`.
RooflineTime roofline_time(const ComputeDevice& device, double flops, double bytes);
bool can_time(const ComputeDevice& device, double flops, double bytes);

}  // namespace dtcalc
