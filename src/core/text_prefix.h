#pragma once
// Cutting text for a fixed-width column without splitting a character.
#include <cstddef>
#include <string_view>

namespace dtcalc {

/// The first `characters` UTF-8 characters of `text` (all of it when shorter).
/// A multi-byte sequence is kept whole or dropped whole, so the prefix of
/// valid UTF-8 is valid UTF-8; a stray continuation byte counts as one.
std::string_view leading_characters(std::string_view text, std::size_t characters);

}  // namespace dtcalc
