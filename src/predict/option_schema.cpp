#include "predict/option_schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <type_traits>

#include "collective/backend.h"
#include "core/edit_distance.h"
#include "core/number_text.h"
#include "core/text_formats.h"
#include "core/units.h"
#include "model/model_spec.h"
#include "predict/predict.h"
#include "plan/parallel_plan.h"
#include "predict/predict_options.h"

namespace dtcalc {
namespace {

using T = OptionType;
using G = OptionTarget;

constexpr double kMaxInt = 2147483647.0;
constexpr double kMaxNodes = 16777216.0;  // network/cluster_shape.cpp's bound

// Sets one field (of PredictOptions or its SystemSource) from a value of its option.
template <typename F>
void assign(F& field, const OptionValue& v) {
    if constexpr (std::is_same_v<F, std::string>) field = v.text;
    else if constexpr (std::is_same_v<F, bool>) field = v.number != 0;
    else if constexpr (std::is_same_v<F, int> || std::is_same_v<F, std::optional<int>>) field = static_cast<int>(v.number);
    else field = static_cast<long long>(v.number);
}
template <auto Field>
void set(PredictOptions& o, const OptionValue& v) {
    assign(o.*Field, v);
}
template <auto Field>
void set_system(PredictOptions& o, const OptionValue& v) {
    assign(o.system.*Field, v);
}

// Overrides one hyper-parameter of a loaded model.
template <auto Field>
void set_model(ModelSpec& m, const OptionValue& v) {
    m.*Field = static_cast<int>(v.number);
}

void scale_bandwidth(PredictInputs& in, int, double v) {
    for (Dimension& d : in.system.network.dimensions) d.bandwidth_gbps *= v;
}
void scale_latency(PredictInputs& in, int, double v) {
    for (Dimension& d : in.system.network.dimensions) d.latency_ns *= v;
}
void scale_compute(PredictInputs& in, int, double v) {
    in.system.device.peak_tflops_bf16 *= v;
    in.system.device.peak_tflops_fp8 *= v;
}
void set_bandwidth(PredictInputs& in, int dimension, double v) {
    in.system.network.dimensions[static_cast<std::size_t>(dimension)].bandwidth_gbps = v;
}
void set_latency(PredictInputs& in, int dimension, double v) {
    in.system.network.dimensions[static_cast<std::size_t>(dimension)].latency_ns = v;
}

bool is_schedule(std::string_view t) { return parse_pipeline_schedule(t).has_value(); }
bool is_recompute(std::string_view t) { return parse_recompute(t).has_value(); }
bool is_precision(std::string_view t) { return parse_precision(t).has_value(); }
bool is_attention(std::string_view t) { return parse_attention_kernel(t).has_value(); }
bool is_cross_entropy(std::string_view t) { return parse_cross_entropy_kernel(t).has_value(); }
bool is_pipeline_split(std::string_view t) { return parse_pipeline_split(t).has_value(); }
bool is_order(std::string_view t) { return parse_axis_order(t).has_value(); }
bool is_backend(std::string_view t) { return parse_network_backend(t).has_value(); }
bool is_host_cpu(std::string_view t) { return t == "intel" || t == "amd" || t == "arm"; }
bool is_memory_size(std::string_view t) {
    const auto bytes = parse_memory_size(t);
    return bytes && *bytes > 0;
}

// Each declaration names only the fields it sets (designated initializers);
// GCC 12 still warns about the others.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const OptionDecl kOptions[] = {
    // What is loaded.
    {.name = "model", .type = T::Text, .help = "model name (see `dtcalc list`) or .toml path", .aliases = "-m",
     .apply = set<&PredictOptions::model>, .base = true},
    {.name = "preset", .type = T::Text, .help = "system preset: a name or .toml path", .aliases = "-p",
     .apply = set_system<&SystemSource::preset>, .base = true},
    {.name = "network", .type = T::Text, .help = "ASTRA-sim network YAML (with system)",
     .apply = set_system<&SystemSource::network_file>, .base = true},
    {.name = "system", .type = T::Text, .help = "ASTRA-sim system JSON (with network)",
     .apply = set_system<&SystemSource::system_file>, .base = true},
    {.name = "backend", .type = T::Text, .help = "network model", .default_text = "the preset's",
     .expected = "astra-unaware, astra-aware or nccl", .accepts = is_backend, .apply = set_system<&SystemSource::backend>,
     .base = true},
    {.name = "nodes", .help = "nodes: the outermost network dimension", .max = kMaxNodes,
     .apply = set_system<&SystemSource::nodes>, .base = true},
    {.name = "gpus_per_node", .help = "GPUs per node: the innermost dimension", .max = kMaxNodes,
     .apply = set_system<&SystemSource::gpus_per_node>, .base = true},
    {.name = "gpu", .type = T::Text,
     .help = "a GPU from the hardware catalogue (see `dtcalc list gpus`): builds the cluster, with nodes, "
             "gpus_per_node, nic and nics_per_node, instead of a preset",
     .apply = set_system<&SystemSource::gpu>, .base = true},
    {.name = "nic", .type = T::Text, .help = "the NIC of a cluster from --gpu (see `dtcalc list nics`)",
     .default_text = "the GPU's reference node's", .apply = set_system<&SystemSource::nic>, .base = true},
    {.name = "nics_per_node", .help = "NICs per node of a cluster from --gpu", .max = 64,
     .default_text = "the reference node's, or one per GPU with --nic", .apply = set_system<&SystemSource::nics_per_node>,
     .base = true},
    {.name = "nics_per_gpu", .help = "NICs under each GPU's PCIe switch, of a cluster from --gpu", .max = 16,
     .default_text = "1 (nics_per_node then defaults to GPUs x this)", .apply = set_system<&SystemSource::nics_per_gpu>,
     .base = true},
    {.name = "host_cpu", .type = T::Text, .help = "host CPU of a cluster from --gpu: intel | amd | arm (NCCL's network overhead)",
     .default_text = "the reference node's", .expected = "intel, amd or arm", .accepts = is_host_cpu,
     .apply = set_system<&SystemSource::host_cpu>, .base = true},
    {.name = "nccl_algo", .type = T::Text,
     .help = "NCCL_ALGO the job runs with (nccl backend), in its syntax (ring | tree | nvls | nvlstree | pat, a list, "
             "^ to exclude, allreduce:tree); every collective of the step is chosen as NCCL chooses within it",
     .default_text = "unset: NCCL's own choice", .expected = "an NCCL_ALGO value (ring, ^nvls, allreduce:tree)",
     .apply = set<&PredictOptions::nccl_algo>, .base = true, .commas_in_value = true},
    {.name = "nccl_proto", .type = T::Text,
     .help = "NCCL_PROTO the job runs with (nccl backend), in its syntax (LL | LL128 | Simple, a list, ^ to exclude, "
             "allreduce:LL128)",
     .default_text = "unset: NCCL's own choice", .expected = "an NCCL_PROTO value (Simple, ^LL128, allreduce:LL)",
     .apply = set<&PredictOptions::nccl_proto>, .base = true, .commas_in_value = true},
    {.name = "nccl_env", .type = T::Text,
     .help = "further NCCL settings the job runs with (nccl backend), VARIABLE=VALUE separated by blanks, as a shell "
             "sets them (\"NCCL_MAX_CTAS=8 NCCL_NVLS_ENABLE=0\"): NCCL_NVLS_ENABLE, NCCL_MIN/MAX_NCHANNELS, "
             "NCCL_MIN/MAX_CTAS, NCCL_NVLS_NCHANNELS, NCCL_MIN/MAX_P2P_NCHANNELS, NCCL_NCHANNELS_PER_NET_PEER, ...",
     .default_text = "unset: NCCL's defaults", .expected = "VARIABLE=VALUE settings (NCCL_MAX_CTAS=8)",
     .apply = set<&PredictOptions::nccl_env>, .base = true, .commas_in_value = true},
    {.name = "framework", .type = T::Text,
     .help = "framework recipe whose defaults the plan options not given take: megatron-core | nemo | torchtitan | "
             "megatron-2022, or a .toml path (presets/frameworks/)",
     .default_text = "megatron-core", .expected = "a recipe name or .toml path", .apply = set<&PredictOptions::framework>,
     .base = true},
    // The plan.
    {.name = "dp", .help = "data parallel", .default_text = "npus / (tp x pp x cp)", .apply = set<&PredictOptions::dp>},
    {.name = "tp", .help = "tensor parallel", .default_text = "1", .apply = set<&PredictOptions::tp>},
    {.name = "pp", .help = "pipeline parallel", .default_text = "1", .apply = set<&PredictOptions::pp>},
    {.name = "cp", .help = "context parallel", .default_text = "1", .apply = set<&PredictOptions::cp>},
    {.name = "ep", .help = "expert parallel (within dp)", .default_text = "1", .apply = set<&PredictOptions::ep>},
    {.name = "vpp", .help = "virtual pipeline stages per rank (interleaved schedule; needs pp > 1)", .default_text = "1",
     .apply = set<&PredictOptions::vpp>},
    {.name = "mbs", .help = "micro-batch size", .unit = "sequences", .default_text = "1, or a layer-list model's batch",
     .apply = set<&PredictOptions::mbs>},
    {.name = "gbs", .help = "global batch size", .unit = "sequences", .default_text = "dp x mbs",
     .apply = set<&PredictOptions::gbs>},
    {.name = "seq", .help = "sequence length", .unit = "tokens", .default_text = "the model's",
     .apply = set<&PredictOptions::seq>},
    {.name = "sequence_parallel", .type = T::Boolean, .help = "Megatron sequence parallelism (with tp)",
     .default_text = "false", .aliases = "--sp", .apply = set<&PredictOptions::sequence_parallel>},
    {.name = "tp_comm_overlap", .type = T::Boolean, .help = "tensor-parallel collectives hidden behind the GEMMs",
     .default_text = "false", .apply = set<&PredictOptions::tp_comm_overlap>},
    {.name = "overlap_param_gather", .type = T::Boolean,
     .help = "zero 1-2: the parameter all-gather per bucket beside the next forward instead of after the optimizer step",
     .default_text = "false", .apply = set<&PredictOptions::overlap_param_gather>},
    {.name = "grad_reduce_in_fp32", .type = T::Boolean,
     .help = "gradients accumulated and reduced over dp in fp32 (4 B per element; --grad-reduce-in-fp32=false: bf16, "
             "2 B); each recipe sets it as its framework does",
     .default_text = "true", .apply = set<&PredictOptions::grad_reduce_in_fp32>},
    {.name = "schedule", .type = T::Text, .help = "pipeline schedule: gpipe | 1f1b | interleaved", .default_text = "1f1b",
     .expected = "gpipe, 1f1b or interleaved", .accepts = is_schedule, .apply = set<&PredictOptions::schedule>},
    {.name = "recompute", .type = T::Text, .help = "activation recomputation: none | selective | full",
     .default_text = "none", .expected = "none, selective or full", .accepts = is_recompute,
     .apply = set<&PredictOptions::recompute>},
    {.name = "zero", .help = "ZeRO stage 0-3 (3 = FSDP)", .allows_zero = true, .max = 3, .default_text = "0",
     .apply = set<&PredictOptions::zero>},
    {.name = "precision", .type = T::Text, .help = "compute precision: bf16 | fp8", .default_text = "bf16",
     .expected = "bf16 or fp8", .accepts = is_precision, .apply = set<&PredictOptions::precision>},
    {.name = "attention", .type = T::Text,
     .help = "attention kernel: flash (fused, causal half, no s x s activations) | unfused (the 2021-2022 papers' code)",
     .default_text = "flash", .expected = "flash or unfused", .accepts = is_attention, .apply = set<&PredictOptions::attention>},
    {.name = "cross_entropy", .type = T::Text,
     .help = "the loss over the logits: unfused (Megatron-Core's default) | fused (--cross-entropy-loss-fusion, NeMo) | "
             "torch (F.cross_entropy on fp32 logits, TorchTitan); each recipe sets it as its framework does",
     .default_text = "unfused", .expected = "unfused, fused or torch", .accepts = is_cross_entropy,
     .apply = set<&PredictOptions::cross_entropy>},
    {.name = "pipeline_split", .type = T::Text,
     .help = "layers over the pipeline's chunks: even | embedding | loss | embedding-and-loss (Megatron-Core's "
             "account_for_embedding/loss_in_pipeline_split: each counts as a layer)",
     .default_text = "even", .expected = "even, embedding, loss or embedding-and-loss", .accepts = is_pipeline_split,
     .apply = set<&PredictOptions::pipeline_split>},
    {.name = "order", .type = T::Text, .help = "parallel axes onto the network, innermost first",
     .default_text = "tp,cp,ep,dp,pp", .expected = "the five axes tp, cp, ep, dp, pp once each, innermost first",
     .accepts = is_order, .apply = set<&PredictOptions::order>, .commas_in_value = true},
    {.name = "memory_limit", .type = T::Text,
     .help = "memory per GPU with its unit: 80GiB (2^30 bytes) or 80GB (10^9 bytes)",
     .default_text = "the device's capacity", .expected = "a memory size with its unit, like 80GiB or 80GB",
     .accepts = is_memory_size, .explain = memory_size_expectation, .apply = set<&PredictOptions::memory_limit>},
    // Overrides of the loaded model (sweeps).
    {.name = "layers", .target = G::Model, .help = "transformer layers", .apply_model = set_model<&ModelSpec::layers>},
    {.name = "hidden", .target = G::Model, .help = "hidden size", .apply_model = set_model<&ModelSpec::hidden>},
    {.name = "ffn_hidden", .target = G::Model, .help = "MLP hidden size", .apply_model = set_model<&ModelSpec::ffn_hidden>},
    {.name = "heads", .target = G::Model, .help = "attention heads", .apply_model = set_model<&ModelSpec::heads>},
    {.name = "kv_heads", .target = G::Model, .help = "key-value heads", .apply_model = set_model<&ModelSpec::kv_heads>},
    {.name = "vocab", .target = G::Model, .help = "vocabulary", .apply_model = set_model<&ModelSpec::vocab>},
    {.name = "experts", .target = G::Model, .help = "experts per MoE layer", .apply_model = set_model<&ModelSpec::experts>},
    {.name = "top_k", .target = G::Model, .help = "experts each token visits", .apply_model = set_model<&ModelSpec::top_k>},
    // Scalings and overrides of the loaded system (sweeps).
    {.name = "bandwidth_scale", .type = T::Number, .target = G::System, .help = "multiplies every network dimension's bandwidth",
     .apply_system = scale_bandwidth},
    {.name = "latency_scale", .type = T::Number, .target = G::System, .help = "multiplies every network dimension's latency",
     .apply_system = scale_latency},
    {.name = "compute_scale", .type = T::Number, .target = G::System, .help = "multiplies the device's peak FLOP/s",
     .apply_system = scale_compute},
    {.name = "dim0_bandwidth", .type = T::Number, .target = G::System, .help = "dimension 0's bandwidth",
     .unit = "GB/s per link", .apply_system = set_bandwidth, .dimension = 0},
    {.name = "dim1_bandwidth", .type = T::Number, .target = G::System, .help = "dimension 1's bandwidth",
     .unit = "GB/s per link", .apply_system = set_bandwidth, .dimension = 1},
    {.name = "dim2_bandwidth", .type = T::Number, .target = G::System, .help = "dimension 2's bandwidth",
     .unit = "GB/s per link", .apply_system = set_bandwidth, .dimension = 2},
    {.name = "dim3_bandwidth", .type = T::Number, .target = G::System, .help = "dimension 3's bandwidth",
     .unit = "GB/s per link", .apply_system = set_bandwidth, .dimension = 3},
    {.name = "dim0_latency", .type = T::Number, .target = G::System, .help = "dimension 0's latency",
     .unit = "ns per hop", .allows_zero = true, .apply_system = set_latency, .dimension = 0},
    {.name = "dim1_latency", .type = T::Number, .target = G::System, .help = "dimension 1's latency",
     .unit = "ns per hop", .allows_zero = true, .apply_system = set_latency, .dimension = 1},
    {.name = "dim2_latency", .type = T::Number, .target = G::System, .help = "dimension 2's latency",
     .unit = "ns per hop", .allows_zero = true, .apply_system = set_latency, .dimension = 2},
    {.name = "dim3_latency", .type = T::Number, .target = G::System, .help = "dimension 3's latency",
     .unit = "ns per hop", .allows_zero = true, .apply_system = set_latency, .dimension = 3},
    // The sweep's cost column.
    {.name = "price_per_gpu_hour", .type = T::Number, .target = G::Cost, .help = "the cost column's price of one GPU-hour",
     .default_text = "1"},
};
#pragma GCC diagnostic pop

[[noreturn]] void bad_value(const InputLocation& where, std::string_view got, const std::string& expected) {
    throw InputError(where, "expected " + expected + ", got '" + std::string(got) + "'");
}

}  // namespace

