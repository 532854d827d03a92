#pragma once
// The parameters a sweep can fix or vary, by name: every option of
// predict/option_schema.h. The names are the scenario keys (a sweep spec, a
// batch CSV's columns and the Python keyword arguments all use them) and,
// with '-' for '_', the flags of `predict` and `sweep`. Beside the options
// `predict` takes, a sweep varies:
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

#include "predict/option_schema.h"

namespace dtcalc {

using ParamType = OptionType;
using ParamTarget = OptionTarget;
using ParamInfo = OptionDecl;

/// Every parameter, in the order reports list them.
inline std::span<const ParamInfo> sweep_parameters() { return option_schema(); }

/// nullptr for an unknown name.
inline const ParamInfo* find_parameter(std::string_view name) { return find_option(name); }

/// " (did you mean 'dp'?)" for the closest known name, or "" when none is close.
inline std::string parameter_suggestion(std::string_view unknown) { return option_suggestion(unknown); }

}  // namespace dtcalc
