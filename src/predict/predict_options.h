#pragma once
// The options of a prediction — from flags, from a scenario TOML, or from a
// sweep row — and how they become PredictInputs. Shared by `predict` and `sweep`.
// Each option is declared once in option_schema.h, which says how its value
// sets these fields.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config_value.h"
#include "config/system_source.h"
#include "predict/framework_defaults.h"
#include "predict/option_schema.h"
#include "predict/predict.h"

namespace dtcalc {

struct PredictOptions {
    std::string model;
    /// The system: a preset, ASTRA-sim's files or a cluster from the hardware
    /// catalogue, with its backend and shape (config/system_source.h).
    SystemSource system;
    std::optional<int> dp;
    int tp = 1, pp = 1, cp = 1, ep = 1, vpp = 1, zero = 0;
    std::optional<int> mbs;  ///< default 1, or a layer-list model's batch per GPU
    std::optional<long long> gbs;
    std::optional<int> seq;
    bool sequence_parallel = false;
    bool tp_comm_overlap = false;
    bool overlap_param_gather = false;
    bool grad_reduce_in_fp32 = true;
    std::string schedule = "1f1b", recompute = "none", precision = "bf16", order = "tp,cp,ep,dp,pp";
    std::string attention = "flash";
    std::string cross_entropy = "unfused";
    std::string pipeline_split = "even";
    std::string memory_limit;
    /// NCCL_ALGO / NCCL_PROTO the job runs with, in NCCL's syntax
    /// (collective/nccl/nccl_force.h); empty: unset, NCCL's own choice.
    std::string nccl_algo, nccl_proto;
    /// Further NCCL settings the job runs with, VARIABLE=VALUE separated by
    /// blanks, as a shell sets them ("NCCL_MAX_CTAS=8 NCCL_NVLS_ENABLE=0"):
    /// each one nccl_force.h models; empty: none.
    std::string nccl_env;
    /// The framework recipe (presets/frameworks/NAME.toml, config/framework_recipe.h)
    /// whose defaults fill the plan options not given.
    std::string framework = "megatron-core";
    /// The options given explicitly (set_option), one bit per option_schema()
    /// entry: a framework recipe's defaults never override them.
    std::uint64_t given = 0;

    bool operator==(const PredictOptions&) const = default;
};

/// Sets one option (option_schema.h) on `options` and marks it given. Every
/// front end sets options through it.
void set_option(PredictOptions& options, const OptionDecl& option, const OptionValue& value);

/// Whether `option` was set through set_option().
bool option_given(const PredictOptions& options, const OptionDecl& option);

/// Reads a scenario's keys (option_schema.h's names of the options `predict`
/// takes) into `options`; throws InputError at a value that cannot be read.
void apply_scenario(const ConfigValue& scenario, PredictOptions& options);

struct ResolvedPrediction {
    PredictInputs inputs;
    std::string model_label, system_label, backend_label;
    std::string nccl_algo, nccl_proto;  ///< as given; empty when unset
    std::string nccl_env;               ///< as given; empty when unset
    std::vector<std::string> warnings;  ///< ResolvedSystem::warnings (a network file's implausible values)
    FrameworkDefaults framework;  ///< the recipe the plan's defaults came from
};

/// Throws OptionError (core/error.h) naming the option whose value cannot be
/// used, InputError for a file that cannot be read.
ResolvedPrediction resolve_prediction(const PredictOptions& options, const std::vector<std::string>& preset_dirs,
                                      const std::vector<std::string>& model_dirs);

/// NCCL_ALGO / NCCL_PROTO of `options` (nccl_algo, nccl_proto) and its other
/// NCCL settings (nccl_env) for `system`: nothing set when all are empty.
/// Throws OptionError naming the option for a value NCCL rejects, a setting
/// dtcalc does not model, or a system the nccl backend does not price.
NcclForce resolve_nccl_force(const PredictOptions& options, const System& system);

/// The plan part of `options` for `model` on `npus` NPUs (dp defaults to
/// npus / (tp x pp x cp)); throws OptionError naming the option of a bad name.
ParallelPlan resolve_plan(const PredictOptions& options, const ModelSpec& model, long long npus);

/// Throws InputError at "plan" naming every rule the plan breaks on its
/// network (plan_problems), before anything is built or timed. The command
/// line, the C ABI and the Python module call it on what resolve_prediction()
/// gives; a sweep reports a point that breaks a rule as a row instead.
void check_plan(const PredictInputs& inputs);

/// Throws OptionError for precision when the plan asks for fp8 on a device without an fp8 peak.
void check_precision(const ParallelPlan& plan, const TrainingDevice& device);

/// memory_limit in bytes, 0 when not given; throws OptionError for a bad size.
double resolve_memory_limit(const PredictOptions& options);

}  // namespace dtcalc