// PredictOptions::given holds one bit per option.
static_assert(std::size(kOptions) <= 64, "PredictOptions::given has 64 bits");

std::span<const OptionDecl> option_schema() { return kOptions; }

const OptionDecl* find_option(std::string_view name) {
    std::string normalized(name);
    std::replace(normalized.begin(), normalized.end(), '-', '_');
    for (const OptionDecl& d : kOptions)
        if (d.name == normalized) return &d;
    return nullptr;
}

std::string option_suggestion(std::string_view unknown) {
    std::string normalized(unknown);
    std::replace(normalized.begin(), normalized.end(), '-', '_');
    const OptionDecl* best = nullptr;
    std::size_t best_distance = 0;
    for (const OptionDecl& d : kOptions) {
        const std::size_t distance = edit_distance(normalized, d.name);
        if (!best || distance < best_distance) {
            best = &d;
            best_distance = distance;
        }
    }
    if (!best || best_distance > std::max<std::size_t>(2, normalized.size() / 3)) return "";
    return " (did you mean '" + std::string(best->name) + "'?)";
}

std::string option_flag(std::string_view name) {
    std::string flag = "--" + std::string(name);
    std::replace(flag.begin(), flag.end(), '_', '-');
    return flag;
}

std::string option_expectation(const OptionDecl& d) {
    switch (d.type) {
        case OptionType::Integer:
            if (d.max > 0) return fmt::format("an integer from {} to {}", d.allows_zero ? 0 : 1, d.max);
            return d.allows_zero ? "a non-negative integer" : "a positive integer";
        case OptionType::Number:
            if (d.max > 0) return fmt::format("a number from {} to {}", d.allows_zero ? "0" : "above 0", d.max);
            return d.allows_zero ? "a non-negative number" : "a positive number";
        case OptionType::Boolean: return "true or false";
        case OptionType::Text: return d.expected.empty() ? "a non-empty text" : std::string(d.expected);
    }
    return "a value";
}

