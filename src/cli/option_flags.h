#pragma once
// The options of predict/option_schema.h as command-line flags: "--" and the
// name with '-' for '_', plus the declared aliases, the same in every command
// that takes them. A value is read by the schema (the same messages as a
// scenario file's or a sweep's), a Boolean option is a flag without a value.
#include <CLI/CLI.hpp>

#include <functional>
#include <map>
#include <string>

#include "predict/option_schema.h"
#include "predict/predict_options.h"

namespace dtcalc::cli {

class OptionFlags {
public:
    /// Adds a flag to `command` for each option `wanted` keeps (when empty:
    /// those of target Option, the options `predict` takes).
    void add(CLI::App& command, const std::function<bool(const OptionDecl&)>& wanted = {});

    /// Whether the option was given on the command line.
    bool given(const OptionDecl& option) const;

    /// Sets `options` from every flag given; throws InputError at the flag for
    /// a value that cannot be read.
    void apply(PredictOptions& options) const;

private:
    struct Flag {
        CLI::Option* option = nullptr;
        std::string text;
        bool on = false;
    };
    std::map<const OptionDecl*, Flag> flags_;
};

/// The help line of an option: its help, unit and default.
std::string option_help(const OptionDecl& option);

/// The flags of an option: "--gpus-per-node", with its aliases ("--sequence-parallel,--sp").
std::string option_flags(const OptionDecl& option);

}  // namespace dtcalc::cli
