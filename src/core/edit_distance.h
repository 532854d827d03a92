#pragma once
// How far apart two words are, for "did you mean" in messages.
#include <cstddef>
#include <string_view>

namespace dtcalc {

/// Levenshtein distance: the fewest single-character insertions, deletions
/// and substitutions that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace dtcalc
