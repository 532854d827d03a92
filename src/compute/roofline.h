#pragma once
// Compute time from the roofline: an op of F FLOPs that moves B bytes takes
//     max(F / (peak x eff_flops), B / (mem_bw x eff_mem))
// which is ASTRA-sim's perf = min(mem_bw x operational intensity, peak) with
// efficiencies. Units: peak in TFLOP/s (1e12), memory bandwidth in GB/s (1e9).
// The one implementation: every device time (compute/training_device.h) is this
// with the device's peak, bandwidth and efficiencies.
#include <algorithm>
#include <utility>
#include <vector>

namespace dtcalc {

/// Achieved fraction of peak as a function of op size: piecewise linear in
/// log10(size) between points, constant beyond the ends; empty means 1.
struct EfficiencyCurve {
    std::vector<std::pair<double, double>> points;  ///< (size, efficiency in (0, 1]), sizes increasing
    double at(double size) const;
};

struct RooflineTime {
    double ns = 0;
    bool compute_bound = true;
};

/// `flops` at `peak_tflops` x `flops_efficiency` and `bytes` at
/// `bandwidth_gbps` x `memory_efficiency`, the slower of the two; zero FLOPs
/// (zero bytes) take no compute (memory) time.
inline RooflineTime roofline_time(double flops, double peak_tflops, double flops_efficiency, double bytes,
                                  double bandwidth_gbps, double memory_efficiency) {
    RooflineTime t;
    const double compute_ns = flops > 0 ? flops / (peak_tflops * 1e3 * flops_efficiency) : 0.0;
    const double memory_ns = bytes > 0 ? bytes / (bandwidth_gbps * memory_efficiency) : 0.0;
    t.compute_bound = compute_ns >= memory_ns;
    t.ns = std::max(compute_ns, memory_ns);
    return t;
}

}  // namespace dtcalc
