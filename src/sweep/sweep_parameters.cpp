#include "sweep/sweep_parameters.h"

#include <algorithm>
#include <array>
#include <vector>

#include "core/edit_distance.h"

namespace dtcalc {
namespace {

using T = ParamType;
using G = ParamTarget;

constexpr ParamInfo kParameters[] = {
    {"model", T::Text, G::Option, "model name (see `dtcalc list`) or .toml path"},
    {"preset", T::Text, G::Option, "system preset: a name or .toml path"},
    {"network", T::Text, G::Option, "ASTRA-sim network YAML (with system)"},
    {"system", T::Text, G::Option, "ASTRA-sim system JSON (with network)"},
    {"backend", T::Text, G::Option, "network model (default: the preset's)"},
    {"nodes", T::Integer, G::Option, "nodes: the outermost network dimension"},
    {"gpus_per_node", T::Integer, G::Option, "GPUs per node: the innermost dimension"},
    {"dp", T::Integer, G::Option, "data parallel (default: npus / (tp x pp x cp))"},
    {"tp", T::Integer, G::Option, "tensor parallel"},
    {"pp", T::Integer, G::Option, "pipeline parallel"},
    {"cp", T::Integer, G::Option, "context parallel"},
    {"ep", T::Integer, G::Option, "expert parallel (within dp)"},
    {"vpp", T::Integer, G::Option, "virtual pipeline stages per rank"},
    {"mbs", T::Integer, G::Option, "micro-batch size (sequences)"},
    {"gbs", T::Integer, G::Option, "global batch size (sequences)"},
    {"seq", T::Integer, G::Option, "sequence length"},
    {"sequence_parallel", T::Boolean, G::Option, "Megatron sequence parallelism (with tp)"},
    {"tp_comm_overlap", T::Boolean, G::Option, "tensor-parallel collectives hidden behind the GEMMs"},
    {"schedule", T::Text, G::Option, "gpipe | 1f1b | interleaved"},
    {"recompute", T::Text, G::Option, "none | selective | full"},
    {"zero", T::Integer, G::Option, "ZeRO stage 0-3 (3 = FSDP)", -1, true},
    {"precision", T::Text, G::Option, "bf16 | fp8"},
    {"order", T::Text, G::Option, "axes innermost first (default tp,cp,ep,dp,pp)"},
    {"memory_limit", T::Text, G::Option, "memory per GPU, like 80GiB (default: the device's)"},
    {"layers", T::Integer, G::Model, "transformer layers"},
    {"hidden", T::Integer, G::Model, "hidden size"},
    {"ffn_hidden", T::Integer, G::Model, "MLP hidden size"},
    {"heads", T::Integer, G::Model, "attention heads"},
    {"kv_heads", T::Integer, G::Model, "key-value heads"},
    {"vocab", T::Integer, G::Model, "vocabulary"},
    {"experts", T::Integer, G::Model, "experts per MoE layer"},
    {"top_k", T::Integer, G::Model, "experts each token visits"},
    {"bandwidth_scale", T::Number, G::System, "multiplies every network dimension's bandwidth"},
    {"latency_scale", T::Number, G::System, "multiplies every network dimension's latency"},
    {"compute_scale", T::Number, G::System, "multiplies the device's peak FLOP/s"},
    {"dim0_bandwidth", T::Number, G::System, "dimension 0's bandwidth, GB/s per link", 0},
    {"dim1_bandwidth", T::Number, G::System, "dimension 1's bandwidth, GB/s per link", 1},
    {"dim2_bandwidth", T::Number, G::System, "dimension 2's bandwidth, GB/s per link", 2},
    {"dim3_bandwidth", T::Number, G::System, "dimension 3's bandwidth, GB/s per link", 3},
    {"dim0_latency", T::Number, G::System, "dimension 0's latency, ns per hop", 0, true},
    {"dim1_latency", T::Number, G::System, "dimension 1's latency, ns per hop", 1, true},
    {"dim2_latency", T::Number, G::System, "dimension 2's latency, ns per hop", 2, true},
    {"dim3_latency", T::Number, G::System, "dimension 3's latency, ns per hop", 3, true},
    {"price_per_gpu_hour", T::Number, G::Cost, "the cost column's price of one GPU-hour (default 1)"},
};

}  // namespace

std::span<const ParamInfo> sweep_parameters() { return kParameters; }

const ParamInfo* find_parameter(std::string_view name) {
    for (const ParamInfo& p : kParameters)
        if (p.name == name) return &p;
    return nullptr;
}

std::string parameter_suggestion(std::string_view unknown) {
    std::string normalized(unknown);
    std::replace(normalized.begin(), normalized.end(), '-', '_');
    const ParamInfo* best = nullptr;
    std::size_t best_distance = 0;
    for (const ParamInfo& p : kParameters) {
        const std::size_t d = edit_distance(normalized, p.name);
        if (!best || d < best_distance) {
            best = &p;
            best_distance = d;
        }
    }
    if (!best || best_distance > std::max<std::size_t>(2, normalized.size() / 3)) return "";
    return " (did you mean '" + std::string(best->name) + "'?)";
}

}  // namespace dtcalc
