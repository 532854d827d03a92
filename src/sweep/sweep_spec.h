#pragma once
// A sweep spec: which parameters are fixed, which vary and over what values,
// the constraints a point must meet, and how points are ranked.
//
// In TOML (or JSON, the same tree):
//     model = "llama2-70b"          # a parameter with one value: fixed
//     preset = "lab-system1"
//     gbs = 512
//     dp = "1..64"                   # a range: 1 2 4 ... 64
//     recompute = ["none", "full"]   # a list
//     objective = "time"             # time | tokens_per_s | tokens_per_s_per_gpu | mfu | memory | cost
//     top = 5
//     [constraints]
//     npus = 64                      # keep only points with dp x tp x pp x cp = 64
//     memory_limit = "80GiB"         # the memory_limit parameter
//     rules = ["tp <= 8"]            # constraint_rule.h; a point that breaks one is not allowed
//     [[case]]                       # optional: each case is its own space, the
//     name = "gpt on system 2"       # top-level parameters overridden by its own
//     model = "gpt3-175b"
// The parameters are those of sweep_parameters.h. With `npus` and no dp, dp is
// npus / (tp x pp x cp). Relative paths of models, presets and ASTRA-sim files
// are looked up beside the spec first.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config_value.h"
#include "sweep/constraint_rule.h"
#include "sweep/param_value.h"

namespace dtcalc {

struct SweepAxis {
    const ParamInfo* param = nullptr;
    std::vector<ParamValue> values;  ///< one value: fixed
    InputLocation where;
};

struct SweepCase {
    std::string name;
    std::vector<SweepAxis> axes;  ///< the case's own parameters (over the top-level ones), in the order of sweep_parameters()
};

enum class SweepObjective { Time, TokensPerSecond, TokensPerSecondPerGpu, Mfu, Memory, Cost };

std::optional<SweepObjective> parse_sweep_objective(std::string_view text);
std::string_view sweep_objective_name(SweepObjective objective);
/// Whether a larger value of the objective is better.
bool objective_maximizes(SweepObjective objective);

struct SweepSpec {
    std::vector<SweepAxis> parameters;  ///< top level, in the order of sweep_parameters()
    std::vector<SweepCase> cases;       ///< empty: one space from the top-level parameters
    std::optional<long long> npus;
    InputLocation npus_where;  ///< where npus was given: constraints.npus in the file, or --npus
    std::vector<ConstraintRule> rules;
    SweepObjective objective = SweepObjective::Time;
    int top = 5;
    std::string base_dir;  ///< where relative model / preset / network / system paths are looked up first

    /// Sets a top-level parameter (a command-line flag over the spec): replaces
    /// it at the top level and removes it from every case.
    void set(const ParamInfo& param, std::vector<ParamValue> values, const InputLocation& where);
    const SweepAxis* find(std::string_view name) const;  ///< top level only
};

/// Throws InputError naming the key for an unknown parameter (with a
/// suggestion), a bad value, an empty list or range, or a malformed rule.
SweepSpec read_sweep_spec(const ConfigValue& root, const std::string& base_dir);

/// Checks that a text value means something for its parameter (a schedule,
/// recompute, precision, order, backend or memory size); throws InputError at `where`.
void check_text_value(const ParamInfo& param, const ParamValue& value, const InputLocation& where);

}  // namespace dtcalc
