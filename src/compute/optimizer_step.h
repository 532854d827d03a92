#pragma once
// The bytes one rank's optimizer step moves through memory: Megatron-Core's
// mixed-precision Adam (megatron/core/optimizer/optimizer.py,
// MixedPrecisionOptimizer.step; distrib_optimizer.py for the sharded case),
// over the parameters this rank updates (its shard under ZeRO), and the
// gradient buffer it then clears.
//
//   bf16 gradients to the fp32 main gradients   6 B   (read 2, write 4; none when the buffer is fp32)
//   their global norm (clip_grad_norm_fp32)     4 B   (each main gradient read once)
//   Adam (fused, multi-tensor)                 28 B   (read param, grad, m, v; write param, m, v)
//   fp32 main params to the bf16 model params   6 B   (read 4, write 2)
//   the gradient buffer zeroed                  g B   per element of the rank's buffer
//
// Measured on one H100 SXM, op by op (validation/compute/h100_sxm/optimizer.csv): these
// streaming passes reach 0.72-0.79 of the datasheet bandwidth, against the 0.70 a device's
// memory-efficiency gives all elementwise kernels.
namespace dtcalc {

/// `updated`: parameters this rank's optimizer updates; `buffered`: elements of its gradient
/// buffer; `gradient_bytes`: that buffer's element, 4 (fp32) or 2 (bf16).
double optimizer_step_bytes(double updated, double buffered, double gradient_bytes);

}  // namespace dtcalc
