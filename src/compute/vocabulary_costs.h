#pragma once
// What the vocabulary's two ends cost on one rank for one micro-batch: the
// first pipeline chunk's embedding lookup and its gradient, the last chunk's
// output-layer GEMMs and the cross-entropy loss over their logits.
//
//   embedding forward     t x h x 4 B                (F.embedding: each row read, written)
//   logits                X W^T, (t x h)(h x v); dgrad (t x v)(v x h); wgrad (v x t)(t x h), bf16
//   loss forward          t x v x b_f(kernel)        (passes counted from the framework's code)
//   loss backward         t x v x b_b(kernel)
//   embedding backward    v x h x (2 + 2 + 2 g)      (the bf16 gradient zero-filled; the
//                                                     framework's main_grad += grad, g B per element)
//                       + t x h x 32                 (PyTorch's sort-and-segment kernel: fitted)
//
// t tokens of the micro-batch, h hidden, v the vocabulary on this rank (vocab / tp),
// g the gradient buffer's bytes per element (ParallelPlan::gradient_bytes). Byte counts run
// at the device's elementwise rate (memory_time_ns), GEMMs through gemm_time_ns.
#include "compute/training_device.h"
#include "plan/parallel_plan.h"

namespace dtcalc {

/// Bytes per logit element the loss moves, forward and backward. A rule of the software:
/// each count is the passes of its code over the t x v logits.
struct CrossEntropyBytes {
    double forward = 0;
    double backward = 0;
};
CrossEntropyBytes cross_entropy_bytes(CrossEntropyKernel kernel);

/// One micro-batch's shape at the vocabulary's ends on one rank.
struct VocabularyShape {
    double tokens = 0;          ///< t: micro-batch x sequence (every rank of the tensor-parallel group)
    double hidden = 0;          ///< h
    double vocab = 0;           ///< v: the vocabulary on this rank (vocab / tp)
    double gradient_bytes = 4;  ///< g: the gradient buffer's element (4: fp32 main_grad, 2: bf16)
};

/// Each piece's time, ns.
struct VocabularyTimes {
    double embedding_forward = 0;
    double embedding_backward = 0;
    double logits_forward = 0;
    double logits_dgrad = 0;
    double logits_wgrad = 0;
    double loss_forward = 0;
    double loss_backward = 0;
    double logits_backward() const { return logits_dgrad + logits_wgrad; }
};

/// The output layer is Megatron's own ColumnParallelLinear, not a Transformer Engine
/// module: its GEMMs run in bf16 in every precision. A device without a GEMM shape
/// model times the backward's two GEMMs as twice the forward.
VocabularyTimes vocabulary_times(const TrainingDevice& device, const VocabularyShape& shape, CrossEntropyKernel kernel);

}  // namespace dtcalc
