#pragma once
// One value of a sweep parameter, and the value expressions a spec, a flag or
// a CSV cell gives:
//   a single value          8, 0.5, "full", true
//   a list                  [1, 2, 4] in TOML; "none,full" on the command line
//   a range (numbers only)  "1..64"     doubling from 1 while <= 64: 1 2 4 ... 64
//                           "8..64+8"   adding 8: 8 16 24 ... 64
//                           "0.5..2*2"  multiplying by 2: 0.5 1 2
// A range that yields nothing ("64..1") or more than a million values is an error.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config_value.h"
#include "sweep/sweep_parameters.h"

namespace dtcalc {

using ParamValue = OptionValue;

/// One value from text. On failure returns nullopt and sets `expected` to what
/// was expected ("a positive integer").
inline std::optional<ParamValue> parse_param_value(const ParamInfo& param, std::string_view text, std::string& expected) {
    return parse_option_value(param, text, expected);
}

/// The values of a value expression given as text: a range, a comma-separated
/// list (not for `order`, whose values hold commas), or one value. Throws
/// InputError at `where` naming the parameter.
std::vector<ParamValue> expand_value_text(const ParamInfo& param, std::string_view text, const InputLocation& where);

/// The values of a spec entry: a scalar, a list of scalars, or a range string.
std::vector<ParamValue> expand_value_config(const ParamInfo& param, const ConfigValue& value);

/// How reports and CSV cells show a value (format_option_value).
inline std::string format_param_value(const ParamInfo& param, const ParamValue& value) { return format_option_value(param, value); }

}  // namespace dtcalc
