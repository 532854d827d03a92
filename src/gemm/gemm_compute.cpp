#include "gemm/gemm_compute.h"

#include <cmath>

#include "core/error.h"

namespace dtcalc {

double gemm_time_ns(const GemmComputeModel& model, const LocalGemm& g) {
    if (const auto* array = std::get_if<SystolicArray>(&model.device))
        return std::ceil(systolic_gemm_cost(*array, g, model.datatype_bytes).ns);
    const auto& device = std::get<TrainingDevice>(model.device);
    const auto a = static_cast<double>(g.rows), b = static_cast<double>(g.cols), c = static_cast<double>(g.depth);
    const double bytes = model.datatype_bytes * (a * c + c * b + a * b);
    return std::ceil(roofline_time(device, g.flops(), bytes).ns);
}

double weight_update_ns(const GemmComputeModel& model, std::uint64_t weight_bytes) {
    const double bytes = 3.0 * static_cast<double>(weight_bytes);
    if (const auto* array = std::get_if<SystolicArray>(&model.device))
        return std::ceil(bytes / (array->dram_words_per_cycle * model.datatype_bytes * array->clock_ghz));
    return std::ceil(bytes / std::get<TrainingDevice>(model.device).hbm_gbps);
}

void validate_compute_model(const GemmComputeModel& model, const std::string& source) {
    if (model.datatype_bytes < 1 || model.datatype_bytes > 16)
        throw InputError({"--datatype-size", 0, 0, ""}, "expected 1 to 16 bytes, got " + std::to_string(model.datatype_bytes));
    if (const auto* array = std::get_if<SystolicArray>(&model.device)) {
        validate_systolic_array(*array, source);
        return;
    }
    const auto& device = std::get<TrainingDevice>(model.device);
    if (!(device.peak_tflops_bf16 > 0) || !std::isfinite(device.peak_tflops_bf16))
        throw InputError({source, 0, 0, "peak-perf"},
                         "the system gives no compute peak: add peak-perf (TFLOP/s), or use --array for a systolic array");
    if (!(device.hbm_gbps > 0) || !std::isfinite(device.hbm_gbps))
        throw InputError({source, 0, 0, "local-mem-bw"},
                         "the system gives no memory bandwidth: add local-mem-bw (GB/s), or use --array for a systolic array");
}

}  // namespace dtcalc
