#include "compute/vocabulary_costs.h"

namespace dtcalc {
namespace {

// PyTorch's embedding_dense_backward on CUDA (aten/src/ATen/native/cuda/Embedding.cu, through
// embedding_backward_cuda_kernel): the looked-up indices sorted, partial sums per segment of
// equal indices in fp32, then the rows written. Fitted: the bytes per token x hidden element
// that, at the elementwise rate, time its token-dependent part, on the 64 embedding gradients
// of validation/compute/h100_sxm/output_layer.csv (four models, tp 1-8, 4,096 and 8,192 tokens;
// the vocabulary part held at its counted 12 B). Physical: the segment sums gather and write
// fp32 partials and run few blocks per segment, so they reach a fraction of the bandwidth
// that a streaming pass does; a least-squares fit of both terms free gives 31 B at 0.70 (45 B
// at the full bandwidth) and 12.7 B for the vocabulary part.
constexpr double kEmbeddingBackwardBytesPerToken = 32;

}  // namespace

CrossEntropyBytes cross_entropy_bytes(CrossEntropyKernel kernel) {
    switch (kernel) {
        // megatron/core/tensor_parallel/cross_entropy.py (VocabParallelCrossEntropy), per logit:
        // forward: .float() reads 2 B and writes 4; max reads 4; the in-place subtract reads and
        // writes 4 each (8); exp in place 8; the row sum reads 4; the in-place divide into the
        // softmax 8: 38 B. Backward: the in-place multiply by the loss gradient 8; autograd's cast
        // back to the bf16 logits reads 4 and writes 2: 14 B (the target's one element per row
        // is not counted).
        case CrossEntropyKernel::Unfused: return {38, 14};
        // megatron/core/fusions/fused_cross_entropy.py: the cast and the max in one compiled
        // kernel (reads 2, writes 4); the subtract and exp in place in one (8); the row sum (4);
        // the divide in place (8): 26 B. Backward as unfused, the scaling compiled in place (8)
        // and the cast to the logits' dtype (6): 14 B.
        case CrossEntropyKernel::Fused: return {26, 14};
        // F.cross_entropy(logits.float(), ...) (torchtitan/components/loss.py): the cast (6);
        // log_softmax's passes over fp32 rows, the max and the sum of exponentials each reading 4,
        // then read 4 and write 4 (16): 22 B. Backward: nll_loss's zero-filled fp32 gradient
        // written (4); log_softmax's backward reads the gradient for its row sums and again with
        // its output, and writes (16); the cast back to bf16 (6): 26 B.
        case CrossEntropyKernel::Torch: return {22, 26};
    }
    return {};
}

VocabularyTimes vocabulary_times(const TrainingDevice& d, const VocabularyShape& s, CrossEntropyKernel kernel) {
    const Precision q = Precision::BF16;
    const double t = s.tokens, h = s.hidden, v = s.vocab;
    VocabularyTimes out;
    out.embedding_forward = memory_time_ns(d, t * h * 4);
    out.embedding_backward =
        memory_time_ns(d, v * h * (2 + 2 + 2 * s.gradient_bytes) + t * h * kEmbeddingBackwardBytesPerToken);
    out.logits_forward = gemm_time_ns(d, q, t, v, h, gemm_bytes(q, t, v, h));
    if (times_gemm_shapes(d, q)) {
        out.logits_dgrad = gemm_time_ns(d, q, t, h, v, gemm_bytes(q, t, h, v));
        out.logits_wgrad = gemm_time_ns(d, q, v, h, t, gemm_bytes(q, v, h, t));
    } else {
        out.logits_dgrad = out.logits_forward;
        out.logits_wgrad = out.logits_forward;
    }
    const CrossEntropyBytes b = cross_entropy_bytes(kernel);
    out.loss_forward = memory_time_ns(d, t * v * b.forward);
    out.loss_backward = memory_time_ns(d, t * v * b.backward);
    return out;
}

}  // namespace dtcalc
