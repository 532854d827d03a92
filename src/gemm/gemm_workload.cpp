#include "gemm/gemm_workload.h"

namespace dtcalc {
namespace {

V1Parallelism v1_parallelism(GemmStrategy strategy) {
    switch (strategy) {
        case GemmStrategy::Data: return V1Parallelism::Data;
        case GemmStrategy::Model: return V1Parallelism::Model;
        case GemmStrategy::HybridDataModel: return V1Parallelism::HybridDataModel;
        case GemmStrategy::HybridModelData: return V1Parallelism::HybridModelData;
    }
    return V1Parallelism::Data;
}

}  // namespace

V1Workload build_gemm_v1_workload(const MnkTable& table, const GemmParallelPlan& plan, const GemmComputeModel& compute,
                                  const std::string& path) {
    const ParallelDegrees degrees = parallel_degrees(plan.strategy, plan.npus, plan.packages);
    V1Workload w;
    w.path = path;
    w.parallelism = v1_parallelism(plan.strategy);
    const bool hybrid = plan.strategy == GemmStrategy::HybridDataModel || plan.strategy == GemmStrategy::HybridModelData;
    w.parameter = hybrid ? static_cast<int>(degrees.model) : 0;
    int line = 3;  // the first layer line of the written file
    for (const GemmLayer& layer : table.layers) {
        const LayerSplit split = split_layer(layer, table.path, degrees, compute.datatype_bytes);
        V1Layer l;
        l.name = layer.name;
        l.line = line++;
        l.fwd_compute_ns = gemm_time_ns(compute, split.forward);
        l.fwd = split.forward_comm;
        l.ig_compute_ns = gemm_time_ns(compute, split.input_gradient);
        l.ig = split.input_gradient_comm;
        l.wg_compute_ns = gemm_time_ns(compute, split.weight_gradient);
        l.wg = split.weight_gradient_comm;
        l.update_ns = weight_update_ns(compute, split.weight_bytes);
        w.layers.push_back(l);
    }
    return w;
}

}  // namespace dtcalc