bool option_accepts_number(const OptionDecl& d, double v) {
    if (!std::isfinite(v)) return false;
    if (d.type == OptionType::Integer && (v != std::floor(v) || v > kMaxInt)) return false;
    if (d.max > 0 && v > d.max) return false;
    return d.allows_zero ? v >= 0 : v > 0;
}

std::optional<OptionValue> parse_option_value(const OptionDecl& d, std::string_view text, std::string& expected) {
    text = trim_blanks(text);
    expected = option_expectation(d);
    switch (d.type) {
        case OptionType::Text:
            if (text.empty() || (d.accepts && !d.accepts(text))) {
                if (d.explain && !text.empty()) expected = d.explain(text);
                return std::nullopt;
            }
            return OptionValue{0, std::string(text)};
        case OptionType::Boolean:
            if (text == "true" || text == "1" || text == "yes") return OptionValue{1, {}};
            if (text == "false" || text == "0" || text == "no") return OptionValue{0, {}};
            return std::nullopt;
        case OptionType::Integer:
        case OptionType::Number: {
            const auto v = parse_finite_number(text);
            if (!v || !option_accepts_number(d, *v)) return std::nullopt;
            return OptionValue{*v, {}};
        }
    }
    return std::nullopt;
}

OptionValue option_value_from_config(const OptionDecl& d, const ConfigValue& v) {
    switch (v.type) {
        case ConfigValue::Type::String: {
            std::string expected;
            const auto parsed = parse_option_value(d, v.text, expected);
            if (!parsed) bad_value(v.where, v.text, expected);
            return *parsed;
        }
        case ConfigValue::Type::Integer:
        case ConfigValue::Type::Float:
            if (d.type == OptionType::Text) {
                const OptionValue value{0, fmt::format("{}", v.number)};
                check_option_text(d, value, v.where);
                return value;
            }
            if (d.type == OptionType::Boolean && (v.number == 0 || v.number == 1)) return OptionValue{v.number, {}};
            if ((d.type == OptionType::Integer || d.type == OptionType::Number) && option_accepts_number(d, v.number))
                return OptionValue{v.number, {}};
            bad_value(v.where, fmt::format("{}", v.number), option_expectation(d));
        case ConfigValue::Type::Bool:
            if (d.type == OptionType::Boolean) return OptionValue{v.boolean ? 1.0 : 0.0, {}};
            bad_value(v.where, v.boolean ? "true" : "false", option_expectation(d));
        default:
            throw InputError(v.where, "expected " + option_expectation(d) + ", got " + std::string(config_type_name(v.type)));
    }
}

void check_option_text(const OptionDecl& d, const OptionValue& v, const InputLocation& where) {
    if (d.type != OptionType::Text) return;
    if (v.text.empty() || (d.accepts && !d.accepts(v.text)))
        bad_value(where, v.text, d.explain && !v.text.empty() ? d.explain(v.text) : option_expectation(d));
}

std::string format_option_value(const OptionDecl& d, const OptionValue& v) {
    switch (d.type) {
        case OptionType::Text: return v.text;
        case OptionType::Boolean: return v.number != 0 ? "true" : "false";
        case OptionType::Integer: return fmt::format("{}", static_cast<long long>(v.number));
        case OptionType::Number: return general_number(v.number);
    }
    return "";
}

}  // namespace dtcalc
