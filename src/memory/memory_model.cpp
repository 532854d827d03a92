#include "memory/memory_model.h"

#include <algorithm>

#include "model/fp8_casts.h"
#include "model/transformer_costs.h"
#include "plan/pipeline_schedule.h"

namespace dtcalc {

double layer_activation_bytes(const ModelSpec& m, const ParallelPlan& p) {
    const double seq = p.sequence(m);
    const double tokens = seq / p.cp * p.mbs;  // this rank's tokens of one micro-batch
    const double h = m.hidden;
    const double kv = static_cast<double>(m.kv_heads) * m.head_dim();
    const double f = m.ffn_hidden;
    const double t = p.tp;
    const bool sp = p.sequence_parallel && p.tp > 1;
    const double outside = sp ? t : 1.0;  // what sequence parallelism splits outside the tensor-parallel region
    if (p.recompute == Recompute::Full) return 2 * tokens * h / outside;  // the layer's input only
    // Bytes per token (bf16, masks 1 byte), Korthikanti et al.'s inventory:
    // outside the tensor-parallel region: both norms' inputs, the QKV and MLP
    // GEMMs' inputs (2h each), two dropout masks (h each) = 10h;
    const double replicated = 10 * h;
    // inside it, split t ways: Q, K, V (h + 2 kv, grouped-query K and V
    // smaller), the attention output (2h), the MLP's first GEMM output(s)
    // (2f, gate and up 4f) and the activation's output (2f), for each expert
    // a token visits. GPT (kv = h, f = 4h): 6h + 2h + 16h = 24h.
    const double routed = m.is_moe() ? m.top_k : 1.0;
    const double split = 2 * (h + 2 * kv) + 2 * h + routed * (2 * f * (m.gated_mlp ? 2.0 : 1.0) + 2 * f);
    // Unfused attention keeps per head and query the softmax output (2 B), the
    // dropout mask (1 B) and the dropout output (2 B) over every key: 5 a s.
    // Selective recompute recomputes exactly these; flash attention never
    // stores them.
    const double scores = p.attention == AttentionKernel::Unfused && p.recompute == Recompute::None ? 5.0 * m.heads * seq : 0.0;
    return tokens * (replicated / outside + (split + scores) / t);
}

double in_flight_micro_batches(const ParallelPlan& p, int stage) {
    // Interleaved passes each carry one virtual chunk: vpp of them make a stage's layers.
    const double per_stage = p.schedule == PipelineSchedule::Interleaved ? p.vpp : 1;
    return static_cast<double>(passes_in_flight(p, stage)) / per_stage;
}

MemoryBreakdown stage_memory(const ModelSpec& m, const ParallelPlan& p, int stage) {
    MemoryBreakdown out;
    double params = 0;
    double activations = 0;
    double fp8_weights = 0;  ///< Transformer Engine's cached FP8 weights
    if (m.kind == ModelKind::LayerList) {
        // Embedding tables are model-parallel (each NPU holds 1/dp of them); the rest is replicated.
        for (const ListedLayer& l : m.listed) params += l.embedding ? l.parameters / p.dp : l.parameters;
        double per_sample = 0;
        for (const ListedLayer& l : m.listed) per_sample += l.activation_bytes;
        activations = per_sample * p.mbs;
    } else {
        double layers_here = 0;  // this stage's chunks
        for (int c = 0; c < p.vpp; ++c) layers_here += layers_in_chunk(p, m.layers, c * p.pp + stage);
        params = layers_here * layer_parameters_per_rank(m, p.tp, p.ep);
        if (p.precision == Precision::FP8 && p.zero < 3) {
            // Transformer Engine keeps each linear weight's FP8 copy, row-wise and column-wise
            // (1 B each), from the first micro-batch to the end of the step (model/fp8_casts.h).
            const LayerSplit split{p.tp, p.cp, p.ep, p.sequence_parallel};
            const LayerForwardWork w = layer_forward_work(m, p.mbs, p.sequence(m), split, 2.0);
            fp8_weights = layers_here * fp8_cast_bytes(w, split).weights / kFp8CastTransposeBytes * 2.0;
        }
        const double embedding = embedding_parameters(m) / p.tp;
        const bool first = stage == 0;
        const bool last = stage == p.pp - 1;
        if (first) params += embedding;
        if (last && !(first && m.tied_embeddings)) params += embedding;
        const double per_layer = layer_activation_bytes(m, p);
        activations = per_layer * layers_here * in_flight_micro_batches(p, stage);
        if (p.recompute == Recompute::Full) {
            ParallelPlan whole = p;
            whole.recompute = Recompute::None;
            activations += layer_activation_bytes(m, whole);  // the layer being recomputed
        }
        const double s = static_cast<double>(p.sequence(m)) / p.cp;
        if (last) activations += 4.0 * s * p.mbs * m.vocab / p.tp;  // fp32 logits
        // Send and receive buffers between stages: one micro-batch's activation each way.
        if (p.pp > 1) out.buffers = 2.0 * 2.0 * s * p.mbs * m.hidden / (p.sequence_parallel ? p.tp : 1);
    }
    // Context-parallel ranks hold the same parameters: ZeRO shards over dp x cp.
    const double dp = static_cast<double>(p.dp) * p.cp;
    out.weights = 2.0 * params / (p.zero >= 3 ? dp : 1.0) + fp8_weights;
    out.gradients = p.gradient_bytes() * params / (p.zero >= 2 ? dp : 1.0);
    out.optimizer = 12.0 * params / (p.zero >= 1 ? dp : 1.0);
    out.activations = activations;
    return out;
}

PeakMemory peak_memory(const ModelSpec& m, const ParallelPlan& p) {
    PeakMemory best;
    const int stages = m.kind == ModelKind::LayerList ? 1 : p.pp;
    for (int s = 0; s < stages; ++s) {
        const MemoryBreakdown b = stage_memory(m, p, s);
        if (s == 0 || b.total() > best.breakdown.total()) {
            best.breakdown = b;
            best.stage = s;
        }
    }
    return best;
}

}  // namespace dtcalc
