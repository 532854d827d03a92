#pragma once
// Peak memory per NPU for a training plan, per pipeline stage.
//
// - Weights 2 bytes per parameter (bf16), gradients 4 (fp32 main gradients, as
//   Megatron-LM keeps them for bf16) or 2 (ParallelPlan::grad_reduce_in_fp32
//   off: the gradient buffer in bf16), optimizer 12 (Adam: fp32 master weights, first and
//   second moments) — mixed-precision Adam. ZeRO 1 shards the optimizer state
//   over the data-parallel group, 2 also the gradients, 3 (FSDP) also the
//   weights. With context parallelism that group is dp x cp: context-parallel
//   ranks hold the same parameters, and Megatron-Core's distributed optimizer
//   shards over them too (get_data_parallel_group(with_context_parallel=True)).
//   In fp8 Transformer Engine also keeps each linear weight's FP8 copies,
//   row-wise and column-wise, over the step: 2 bytes per linear weight (not
//   with ZeRO 3, whose gathered weights are cast anew; model/fp8_casts.h).
// - Activations of one layer for one micro-batch of b sequences of s tokens
//   (per context-parallel rank), hidden h, heads a, tensor parallel t
//   (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
//   Transformer Models", section 4 and Table 2), for unfused attention:
//     no parallelism                 s b h (34 + 5 a s / h)
//     tensor parallel                s b h (10 + 24/t + 5 a s / (h t))
//     tensor + sequence parallel     s b h / t (34 + 5 a s / h)
//     selective recompute            s b h (10 + 24/t)      (with SP: 34 s b h / t)
//     full recompute                 2 s b h                (with SP: 2 s b h / t), plus one
//                                    layer's full activations while it is recomputed
//   These are the published forms for GPT-style layers (f = 4h, no GQA); the
//   code counts the same tensors for any layer (grouped-query K and V, gated
//   MLPs, a token's top-k experts). Flash attention (the plan's default) stores
//   no s x s tensor: the 5 a s / h term is gone and selective recompute saves
//   nothing more.
// - Micro-batches in flight on stage i of p with m micro-batches: the stage's
//   warm-up passes plus the one running (plan/pipeline_schedule.h): GPipe m;
//   1F1B min(p - i, m); interleaved with v chunks: min(m v, 2 (p - i - 1) + (v - 1) p + 1)
//   chunks of L/(p v) layers; without a pipeline (p = 1) one, whatever the schedule.
// - The first stage holds the input embedding, the last the output layer and
//   its fp32 logits (4 s b V / t bytes).
// - Buffers: the stage-to-stage send and receive buffers.
// - Layer-list models (ResNet-50, DLRM) are data-parallel; their embedding
//   tables are model-parallel, 1/dp of them on each NPU.
#include <string>
#include <vector>

#include "model/model_spec.h"
#include "plan/parallel_plan.h"

namespace dtcalc {

struct MemoryBreakdown {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;
    double buffers = 0;
    double total() const { return weights + gradients + optimizer + activations + buffers; }
};

/// Activation bytes of one transformer layer for one micro-batch, per the table above.
double layer_activation_bytes(const ModelSpec& model, const ParallelPlan& plan);

/// Micro-batches (interleaved: chunks) whose activations stage `stage` holds at its peak.
double in_flight_micro_batches(const ParallelPlan& plan, int stage);

MemoryBreakdown stage_memory(const ModelSpec& model, const ParallelPlan& plan, int stage);

struct PeakMemory {
    MemoryBreakdown breakdown;
    int stage = 0;  ///< the stage that needs the most
};

PeakMemory peak_memory(const ModelSpec& model, const ParallelPlan& plan);

}  // namespace dtcalc
