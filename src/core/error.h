#pragma once
// The one error type for bad input. Loaders and parsers throw it; only the
// command-line front end turns it into a message and exit code 2. Library code
// never exits.
#include <stdexcept>
#include <string>

namespace dtcalc {

/// Where in the input something went wrong. Every field is optional: a flag has
/// no file, a JSON document has no line, a whole-file problem has no key.
struct InputLocation {
    std::string file;  ///< path as the user gave it, or "--flag" for a command-line value
    int line = 0;      ///< 1-based; 0 when unknown
    int column = 0;    ///< 1-based; 0 when unknown
    std::string key;   ///< dotted key path, e.g. "network.bandwidth[1]"
};

class InputError : public std::runtime_error {
public:
    InputError(InputLocation where, std::string what_was_wrong);

    const InputLocation& where() const { return where_; }
    /// The message without the location prefix.
    const std::string& detail() const { return detail_; }

private:
    InputLocation where_;
    std::string detail_;
};

/// A value of a named option (predict_options.h's schema: "tp",
/// "sequence_parallel", "model") that cannot be used. The library names the
/// option and leaves the location to the front end that read it: the command
/// line says `--tp`, a TOML file `tp` at its line, a CSV its row and column,
/// Python `tp=`. Unlocated, it reads "tp: detail".
class OptionError : public InputError {
public:
    OptionError(std::string option, std::string what_was_wrong);
    /// The same error at the place the option's value was read from.
    OptionError(const OptionError& error, InputLocation where);

    const std::string& option() const { return option_; }

private:
    std::string option_;
};

/// "file:line:column: key: detail", leaving out what is unknown.
std::string format_input_error(const InputLocation& where, const std::string& detail);

}  // namespace dtcalc
