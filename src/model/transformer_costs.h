#pragma once
// Per-layer costs of a transformer, from Megatron-LM's published accounting
// (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU
// Clusters", appendix; Korthikanti et al. 2022 for activations).
//
// Forward FLOPs of one layer for b sequences of s tokens, hidden h, ffn f,
// kv width k = kv_heads x head_dim:
//   QKV projection   2 b s h (h + 2k)
//   attention        4 b s^2 h          (scores Q K^T and values; the full square, as Megatron counts it)
//   output proj.     2 b s h^2
//   MLP              2 b s h f x (3 if gated else 2) x top_k (MoE: each token visits top_k experts)
// For GPT (k = h, f = 4h, not gated) this is 24 b s h^2 + 4 b s^2 h. The
// logit layer adds 2 b s h V. Backward is twice the forward; full recompute
// adds one forward. So one iteration of a GPT is
//   72 B s l h^2 (1 + s/6h + V/12lh)   without recompute
//   96 B s l h^2 (1 + s/6h + V/16lh)   with full recompute.
#include <cstdint>
#include <vector>

#include "model/model_spec.h"

namespace dtcalc {

/// Which of a layer's GEMMs a shape is: the four linear layers, or the MoE router.
enum class GemmRole { Qkv, Projection, Fc1, Fc2, Router };

struct GemmShape {
    double m = 0, n = 0, k = 0;  ///< (m x k) times (k x n)
    GemmRole role = GemmRole::Qkv;
    double weights = 1;  ///< weight matrices of k x n on this rank (MoE: its experts)
    double flops() const { return 2.0 * m * n * k; }
    double bytes(double element_bytes) const { return (m * k + k * n + m * n) * element_bytes; }
};

/// Forward work of one transformer layer on one rank, split by kind so each
/// can be timed at its own efficiency.
struct LayerForwardWork {
    double gemm_flops = 0;       ///< dense matrix multiplies (QKV, output, MLP)
    double gemm_bytes = 0;
    double attention_flops = 0;  ///< scores and values
    double attention_bytes = 0;  ///< Q, K, V and output read/written once (fused attention)
    double elementwise_bytes = 0;  ///< norms, activation, residuals, dropout: memory-bound
    /// Mixture of experts: the token dispatcher's permutation of the routed tokens to their
    /// experts and its inverse (gathers and scatter-adds by index), per pass; 0 without experts.
    double routing_bytes = 0;
    int gemms = 0;               ///< matrix multiplies, for a per-GEMM efficiency
    std::vector<GemmShape> shapes;  ///< each forward GEMM (QKV, output, MLP up, MLP down, router), for a per-shape efficiency
};

struct LayerSplit {
    int tp = 1;      ///< tensor parallel
    int cp = 1;      ///< context parallel (sequence split across ranks for attention)
    int ep = 1;      ///< expert parallel
    bool sequence_parallel = false;
};

/// One layer's forward on one rank for `micro_batch` sequences of `seq` tokens.
LayerForwardWork layer_forward_work(const ModelSpec& model, double micro_batch, double seq, const LayerSplit& split,
                                    double element_bytes);

/// Parameters of one transformer layer (all ranks together), and the share
/// held by one rank (dense part / tp, experts / (tp x ep)).
double layer_parameters(const ModelSpec& model);
double layer_parameters_per_rank(const ModelSpec& model, int tp, int ep);
double embedding_parameters(const ModelSpec& model);  ///< V x h (once; the output layer another if untied)

/// How model FLOPs count attention: over the full s x s square (Megatron-LM's
/// formula, num_floating_point_operations in megatron/training/training.py,
/// and Narayanan et al. 2021 eq. 3), or over the causal half that is computed
/// (as TorchTitan's get_num_flop_per_token and the PaLM paper's MFU count).
enum class AttentionFlops { FullSquare, Causal };

/// Model FLOPs of one training iteration (forward + backward, no recompute),
/// all ranks together, for `batch` sequences: the numerator of MFU.
double model_flops_per_iteration(const ModelSpec& model, double batch, double seq,
                                 AttentionFlops count = AttentionFlops::FullSquare);

/// Forward FLOPs of every transformer layer for `batch` sequences (GEMMs and
/// attention over the full square), and of attention's core alone (QK^T and
/// attention over V): what full and selective activation recompute run again.
/// 0 for a layer-list model (no recompute applies).
double layers_forward_flops_per_iteration(const ModelSpec& model, double batch, double seq);
double attention_forward_flops_per_iteration(const ModelSpec& model, double batch, double seq);

/// Total parameters.
double total_parameters(const ModelSpec& model);

}  // namespace dtcalc
