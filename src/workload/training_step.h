#pragma once
// One training iteration of a transformer (or a layer-list model) under a
// parallelism plan, as a workload DAG — the STAGE replacement.
//
// One role per pipeline stage: every data-, tensor-, context- and
// expert-parallel rank of a stage does the same work at the same time, so the
// graph's size does not depend on dp.
//
// Per stage, the schedule (GPipe, 1F1B, interleaved 1F1B) orders forward and
// backward passes of micro-batches (and of virtual chunks). Each pass is
//   [receive from the previous stage] -> compute -> blocking communication
//   (tensor-parallel all-reduces, or all-gathers and reduce-scatters with
//   sequence parallelism; expert all-to-alls) -> [send to the next stage]
// with the context-parallel key/value exchange and the ZeRO-3 parameter
// all-gather running beside the compute (overlapped, as Megatron and FSDP
// prefetch them); with `tp_comm_overlap` the tensor-parallel collectives run
// beside the compute too (the next pass waits for both). Passes of one stage follow each other in schedule order.
// The last backward pass of each chunk is cut into gradient buckets, each
// reduced across data parallelism as soon as it is ready (reduce-scatter with
// ZeRO >= 1, else all-reduce), overlapping the rest of the backward pass.
// The optimizer step waits for every bucket and streams the optimizer state
// through memory once. (ZeRO >= 1's parameter all-gather after the step is
// overlapped with the next iteration's forward, as Megatron's
// overlap-param-gather does, and not counted.)
//
// Per pass, compute is the layers' work timed on the device (training_device.h):
// forward = GEMMs + attention + elementwise; backward = twice the forward's
// GEMMs and attention, twice its elementwise traffic; full recompute adds a
// forward to each backward, selective recompute the attention. The first
// global stage adds the embedding lookup, the last the logits GEMM and loss.
#include <vector>

#include "collective/backend.h"
#include "compute/training_device.h"
#include "model/model_spec.h"
#include "network/network.h"
#include "plan/group_mapping.h"
#include "plan/parallel_plan.h"
#include "system/system_config.h"
#include "workload/workload_graph.h"

namespace dtcalc {

struct TrainingStepInputs {
    const ModelSpec* model = nullptr;
    const ParallelPlan* plan = nullptr;
    const TrainingDevice* device = nullptr;
    const Network* network = nullptr;
    const SystemConfig* system = nullptr;
    NetworkBackend backend = NetworkBackend::AstraUnaware;
};

struct TrainingStep {
    WorkloadGraph graph;
    ParallelGroups groups;
    /// Per stage, its forward and backward passes' ops on the critical chain
    /// (compute and blocking communication), in schedule order: the pipeline
    /// bubble is the idle time between the first and the last of them.
    std::vector<std::vector<int>> chain;
    double forward_ns_per_microbatch = 0;   ///< one stage, one micro-batch, compute only
    double backward_ns_per_microbatch = 0;
};

/// Throws InputError for a plan whose groups do not fit the network, or a
/// device that cannot time the plan (fp8 without an fp8 peak).
TrainingStep build_training_step(const TrainingStepInputs& in);

}  // namespace dtcalc
