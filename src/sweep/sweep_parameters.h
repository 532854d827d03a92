#pragma once
// The parameters a sweep can fix or vary, by name. The names are `predict`'s
// flags with '_' for '-' (a sweep spec, a batch CSV's columns and the Python
// keyword arguments all use them), plus:
//   model hyper-parameters  layers, hidden, ffn_hidden, heads, kv_heads, vocab,
//                           experts, top_k: override what the model file says
//   system scalings         bandwidth_scale, latency_scale (every network
//                           dimension), dim<N>_bandwidth (GB/s), dim<N>_latency
//                           (ns) for dimension N (0 innermost) after the
//                           scalings, compute_scale (every peak FLOP/s)
//   cost                    price_per_gpu_hour: the cost column is GPU-hours
//                           per million tokens times this (default 1)
#include <span>
#include <string>
#include <string_view>

namespace dtcalc {

enum class ParamType { Integer, Number, Text, Boolean };

/// What a parameter changes: the prediction's options, the loaded model, the
/// loaded system, or only the cost column.
enum class ParamTarget { Option, Model, System, Cost };

struct ParamInfo {
    std::string_view name;
    ParamType type = ParamType::Integer;
    ParamTarget target = ParamTarget::Option;
    std::string_view help;
    int dimension = -1;       ///< dim<N>_bandwidth / dim<N>_latency: N
    bool allows_zero = false;  ///< zero (ZeRO stage 0), dim<N>_latency (0 ns)
};

/// Every parameter, in the order reports list them.
std::span<const ParamInfo> sweep_parameters();

/// nullptr for an unknown name.
const ParamInfo* find_parameter(std::string_view name);

/// " (did you mean 'dp'?)" for the closest known name, or "" when none is close.
std::string parameter_suggestion(std::string_view unknown);

/// The parameter changes what is loaded (model or system), so points that
/// differ in it cannot share one loaded model and system.
inline bool changes_base(const ParamInfo& p) {
    if (p.target == ParamTarget::Model || p.target == ParamTarget::System) return true;
    if (p.target != ParamTarget::Option) return false;
    static constexpr std::string_view base_options[] = {"model", "preset", "network", "system", "backend", "nodes",
                                                        "gpus_per_node"};
    for (std::string_view b : base_options)
        if (p.name == b) return true;
    return false;
}

}  // namespace dtcalc
