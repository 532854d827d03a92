#include "predict/framework_defaults.h"

#include "config/framework_recipe.h"
#include "core/error.h"
#include "predict/predict_options.h"

namespace dtcalc {

FrameworkDefaults read_framework_defaults(const FrameworkRecipe& recipe) {
    FrameworkDefaults out;
    out.name = recipe.name;
    out.description = recipe.description;
    out.sources = recipe.sources;
    for (const auto& [key, value] : recipe.defaults.fields) {
        const OptionDecl* option = find_option(key);
        if (option == nullptr) fail_at(value, "unknown option '" + key + "'" + option_suggestion(key));
        if (option->target != OptionTarget::Option || option->base || option->name == "framework")
            fail_at(value, "'" + key + "' is not a plan option a recipe can set (a recipe sets how the plan runs, not the model, system or cluster)");
        OptionValue v = option_value_from_config(*option, value);
        check_option_text(*option, v, value.where);
        std::string expected;
        out.values.push_back({option, std::move(v), parse_option_value(*option, option->default_text, expected)});
    }
    return out;
}

void apply_framework_defaults(PredictOptions& options, const FrameworkDefaults& defaults) {
    // `probe` equals `options` from one default to the next (a sweep applies
    // the defaults once per point: one copy per call, not one per default).
    PredictOptions probe = options;
    for (const FrameworkDefaults::Value& d : defaults.values) {
        if (option_given(options, *d.option)) continue;
        if (d.builtin) {  // a field set directly, away from its default, counts as given
            d.option->apply(probe, *d.builtin);
            if (!(probe == options)) {
                probe = options;
                continue;
            }
        }
        d.option->apply(options, d.value);
        d.option->apply(probe, d.value);
    }
}

}  // namespace dtcalc
