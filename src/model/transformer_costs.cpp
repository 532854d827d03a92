#include "model/transformer_costs.h"

namespace dtcalc {
namespace {

// Megatron-Core's token dispatcher (megatron/core/transformer/moe/moe_utils.py, permute and
// unpermute): the routed tokens sorted by expert and their rows gathered (index_select), then
// after the experts scaled by their router probability and scatter-added back to their tokens.
// Fitted: bytes per routed token x hidden element, each pass, at the elementwise rate, on the
// permutation and its inverse timed on one H100 SXM (validation/compute/h100_sxm/moe_ops.csv:
// Mixtral 8x7B, top 2, and DeepSeek-V2-Lite's shape, 64 experts, top 6; 4,096 and 8,192
// tokens; two runs): 35.2 B, in sample 9.6 % mean and 13.6 % max; each model left out, 17.5 %
// and 21.4 % mean, 24 % max. Physical: gathers and atomic scatter-adds of 2-byte rows move
// about 16 B an element as counted (read and write for the gather, the scaling, the
// scatter's read-modify-write) at well under a streaming kernel's share of the bandwidth.
// The backward runs the mirror images (a scatter-add for the permutation, a gather and a
// scaling for its inverse) and is taken as the same.
constexpr double kTokenRoutingBytesPerElement = 35.2;

}  // namespace

LayerForwardWork layer_forward_work(const ModelSpec& m, double b, double s, const LayerSplit& split, double e) {
    LayerForwardWork w;
    const double h = m.hidden;
    const double kv = static_cast<double>(m.kv_heads) * m.head_dim();
    const double f = m.ffn_hidden;
    const double tp = split.tp;
    const double tokens = b * s / split.cp;  // this rank's query tokens
    auto add = [&](const GemmShape& g) {
        w.gemm_flops += g.flops();
        w.gemm_bytes += g.bytes(e);
        ++w.gemms;
        w.shapes.push_back(g);
    };
    add({tokens, (h + 2 * kv) / tp, h, GemmRole::Qkv});  // QKV
    add({tokens, h, h / tp, GemmRole::Projection});      // output projection
    // MLP: with experts, this rank runs the tokens routed to its experts: on
    // average tokens x top_k over the expert-parallel group (each rank sends
    // and receives the same number).
    const double routed = m.is_moe() ? tokens * m.top_k : tokens;
    const double experts_here = m.is_moe() ? static_cast<double>(m.experts) / split.ep : 1.0;
    add({routed, f * (m.gated_mlp ? 2.0 : 1.0) / tp, h, GemmRole::Fc1, experts_here});  // up (and gate)
    add({routed, h, f / tp, GemmRole::Fc2, experts_here});                               // down
    if (m.is_moe()) add({tokens, static_cast<double>(m.experts), h, GemmRole::Router});  // router
    // Attention: this rank's queries against every key of the sequence.
    w.attention_flops = 4.0 * tokens * s * h / tp;
    w.attention_bytes = e * b / tp * ((s / split.cp) * 2 * h + s * 2 * kv);
    // Norms, residual adds, dropout, activation: each reads and writes its tensor.
    const double sp = split.sequence_parallel ? tp : 1.0;
    w.elementwise_bytes = e * (tokens * 16 * h / sp + routed * 3 * f * (m.gated_mlp ? 1.5 : 1.0) / tp);
    if (m.is_moe()) w.routing_bytes = routed * h * kTokenRoutingBytesPerElement;
    return w;
}

double layer_parameters(const ModelSpec& m) {
    const double h = m.hidden;
    const double kv = static_cast<double>(m.kv_heads) * m.head_dim();
    const double attention = h * (h + 2 * kv) + h * h;
    const double mlp = h * m.ffn_hidden * (m.gated_mlp ? 3.0 : 2.0);
    return attention + mlp * m.experts + (m.is_moe() ? h * m.experts : 0.0) + 2 * h;
}

double layer_parameters_per_rank(const ModelSpec& m, int tp, int ep) {
    const double h = m.hidden;
    const double kv = static_cast<double>(m.kv_heads) * m.head_dim();
    const double attention = (h * (h + 2 * kv) + h * h) / tp;
    const double mlp = h * m.ffn_hidden * (m.gated_mlp ? 3.0 : 2.0) / tp;
    const double experts_here = m.is_moe() ? static_cast<double>(m.experts) / ep : 1.0;
    return attention + mlp * experts_here + (m.is_moe() ? h * m.experts : 0.0) + 2 * h;
}

double embedding_parameters(const ModelSpec& m) { return static_cast<double>(m.vocab) * m.hidden; }

double total_parameters(const ModelSpec& m) {
    if (m.kind == ModelKind::LayerList) {
        double p = 0;
        for (const ListedLayer& l : m.listed) p += l.parameters;
        return p;
    }
    return m.layers * layer_parameters(m) + embedding_parameters(m) * (m.tied_embeddings ? 1.0 : 2.0);
}

double model_flops_per_iteration(const ModelSpec& m, double batch, double seq, AttentionFlops count) {
    if (m.kind == ModelKind::LayerList) {
        double f = 0;
        for (const ListedLayer& l : m.listed) f += l.forward_flops;
        return 3.0 * f * batch;
    }
    const LayerForwardWork w = layer_forward_work(m, batch, seq, {}, 2.0);
    const double per_layer = w.gemm_flops + w.attention_flops * (count == AttentionFlops::Causal ? 0.5 : 1.0);
    const double logits = 2.0 * batch * seq * m.hidden * m.vocab;
    return 3.0 * (m.layers * per_layer + logits);
}

double layers_forward_flops_per_iteration(const ModelSpec& m, double batch, double seq) {
    if (m.kind == ModelKind::LayerList) return 0;
    const LayerForwardWork w = layer_forward_work(m, batch, seq, {}, 2.0);
    return m.layers * (w.gemm_flops + w.attention_flops);
}

double attention_forward_flops_per_iteration(const ModelSpec& m, double batch, double seq) {
    if (m.kind == ModelKind::LayerList) return 0;
    return m.layers * layer_forward_work(m, batch, seq, {}, 2.0).attention_flops;
}

}  // namespace dtcalc
