#include "core/error.h"

namespace dtcalc {

std::string format_input_error(const InputLocation& where, const std::string& detail) {
    std::string out;
    if (!where.file.empty()) {
        out += where.file;
        if (where.line > 0) {
            out += ':' + std::to_string(where.line);
            if (where.column > 0) out += ':' + std::to_string(where.column);
        }
        out += ": ";
    }
    if (!where.key.empty()) out += where.key + ": ";
    out += detail;
    return out;
}

InputError::InputError(InputLocation where, std::string what_was_wrong)
    : std::runtime_error(format_input_error(where, what_was_wrong)),
      where_(std::move(where)),
      detail_(std::move(what_was_wrong)) {}

OptionError::OptionError(std::string option, std::string what_was_wrong)
    : InputError({"", 0, 0, option}, std::move(what_was_wrong)), option_(std::move(option)) {}

OptionError::OptionError(const OptionError& error, InputLocation where)
    : InputError(std::move(where), error.detail()), option_(error.option()) {}

}  // namespace dtcalc
