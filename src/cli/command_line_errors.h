#pragma once
// Messages for the command-line errors CLI11 finds, in dtcalc's own form
// ("WHERE: WHAT", what was expected and what was given).
#include <CLI/CLI.hpp>

#include <string>

namespace dtcalc::cli {

/// "--tpp: unknown option (did you mean --tp?); `dtcalc predict --help` lists them"
/// for the first argument the chosen subcommand left over, or, for a stray
/// value, "unexpected argument '3'; ...". Call after CLI11 threw ExtrasError.
std::string unknown_arguments_message(const CLI::App& app);

/// "--tp: expected a whole number, got 'abc'" for CLI11's ConversionError
/// text ("Could not convert: --tp = abc"); other texts are returned as they are.
std::string conversion_error_message(const CLI::App& app, const std::string& what);

}  // namespace dtcalc::cli
