#pragma once
// A list of GEMMs + a parallelization strategy + a compute model -> an
// ASTRA-sim 1.0 text workload (as a V1Workload value; v1_writer.h prints it).
//
// Per layer: the three GEMMs and collectives of parallel_split.h, each GEMM
// timed by gemm_compute.h, and the weight update time of the NPU's weight
// shard. The header: DATA, MODEL, or the hybrid with its model-parallel group
// size T (HYBRID_DATA_MODEL T, HYBRID_MODEL_DATA T), which is how
// astra_v1_workload.h places the groups: HYBRID_DATA_MODEL's model-parallel
// group is the first T NPUs (one package), HYBRID_MODEL_DATA's data-parallel
// group is the first P/T NPUs (one package) and its model-parallel group runs
// across the packages.
#include <cstdint>
#include <string>

#include "gemm/gemm_compute.h"
#include "gemm/mnk_table.h"
#include "gemm/parallel_split.h"
#include "workload/astra_v1_workload.h"

namespace dtcalc {

struct GemmParallelPlan {
    GemmStrategy strategy = GemmStrategy::Data;
    std::int64_t npus = 1;
    std::int64_t packages = 1;
};

/// `path` names the workload (V1Workload::path). Throws InputError for a plan
/// the NPUs cannot hold (parallel_degrees), a layer that does not split
/// (split_layer, at the CSV's file:line), or a compute model that cannot time
/// GEMMs.
V1Workload build_gemm_v1_workload(const MnkTable& table, const GemmParallelPlan& plan, const GemmComputeModel& compute,
                                  const std::string& path);

}  // namespace dtcalc
