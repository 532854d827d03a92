#pragma once
// The FP8 casts of one transformer layer as Transformer Engine runs them under
// Megatron-Core (--fp8-format with --transformer-impl transformer_engine).
//
// Only the four linear layers run in FP8 (forward, dgrad and wgrad GEMMs):
// QKV and FC1 are TE LayerNormLinear modules (TELayerNormColumnParallelLinear),
// the attention projection and FC2 TE Linear modules (TERowParallelLinear)
// (megatron/core/models/gpt/gpt_layer_specs.py, get_mlp_module_spec_for_backend:
// linear_fc1 = column_parallel_layer_norm_linear, linear_fc2 = row_parallel_linear,
// with Megatron's own activation function between them). Attention's core,
// the norms, the embedding, the output layer (tensor_parallel.ColumnParallelLinear,
// gpt_model.py) and the MoE router stay in BF16.
//
// On Hopper FP8 GEMMs take only the TN layout, so a tensor that two GEMMs use
// from different sides is needed row-wise and column-wise (transposed). A
// cast-transpose reads the BF16 tensor (2 B per element) and writes both
// (1 B each): 4 B; a cast to row-wise only 3 B; a transpose of FP8 data 2 B.
//
// Per micro-batch, m = this rank's tokens (the whole sequence the GEMM sees):
//   QKV and FC1 inputs     the norm kernel writes them in FP8 itself (layernorm_linear.py
//                          _LayerNormLinear.forward: with_quantized_norm, apply_normalization(...,
//                          input_quantizer)); the column-wise copy for the weight gradient is an
//                          FP8 transpose (transformer_engine/common/normalization/*/..._api.cpp,
//                          "Compute FP8 transpose if required"): 2 B per element of m x k, in the
//                          forward; with sequence parallelism the FP8 all-gather carries row-wise
//                          data only and the backward transposes the gathered tensor
//                          (update_usage(columnwise_usage=True)) instead
//   projection, FC2 input  the attention output and the activation's output arrive in BF16
//                          (Megatron's activation runs between FC1 and FC2): cast-transpose,
//                          4 B per element (linear.py _Linear.forward, inputmat = input_quantizer(inputmat))
//   output gradients       every linear layer's, before its dgrad and wgrad GEMMs (base.py
//                          grad_output_preprocess): QKV and FC1 (column-parallel) cast-transpose
//                          m x n, 4 B; projection and FC2 (row-parallel) the same without sequence
//                          parallelism, with it each rank casts its 1/tp row-wise (3 B) before the
//                          FP8 all-gather and transposes the gathered m x n (2 B)
// Per optimizer step: each linear weight is cast once, at the first
// micro-batch, and the FP8 copy reused by the others (base.py quantize_weight:
// the cached workspace, update_workspace = is_first_microbatch; Megatron-Core
// passes is_first_microbatch from forward_step via set_is_first_microbatch,
// megatron/core/extensions/transformer_engine.py TELinear.forward): cast-transpose,
// 4 B per weight element (fprop uses it row-wise, dgrad column-wise).
#include "model/transformer_costs.h"

namespace dtcalc {

/// Bytes read and written per element: BF16 in, FP8 row-wise and column-wise
/// out; BF16 in, FP8 row-wise out; FP8 in, FP8 transposed out.
inline constexpr double kFp8CastTransposeBytes = 2 + 1 + 1, kFp8CastBytes = 2 + 1, kFp8TransposeBytes = 1 + 1;

struct Fp8CastBytes {
    double forward = 0;   ///< per micro-batch, the forward pass's cast kernels
    double backward = 0;  ///< per micro-batch, the backward pass's (output gradients)
    double weights = 0;   ///< per optimizer step, the linear weights' casts
};

/// The casts of one layer on one rank, from its forward GEMMs (`work.shapes`,
/// as layer_forward_work() gives them for the same split).
Fp8CastBytes fp8_cast_bytes(const LayerForwardWork& work, const LayerSplit& split);

}  // namespace dtcalc
