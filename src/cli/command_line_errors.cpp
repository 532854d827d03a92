#include "cli/command_line_errors.h"

#include <string_view>
#include <vector>

#include "core/edit_distance.h"

namespace dtcalc::cli {
namespace {

// The innermost subcommand the user chose (the app itself when none).
const CLI::App& chosen_command(const CLI::App& app) {
    const CLI::App* command = &app;
    for (bool deeper = true; deeper;) {
        deeper = false;
        for (const CLI::App* sub : command->get_subcommands()) {
            command = sub;
            deeper = true;
            break;
        }
    }
    return *command;
}

// The command's long option closest to `flag` ("--tpp" -> "--tp"), or "".
std::string closest_option(const CLI::App& command, std::string_view flag) {
    std::string_view name = flag.substr(flag.find_first_not_of('-'));
    name = name.substr(0, name.find('='));
    std::string best;
    std::size_t best_distance = 0;
    for (const CLI::Option* option : command.get_options()) {
        for (const std::string& known : option->get_lnames()) {
            const std::size_t d = edit_distance(name, known);
            if (best.empty() || d < best_distance) {
                best = known;
                best_distance = d;
            }
        }
    }
    if (best.empty() || best_distance > std::max<std::size_t>(2, name.size() / 3)) return "";
    return "--" + best;
}

// What an option's value must be, from its type as CLI11 names it.
std::string expected_value(const CLI::Option* option) {
    const std::string type = option ? option->get_type_name() : "";
    if (type == "INT") return "a whole number";
    if (type == "UINT") return "a whole number, 0 or more";
    if (type == "FLOAT") return "a number";
    if (option && option->get_expected_max() == 0) return "true or false (or no value)";
    return "a value of another form";
}

}  // namespace

std::string unknown_arguments_message(const CLI::App& app) {
    const CLI::App& command = chosen_command(app);
    const std::string help = "`" + (command.get_parent() ? "dtcalc " + command.get_name() : std::string("dtcalc")) +
                             " --help` lists them";
    const std::vector<std::string> left = command.remaining();
    if (left.empty()) return "unexpected arguments; " + help;
    for (const std::string& argument : left) {
        if (argument.size() < 2 || argument.front() != '-') continue;
        const std::string flag = argument.substr(0, argument.find('='));
        const std::string suggestion = closest_option(command, flag);
        return flag + ": unknown option" + (suggestion.empty() ? "" : " (did you mean " + suggestion + "?)") + "; " +
               help;
    }
    return "unexpected argument '" + left.front() + "'; " + help;
}

std::string conversion_error_message(const CLI::App& app, const std::string& what) {
    constexpr std::string_view kPrefix = "Could not convert: ";
    const std::size_t equals = what.find(" = ");
    if (!what.starts_with(kPrefix) || equals == std::string::npos) return what;
    const std::string flag = what.substr(kPrefix.size(), equals - kPrefix.size());
    const std::string value = what.substr(equals + 3);
    const CLI::App& command = chosen_command(app);
    return flag + ": expected " + expected_value(command.get_option_no_throw(flag)) + ", got '" + value + "'";
}

}  // namespace dtcalc::cli
