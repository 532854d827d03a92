#pragma once
// Text as the output formats quote it: JSON string literals and CSV fields.
// Names and notes come from users' files, so anything may be in them. And
// numbers as the reports spell them.
#include <string>
#include <string_view>

namespace dtcalc {

/// A JSON string literal holding `text`: quotes and backslashes escaped, line
/// breaks and tabs as \n \r \t, other control characters as \u00XX, and any
/// byte that is not part of valid UTF-8 as U+FFFD, so the result is always
/// valid JSON.
std::string json_string(std::string_view text);

/// A field as CSV writes it: quoted (quotes doubled) when it holds a comma, a
/// quote or a line break, as is otherwise.
std::string csv_field(std::string_view text);

/// A CSV field always in quotes (quotes doubled), for free text such as a
/// reason, so that a column reads the same whatever its row says.
std::string quoted_csv_field(std::string_view text);

/// `v` as printf's "%.12g" (and fmt's "{:.12g}") writes it: twelve significant
/// digits, trailing zeros dropped, an exponent past 1e12 or below 1e-4.
/// The reports' numbers; a sweep writes a dozen per row, so it takes
/// std::to_chars, which gives the same characters without a format string.
std::string general_number(double v);

/// `v` with `decimals` digits after the point, as printf's "%.Nf" writes it
/// (the exact value rounded half to even).
std::string fixed_number(double v, int decimals);

}  // namespace dtcalc
