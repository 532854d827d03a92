#pragma once
// Every option of a prediction, declared once: what the model and system are,
// the plan, the overrides of the loaded model and system, and the sweep's cost
// price. Each declaration gives the option's name, type, accepted values,
// default, help and how it sets PredictOptions; from the declarations come
//   - `predict`'s and `sweep`'s flags: "--" and the name with '-' for '_'
//     (plus the declared aliases, the same in both commands),
//   - a scenario TOML's keys, and so the C ABI's keys and the Python module's
//     keyword arguments (the name as it is),
//   - a sweep spec's parameters and a batch CSV's columns (the name),
//   - the messages of a value that cannot be read, and OptionError (core/error.h)
//     for one that cannot be used, which each front end locates in its own
//     terms.
// Adding an option is one declaration here plus its use in the model.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "config/config_value.h"
#include "core/error.h"

namespace dtcalc {

struct ModelSpec;
struct PredictInputs;
struct PredictOptions;

enum class OptionType { Integer, Number, Text, Boolean };

/// What an option changes: the prediction's options (PredictOptions), the
/// loaded model, the loaded system, or only a sweep's cost column.
enum class OptionTarget { Option, Model, System, Cost };

/// One value of an option.
struct OptionValue {
    double number = 0;  ///< Integer, Number, Boolean (0 or 1)
    std::string text;   ///< Text
};

struct OptionDecl {
    std::string_view name;  ///< key, parameter, column and keyword; the flag is "--" + name with '-' for '_'
    OptionType type = OptionType::Integer;
    OptionTarget target = OptionTarget::Option;
    std::string_view help;
    std::string_view unit;          ///< what a number counts ("sequences", "GB/s per link"); "" for none
    bool allows_zero = false;       ///< numbers from 0, else above 0
    double max = 0;                 ///< the largest number accepted; 0: no bound beyond the type's
    std::string_view default_text;  ///< the default, as help shows it; "" when derived or none
    std::string_view aliases;       ///< more command-line spellings, ',' separated ("-m", "--sp")
    std::string_view expected;      ///< Text: what a value must be, for messages ("gpipe, 1f1b or interleaved")
    bool (*accepts)(std::string_view text) = nullptr;               ///< Text: whether a value means something
    /// Text: what a refused value should have been, suggesting one from it
    /// (replaces `expected` in the message); nullptr: `expected`.
    std::string (*explain)(std::string_view refused) = nullptr;
    void (*apply)(PredictOptions& options, const OptionValue& value) = nullptr;  ///< target Option: sets it
    void (*apply_model)(ModelSpec& model, const OptionValue& value) = nullptr;   ///< target Model: overrides it
    /// target System: scales or overrides the loaded network or device
    /// (dimension: the declared one, which the caller has checked exists).
    void (*apply_system)(PredictInputs& inputs, int dimension, double value) = nullptr;
    int dimension = -1;  ///< dim<N>_bandwidth / dim<N>_latency: N
    bool base = false;   ///< target Option: chooses what is loaded (model, system, cluster shape)
    /// Text: a value's own syntax holds commas (order, NCCL_ALGO), so a sweep
    /// flag or a spec's string is one value; a spec's TOML list gives several.
    bool commas_in_value = false;
};

/// Every option, in the order reports and help list them.
std::span<const OptionDecl> option_schema();

/// The declaration of `name` ('-' read as '_'); nullptr for an unknown name.
const OptionDecl* find_option(std::string_view name);

/// " (did you mean 'dp'?)" for the closest known name, or "" when none is close.
std::string option_suggestion(std::string_view unknown);

/// The command-line flag: "--" + name with '-' for '_' ("--gpus-per-node").
std::string option_flag(std::string_view name);

/// The option changes what is loaded (model or system), so points that differ
/// in it cannot share one loaded model and system.
inline bool changes_base(const OptionDecl& d) {
    return d.target == OptionTarget::Model || d.target == OptionTarget::System || d.base;
}

/// What a value must be: "a positive integer", "an integer from 0 to 3",
/// "true or false", "gpipe, 1f1b or interleaved".
std::string option_expectation(const OptionDecl& option);

/// One value from text (a flag, a CSV cell). On failure returns nullopt and
/// sets `expected` to option_expectation().
std::optional<OptionValue> parse_option_value(const OptionDecl& option, std::string_view text, std::string& expected);

/// Whether a number is one the option accepts (type, range).
bool option_accepts_number(const OptionDecl& option, double value);

/// One value from a TOML or JSON scalar; throws InputError at the value.
OptionValue option_value_from_config(const OptionDecl& option, const ConfigValue& value);

/// Throws InputError at `where` when a text value means nothing for its option
/// (a schedule, recompute, precision, order, backend or memory size).
void check_option_text(const OptionDecl& option, const OptionValue& value, const InputLocation& where);

/// How reports and CSV cells show a value: integers without a decimal point,
/// numbers with up to 12 significant digits, booleans as true/false.
std::string format_option_value(const OptionDecl& option, const OptionValue& value);

}  // namespace dtcalc
