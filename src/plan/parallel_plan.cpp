#include "plan/parallel_plan.h"

#include <set>
#include <utility>

namespace dtcalc {

std::optional<PipelineSchedule> parse_pipeline_schedule(std::string_view t) {
    if (t == "gpipe") return PipelineSchedule::GPipe;
    if (t == "1f1b") return PipelineSchedule::OneFOneB;
    if (t == "interleaved") return PipelineSchedule::Interleaved;
    return std::nullopt;
}
std::optional<Recompute> parse_recompute(std::string_view t) {
    if (t == "none") return Recompute::None;
    if (t == "selective") return Recompute::Selective;
    if (t == "full") return Recompute::Full;
    return std::nullopt;
}
std::optional<Precision> parse_precision(std::string_view t) {
    if (t == "bf16") return Precision::BF16;
    if (t == "fp8") return Precision::FP8;
    return std::nullopt;
}
std::optional<AttentionKernel> parse_attention_kernel(std::string_view t) {
    if (t == "flash") return AttentionKernel::Flash;
    if (t == "unfused") return AttentionKernel::Unfused;
    return std::nullopt;
}
std::optional<CrossEntropyKernel> parse_cross_entropy_kernel(std::string_view t) {
    if (t == "unfused") return CrossEntropyKernel::Unfused;
    if (t == "fused") return CrossEntropyKernel::Fused;
    if (t == "torch") return CrossEntropyKernel::Torch;
    return std::nullopt;
}
std::optional<PipelineSplit> parse_pipeline_split(std::string_view t) {
    if (t == "even") return PipelineSplit::Even;
    if (t == "embedding") return PipelineSplit::Embedding;
    if (t == "loss") return PipelineSplit::Loss;
    if (t == "embedding-and-loss") return PipelineSplit::EmbeddingAndLoss;
    return std::nullopt;
}
std::string_view pipeline_split_name(PipelineSplit s) {
    switch (s) {
        case PipelineSplit::Even: return "even";
        case PipelineSplit::Embedding: return "embedding";
        case PipelineSplit::Loss: return "loss";
        case PipelineSplit::EmbeddingAndLoss: return "embedding-and-loss";
    }
    return "?";
}

namespace {

// The embedding and the loss as pipeline slots: (first chunk, last chunk).
std::pair<int, int> split_slots(PipelineSplit s) {
    return {s == PipelineSplit::Embedding || s == PipelineSplit::EmbeddingAndLoss ? 1 : 0,
            s == PipelineSplit::Loss || s == PipelineSplit::EmbeddingAndLoss ? 1 : 0};
}

}  // namespace

int layers_in_chunk(const ParallelPlan& p, int layers, int chunk) {
    const int chunks = p.pp * p.vpp;
    const auto [embedding, loss] = split_slots(p.split);
    const int per_chunk = (layers + embedding + loss) / chunks;
    int n = per_chunk;
    if (chunk == 0) n -= embedding;
    if (chunk == chunks - 1) n -= loss;
    return n;
}

std::optional<std::vector<ParallelAxis>> parse_axis_order(std::string_view text) {
    std::vector<ParallelAxis> order;
    std::set<ParallelAxis> seen;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string_view name = text.substr(start, end - start);
        ParallelAxis axis;
        if (name == "tp") axis = ParallelAxis::TP;
        else if (name == "cp") axis = ParallelAxis::CP;
        else if (name == "ep") axis = ParallelAxis::EP;
        else if (name == "dp") axis = ParallelAxis::DP;
        else if (name == "pp") axis = ParallelAxis::PP;
        else return std::nullopt;
        if (!seen.insert(axis).second) return std::nullopt;
        order.push_back(axis);
        start = end + 1;
    }
    if (order.size() != 5) return std::nullopt;
    return order;
}
std::string_view pipeline_schedule_name(PipelineSchedule s) {
    switch (s) {
        case PipelineSchedule::GPipe: return "gpipe";
        case PipelineSchedule::OneFOneB: return "1f1b";
        case PipelineSchedule::Interleaved: return "interleaved";
    }
    return "?";
}
std::string_view recompute_name(Recompute r) {
    switch (r) {
        case Recompute::None: return "none";
        case Recompute::Selective: return "selective";
        case Recompute::Full: return "full";
    }
    return "?";
}
std::string_view precision_name(Precision p) { return p == Precision::BF16 ? "bf16" : "fp8"; }
std::string_view attention_kernel_name(AttentionKernel a) { return a == AttentionKernel::Flash ? "flash" : "unfused"; }
std::string_view cross_entropy_kernel_name(CrossEntropyKernel k) {
    switch (k) {
        case CrossEntropyKernel::Unfused: return "unfused";
        case CrossEntropyKernel::Fused: return "fused";
        case CrossEntropyKernel::Torch: return "torch";
    }
    return "?";
}

