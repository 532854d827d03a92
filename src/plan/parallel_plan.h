#pragma once
// How a model is trained: the parallelism plan and its rules.
//
// NPUs = dp x tp x pp x cp. Expert parallelism is carved out of data
// parallelism (Megatron's convention): ep divides dp, and the experts of each
// MoE layer are spread over ep ranks. Groups map onto the network's
// dimensions in `order`, innermost first (default TP, CP, EP, DP, PP).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/model_spec.h"

namespace dtcalc {

enum class PipelineSchedule { GPipe, OneFOneB, Interleaved };
enum class Recompute { None, Selective, Full };
enum class Precision { BF16, FP8 };
/// How attention's core (scores, softmax, values) runs. Flash: one fused
/// kernel that skips the causal mask's upper half and stores no s x s tensor
/// (FlashAttention, cuDNN/TE fused attention: what current frameworks run).
/// Unfused: batched GEMMs over the full square with separate softmax and
/// dropout passes whose s x s outputs are kept for the backward pass (the
/// 2021-2022 Megatron-LM papers' code, Korthikanti et al.'s 5as/h term).
enum class AttentionKernel { Flash, Unfused };
/// How transformer layers are split over the pipeline's chunks (pp x vpp).
/// Even: layers / chunks each. The others are Megatron-Core's
/// account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split
/// (TransformerConfig; get_num_layers_to_build): the embedding, the loss or
/// both count as one layer each, so the first chunk builds one layer fewer,
/// the last one fewer, and (layers + 1 or 2) must divide by the chunks —
/// Llama 3.1 405B's 126 layers on pp 8 x vpp 8, say.
enum class PipelineSplit { Even, Embedding, Loss, EmbeddingAndLoss };
/// How the loss over the output layer's logits runs (compute/vocabulary_costs.h
/// counts each one's passes). Unfused: Megatron-Core's vocab-parallel cross
/// entropy op by op (tensor_parallel/cross_entropy.py; Megatron-LM's default).
/// Fused: its --cross-entropy-loss-fusion path (fusions/fused_cross_entropy.py;
/// NeMo's GPTConfig default). Torch: F.cross_entropy on the logits cast to fp32
/// (TorchTitan).
enum class CrossEntropyKernel { Unfused, Fused, Torch };
enum class ParallelAxis { TP, CP, EP, DP, PP };

std::optional<PipelineSchedule> parse_pipeline_schedule(std::string_view text);  ///< gpipe | 1f1b | interleaved
std::optional<Recompute> parse_recompute(std::string_view text);                ///< none | selective | full
std::optional<Precision> parse_precision(std::string_view text);                ///< bf16 | fp8
std::optional<AttentionKernel> parse_attention_kernel(std::string_view text);   ///< flash | unfused
std::optional<PipelineSplit> parse_pipeline_split(std::string_view text);  ///< even | embedding | loss | embedding-and-loss
std::optional<CrossEntropyKernel> parse_cross_entropy_kernel(std::string_view text);  ///< unfused | fused | torch
std::optional<std::vector<ParallelAxis>> parse_axis_order(std::string_view text);  ///< "tp,cp,ep,dp,pp"
std::string_view pipeline_schedule_name(PipelineSchedule s);
std::string_view recompute_name(Recompute r);
std::string_view precision_name(Precision p);
std::string_view attention_kernel_name(AttentionKernel a);
std::string_view pipeline_split_name(PipelineSplit s);
std::string_view cross_entropy_kernel_name(CrossEntropyKernel k);

struct ParallelPlan {
    int dp = 1, tp = 1, pp = 1, cp = 1, ep = 1;
    bool sequence_parallel = false;
    bool tp_comm_overlap = false;  ///< tensor-parallel collectives hidden behind the GEMMs (Megatron/TE userbuffers)
    /// ZeRO 1-2: the parameter all-gather after the optimizer step runs bucket by
    /// bucket beside the next forward (Megatron's --overlap-param-gather) instead
    /// of after the step.
    bool overlap_param_gather = false;
    /// Gradients accumulated and reduced over dp in fp32 (4 B per element)
    /// instead of bf16 (2 B): Megatron-Core's DistributedDataParallelConfig
    /// grad_reduce_in_fp32, which sets both the gradient buffer and the bytes
    /// its reduce-scatter (or all-reduce) moves.
    bool grad_reduce_in_fp32 = true;  ///< Megatron-LM's rule for bf16 (arguments.py, validate_args)
    int vpp = 1;  ///< virtual stages per pipeline rank (interleaved schedule)
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    int mbs = 1;        ///< micro-batch, sequences
    long long gbs = 0;  ///< global batch, sequences; 0 = dp x mbs
    int seq = 0;        ///< tokens per sequence; 0 = the model's
    Recompute recompute = Recompute::None;
    int zero = 0;       ///< 0, 1, 2, or 3 (= FSDP)
    Precision precision = Precision::BF16;
    AttentionKernel attention = AttentionKernel::Flash;
    CrossEntropyKernel cross_entropy = CrossEntropyKernel::Unfused;
    PipelineSplit split = PipelineSplit::Even;
    std::vector<ParallelAxis> order{ParallelAxis::TP, ParallelAxis::CP, ParallelAxis::EP, ParallelAxis::DP,
                                    ParallelAxis::PP};

    long long npus() const { return static_cast<long long>(dp) * tp * pp * cp; }
    long long global_batch() const { return gbs > 0 ? gbs : static_cast<long long>(dp) * mbs; }
    long long micro_batches() const { return global_batch() / (static_cast<long long>(dp) * mbs); }
    /// Bytes of one gradient element in the buffer the data-parallel reduction moves.
    double gradient_bytes() const { return grad_reduce_in_fp32 ? 4.0 : 2.0; }
    int sequence(const ModelSpec& m) const { return seq > 0 ? seq : m.seq; }
};

/// Transformer layers global pipeline chunk `chunk` (stage s, virtual chunk c:
/// c x pp + s) builds, of `layers` over pp x vpp chunks, under plan.split.
int layers_in_chunk(const ParallelPlan& plan, int layers, int chunk);

/// Every rule the plan breaks for this model on `npus` NPUs, each a sentence
/// naming the rule ("tp (3) must divide heads (64)"). Empty when it can work.
std::vector<std::string> plan_problems(const ModelSpec& model, const ParallelPlan& plan, long long npus);

}  // namespace dtcalc
