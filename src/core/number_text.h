#pragma once
// A number as typed in a value: blanks around it allowed, nothing else; the
// whole text must be one finite number.
#include <optional>
#include <string_view>

namespace dtcalc {

/// `s` without leading and trailing spaces and tabs (and a trailing '\r').
std::string_view trim_blanks(std::string_view s);

/// The finite number `s` spells (after trim_blanks), or nullopt.
std::optional<double> parse_finite_number(std::string_view s);

}  // namespace dtcalc
