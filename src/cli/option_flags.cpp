#include "cli/option_flags.h"

#include <cctype>

#include "core/error.h"

namespace dtcalc::cli {

std::string option_help(const OptionDecl& d) {
    std::string help(d.help);
    if (!help.empty()) help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
    if (!d.unit.empty()) help += ", " + std::string(d.unit);
    if (!d.default_text.empty()) help += " (default " + std::string(d.default_text) + ")";
    return help;
}

std::string option_flags(const OptionDecl& d) {
    std::string flags = option_flag(d.name);
    if (!d.aliases.empty()) flags += "," + std::string(d.aliases);
    return flags;
}

void OptionFlags::add(CLI::App& command, const std::function<bool(const OptionDecl&)>& wanted) {
    for (const OptionDecl& d : option_schema()) {
        if (wanted ? !wanted(d) : d.target != OptionTarget::Option) continue;
        Flag& flag = flags_[&d];
        if (d.type == OptionType::Boolean) {
            flag.option = command.add_flag(option_flags(d), flag.on, option_help(d));
            continue;
        }
        flag.option = command.add_option(option_flags(d), flag.text, option_help(d));
        flag.option->type_name(d.type == OptionType::Integer ? "INT" : d.type == OptionType::Number ? "NUMBER" : "TEXT");
    }
}

bool OptionFlags::given(const OptionDecl& d) const {
    const auto it = flags_.find(&d);
    return it != flags_.end() && it->second.option->count() > 0;
}

void OptionFlags::apply(PredictOptions& options) const {
    for (const OptionDecl& d : option_schema()) {
        const auto it = flags_.find(&d);
        if (it == flags_.end() || it->second.option->count() == 0 || !d.apply) continue;
        const Flag& flag = it->second;
        if (d.type == OptionType::Boolean) {
            set_option(options, d, OptionValue{flag.on ? 1.0 : 0.0, {}});
            continue;
        }
        std::string expected;
        const auto value = parse_option_value(d, flag.text, expected);
        if (!value) throw InputError({option_flag(d.name), 0, 0, ""}, "expected " + expected + ", got '" + flag.text + "'");
        set_option(options, d, *value);
    }
}

}  // namespace dtcalc::cli
