#pragma once
// One training iteration of a transformer (or a layer-list model) under a
// parallelism plan, as a workload DAG — the STAGE replacement. The ops and
// their order are the step's layout (workload/step_layout.h); this builder
// turns each into a graph node on its stage's role, for predict(), its trace
// and its per-layer report. One role per pipeline stage, so the graph's size
// does not depend on dp.
#include <vector>

#include "plan/group_mapping.h"
#include "workload/step_costs.h"
#include "workload/step_layout.h"
#include "workload/workload_graph.h"

namespace dtcalc {

struct TrainingStep {
    WorkloadGraph graph;
    ParallelGroups groups;
    /// Per graph op, the TrafficClass of a communication op (-1: none).
    std::vector<signed char> op_traffic;
    double forward_ns_per_microbatch = 0;   ///< one stage, one micro-batch, compute only
    double backward_ns_per_microbatch = 0;
};

/// Throws InputError for a plan whose groups do not fit the network, or a
/// device that cannot time the plan (fp8 without an fp8 peak). The plan must
/// pass plan_problems().
TrainingStep build_training_step(const TrainingStepInputs& in);

}  // namespace dtcalc
