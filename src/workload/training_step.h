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
#include <cstdint>
#include <map>
#include <tuple>
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

/// Collective times, (kind, bytes, group members) -> ns, for one network,
/// system and backend: callers that price many plans on the same system (a
/// sweep's points) keep one and pass it in TrainingStepInputs::prices.
using CollectivePriceCache = std::map<std::tuple<int, std::uint64_t, std::vector<int>>, double>;

struct TrainingStepInputs {
    const ModelSpec* model = nullptr;
    const ParallelPlan* plan = nullptr;
    const TrainingDevice* device = nullptr;
    const Network* network = nullptr;
    const SystemConfig* system = nullptr;
    NetworkBackend backend = NetworkBackend::AstraUnaware;
    CollectivePriceCache* prices = nullptr;  ///< optional: shared between calls on this network, system and backend
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

// The priced pieces the builder lays out as a DAG, for evaluators that replay
// the same passes without building it (sweep/step_replay.h).

/// What one forward or backward pass of one chunk (a stage's layers, or one
/// virtual chunk of them) costs on one rank for one micro-batch.
struct PassCost {
    double compute_ns = 0;
    double tp_comm_ns = 0;       ///< blocking, tensor-parallel dimensions (beside the compute with tp_comm_overlap)
    double ep_comm_ns = 0;       ///< blocking, expert-parallel dimensions
    double cp_comm_ns = 0;       ///< overlapped, context-parallel dimensions
    double flops = 0;
};

struct ChunkCosts {
    PassCost forward, backward;
    double parameters = 0;  ///< per rank
    int layers = 0;
    int gradient_buckets = 1;          ///< the chunk's last backward pass is cut into this many parts
    double gradient_bucket_ns = 0;     ///< each part's gradient reduction over dp (ZeRO < 3)
    double zero3_gather_ns = 0;        ///< ZeRO-3: parameter all-gather beside each pass
    double zero3_reduce_scatter_ns = 0;  ///< ZeRO-3: gradient reduce-scatter after each backward pass
};

struct TrainingStepCosts {
    ParallelGroups groups;
    int stages = 1;          ///< roles of the DAG (pp; 1 for layer-list models)
    int virtual_chunks = 1;  ///< per stage (vpp; 1 for layer-list models)
    std::vector<ChunkCosts> chunks;  ///< per global chunk: stage s, virtual chunk c -> c x stages + s
    double activation_message_bytes = 0;  ///< stage-to-stage send
    double send_ns = 0;
    std::vector<double> optimizer_ns;  ///< per stage
};

/// Same checks and InputErrors as build_training_step.
TrainingStepCosts price_training_step(const TrainingStepInputs& in);

/// One pass of a stage's schedule.
struct Pass {
    bool forward = true;
    int micro_batch = 0;
    int chunk = 0;  ///< virtual chunk on this stage
};

/// The passes stage `stage` runs, in order (GPipe, 1F1B, interleaved 1F1B;
/// without a pipeline forward then backward per micro-batch).
std::vector<Pass> stage_schedule(const ParallelPlan& plan, int stage);

}  // namespace dtcalc
