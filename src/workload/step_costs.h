#pragma once
// What each piece of one training step costs on one rank: per global pipeline
// chunk, the compute of its forward and backward pass for one micro-batch and
// the collectives each pass needs (tensor-, context- and expert-parallel), its
// gradient reduction (in buckets of max(40M, 1M x dp) parameters, Megatron-Core's
// DistributedDataParallel default, and with ZeRO 1-2 each bucket's parameter
// all-gather; or ZeRO-3's per-pass gathers and reduce-scatters); the
// stage-to-stage send; each stage's optimizer step.
// The step's layout (workload/step_layout.h) puts these pieces in order.
//
// Compute is the layers' work timed on the device (compute/training_device.h):
// forward = GEMMs + attention + elementwise; backward = the input- and
// weight-gradient GEMMs, twice the attention and the elementwise traffic; full
// recompute adds a forward to each backward, selective recompute the attention.
// The first global chunk adds the embedding lookup and its gradient, the last
// the logits GEMMs and the loss (compute/vocabulary_costs.h). In fp8 the linear layers' GEMMs run at the fp8 rate and Transformer
// Engine's casts are elementwise passes (model/fp8_casts.h): per micro-batch in
// each pass, and the weights' once per step (ChunkCosts::weight_cast_ns, in the
// step's first forward pass); the output layer and the router stay bf16.
// The optimizer step streams the rank's shard of Adam's state through memory
// (compute/optimizer_step.h).
#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "collective/nccl/nccl_force.h"
#include "compute/system.h"
#include "model/model_spec.h"
#include "plan/group_mapping.h"
#include "plan/parallel_plan.h"

namespace dtcalc {

/// What a collective's time depends on besides the system.
struct CollectivePriceKey {
    int kind = 0;  ///< CollectiveKind
    std::uint64_t bytes = 0;
    std::vector<int> members;  ///< the group's members per network dimension (CommGroup::members)
};

/// Orders price keys by kind, bytes, then members; also a key against a
/// lookup that views a group's members (any type with kind, bytes and
/// members), so that a lookup copies no group.
struct CollectivePriceOrder {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.bytes != b.bytes) return a.bytes < b.bytes;
        return std::lexicographical_compare(a.members.begin(), a.members.end(), b.members.begin(), b.members.end());
    }
};

/// Collective times, (kind, bytes, group members) -> ns, for one network,
/// system and backend: callers that price many plans on the same system (a
/// sweep's points) keep one and pass it in TrainingStepInputs::prices.
using CollectivePriceCache = std::map<CollectivePriceKey, double, CollectivePriceOrder>;

struct TrainingStepInputs {
    const ModelSpec* model = nullptr;
    const ParallelPlan* plan = nullptr;
    const System* system = nullptr;  ///< network, knobs, backend and device
    CollectivePriceCache* prices = nullptr;  ///< optional: shared between calls on this system
    /// NCCL_ALGO / NCCL_PROTO every collective is asked with (nccl backend).
    /// A shared `prices` must have been filled with the same setting.
    NcclForce nccl;
};

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
    /// ZeRO 1-2 (Megatron's distributed optimizer): each gradient bucket's
    /// parameter all-gather over dp x cp after the optimizer step.
    double param_gather_bucket_ns = 0;
    double weight_cast_ns = 0;  ///< fp8: the linear weights' casts, once per optimizer step (first micro-batch)
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

/// Throws InputError for a plan whose groups do not fit the network, or a
/// device that cannot time the plan (fp8 without an fp8 peak). The plan must
/// pass plan_problems().
TrainingStepCosts price_training_step(const TrainingStepInputs& in);

}  // namespace dtcalc
