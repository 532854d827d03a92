#pragma once
// The message for command-line arguments no option or positional took.
#include <CLI/CLI.hpp>

#include <string>

namespace dtcalc::cli {

/// "--tpp: unknown option (did you mean --tp?); `dtcalc predict --help` lists them"
/// for the first argument the chosen subcommand left over, or, for a stray
/// value, "unexpected argument '3'; ...". Call after CLI11 threw ExtrasError.
std::string unknown_arguments_message(const CLI::App& app);

}  // namespace dtcalc::cli
