#pragma once
// A framework recipe's [defaults] (config/framework_recipe.h) checked against
// the option schema and ready to fill the options a caller did not give.
//
// A default may set any plan option of target Option that does not choose
// what is loaded (not model, preset, nodes, ...; option_schema.h's `base`),
// and not `framework` itself. Its value is read and checked as a scenario
// file's is; an unknown key is an error at its line with the closest name.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "predict/option_schema.h"

namespace dtcalc {

struct FrameworkRecipe;
struct PredictOptions;

struct FrameworkDefaults {
    std::string name;         ///< the recipe's name, as reports show it
    std::string description;
    std::vector<std::string> sources;
    struct Value {
        const OptionDecl* option = nullptr;
        OptionValue value;                   ///< the recipe's
        std::optional<OptionValue> builtin;  ///< the option's own default (its default_text), when it is a value
    };
    std::vector<Value> values;  ///< in file order
};

/// Throws InputError at the recipe's key or value that cannot be used.
FrameworkDefaults read_framework_defaults(const FrameworkRecipe& recipe);

/// Sets each default whose option `options` was not given: neither set through
/// set_option() (flags, scenario keys, sweep values, CSV cells, keywords) nor
/// changed from the option's built-in default by code that filled the fields
/// itself. Explicit options always win.
void apply_framework_defaults(PredictOptions& options, const FrameworkDefaults& defaults);

}  // namespace dtcalc