std::vector<std::string> plan_problems(const ModelSpec& m, const ParallelPlan& p, long long npus) {
    std::vector<std::string> out;
    auto s = [](long long v) { return std::to_string(v); };
    for (auto [name, v] : {std::pair{"dp", p.dp}, {"tp", p.tp}, {"pp", p.pp}, {"cp", p.cp}, {"ep", p.ep}, {"vpp", p.vpp}, {"mbs", p.mbs}})
        if (v < 1) out.push_back(std::string(name) + " must be at least 1 (got " + s(v) + ")");
    if (!out.empty()) return out;
    // Four int degrees can multiply past 64 bits (p.npus() would wrap).
    long long product = 1;
    bool overflow = false;
    for (int degree : {p.dp, p.tp, p.pp, p.cp}) overflow = overflow || __builtin_mul_overflow(product, degree, &product);
    if (overflow || product != npus)
        out.push_back("dp x tp x pp x cp (" + s(p.dp) + " x " + s(p.tp) + " x " + s(p.pp) + " x " + s(p.cp) + " = " +
                      (overflow ? std::string("more than 2^63") : s(product)) + ") must equal the NPU count (" + s(npus) +
                      ")");
    if (p.zero < 0 || p.zero > 3) out.push_back("zero must be 0, 1, 2 or 3 (got " + s(p.zero) + ")");
    if (p.global_batch() % (static_cast<long long>(p.dp) * p.mbs) != 0)
        out.push_back("the global batch (" + s(p.global_batch()) + ") must be a multiple of dp x mbs (" +
                      s(static_cast<long long>(p.dp) * p.mbs) + ")");
    if (p.vpp > 1 && p.pp < 2)
        out.push_back("vpp > 1 needs pp > 1: virtual stages split each pipeline rank's layers (vpp " + s(p.vpp) + ", pp " +
                      s(p.pp) + ")");
    if (p.vpp > 1 && p.schedule != PipelineSchedule::Interleaved)
        out.push_back("vpp > 1 needs the interleaved schedule (vpp " + s(p.vpp) + ", schedule " +
                      std::string(pipeline_schedule_name(p.schedule)) + ")");
    // The step is built micro-batch by micro-batch through every pipeline
    // chunk; a bound keeps a mistyped gbs from exhausting memory.
    constexpr long long kMaxChunkPasses = 1000000;
    const long long chunks = static_cast<long long>(p.pp) * p.vpp;
    if (p.micro_batches() > kMaxChunkPasses / chunks)
        out.push_back("the global batch (" + s(p.global_batch()) + ") makes " + s(p.micro_batches()) +
                      " micro-batches through pp x vpp = " + s(chunks) + " pipeline chunks, more than " +
                      s(kMaxChunkPasses) + " micro-batch passes (use a smaller gbs or a larger mbs)");
    if (p.schedule == PipelineSchedule::Interleaved && p.pp > 1 && p.micro_batches() % p.pp != 0)
        out.push_back("the interleaved schedule needs the micro-batch count (" + s(p.micro_batches()) +
                      ") to be a multiple of pp (" + s(p.pp) + ")");
    if (p.ep > 1 && !m.is_moe()) out.push_back("ep > 1 needs a mixture-of-experts model");
    if (p.dp % p.ep != 0) out.push_back("ep (" + s(p.ep) + ") must divide dp (" + s(p.dp) + ")");
    if (m.kind == ModelKind::LayerList) {
        if (p.tp > 1 || p.pp > 1 || p.cp > 1 || p.ep > 1)
            out.push_back(m.name + " is described layer by layer: only data parallelism applies (tp, pp, cp, ep must be 1)");
        return out;
    }
    if (m.heads % p.tp != 0) out.push_back("tp (" + s(p.tp) + ") must divide heads (" + s(m.heads) + ")");
    if (m.kv_heads % p.tp != 0 && p.tp % m.kv_heads != 0)
        out.push_back("tp (" + s(p.tp) + ") and kv_heads (" + s(m.kv_heads) + ") must divide one another");
    const auto [embedding, loss] = split_slots(p.split);
    const long long slots = static_cast<long long>(m.layers) + embedding + loss;
    if (p.split == PipelineSplit::Even && m.layers % chunks != 0) {
        // Megatron-Core runs such plans by counting the embedding and/or the
        // loss as layers: name the splits that would divide.
        std::string uneven;
        for (PipelineSplit split : {PipelineSplit::Embedding, PipelineSplit::Loss, PipelineSplit::EmbeddingAndLoss}) {
            const auto [e, l] = split_slots(split);
            const long long n = static_cast<long long>(m.layers) + e + l;
            if (n % chunks != 0 || n / chunks - e < 1 || n / chunks - l < 1) continue;
            uneven += std::string(uneven.empty() ? "" : " or ") + std::string(pipeline_split_name(split)) + " (" + s(n) + " slots)";
        }
        out.push_back("layers (" + s(m.layers) + ") must be divisible by pp x vpp (" + s(chunks) + ")" +
                      (uneven.empty() ? "" : "; the pipeline split " + uneven +
                                                 " divides: Megatron-Core's account_for_embedding/loss_in_pipeline_split "
                                                 "count the embedding and the loss as layers"));
    }
    else if (p.split != PipelineSplit::Even && slots % chunks != 0)
        out.push_back("layers + " + std::string(pipeline_split_name(p.split)) + " (" + s(slots) +
                      ") must be divisible by pp x vpp (" + s(chunks) + ")");
    else if (p.split != PipelineSplit::Even && slots / chunks - embedding - (chunks == 1 ? loss : 0) < 1)
        out.push_back("a " + std::string(pipeline_split_name(p.split)) + " split of " + s(m.layers) + " layers over " +
                      s(chunks) + " chunks leaves the first chunk without a layer");
    else if (p.split != PipelineSplit::Even && slots / chunks - loss < 1)
        out.push_back("a " + std::string(pipeline_split_name(p.split)) + " split of " + s(m.layers) + " layers over " +
                      s(chunks) + " chunks leaves the last chunk without a layer");
    if (m.is_moe() && m.experts % p.ep != 0) out.push_back("ep (" + s(p.ep) + ") must divide experts (" + s(m.experts) + ")");
    if (p.sequence(m) % p.cp != 0)
        out.push_back("cp (" + s(p.cp) + ") must divide the sequence length (" + s(p.sequence(m)) + ")");
    if (p.sequence_parallel && p.sequence(m) % (static_cast<long long>(p.tp) * p.cp) != 0)
        out.push_back("sequence parallelism needs the sequence (" + s(p.sequence(m)) + ") divisible by tp x cp");
    return out;
}

}  // namespace dtcalc
