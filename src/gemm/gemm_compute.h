#pragma once
// How long one NPU takes for one GEMM, and for a weight update: either the
// roofline of a device (a preset's peak-perf and local-mem-bw) or the
// systolic-array model (systolic_array.h).
//
// Roofline: a GEMM (a x b result summed over c) of s-byte elements does
// 2.a.b.c FLOPs and moves s.(a.c + c.b + a.b) bytes (each operand read once,
// the result written once); time = max(FLOPs / peak, bytes / mem_bw).
// Weight update (both models): an SGD step reads the gradient and the weight
// and writes the weight, 3 x the NPU's weight bytes at the memory bandwidth
// (roofline: mem_bw; systolic: the off-chip interface, words/cycle x s x GHz
// bytes per ns).
// Every time is rounded up to a whole nanosecond (a v1 workload's cycle).
#include <cstdint>
#include <string>
#include <variant>

#include "compute/training_device.h"
#include "gemm/parallel_split.h"
#include "gemm/systolic_array.h"

namespace dtcalc {

struct GemmComputeModel {
    std::variant<TrainingDevice, SystolicArray> device;  ///< a roofline device (roofline_device) or an array
    int datatype_bytes = 2;
};

double gemm_time_ns(const GemmComputeModel& model, const LocalGemm& gemm);     ///< whole ns
double weight_update_ns(const GemmComputeModel& model, std::uint64_t weight_bytes);  ///< whole ns

/// Throws InputError naming `source` when the device cannot time GEMMs: a
/// roofline device without peak-perf or local-mem-bw, or a bad array.
void validate_compute_model(const GemmComputeModel& model, const std::string& source);

}  // namespace dtcalc
