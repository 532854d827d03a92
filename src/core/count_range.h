#pragma once
// Whole counts as typed on the command line (`--npus 8..1024`, `--nodes 1..128`):
//   "16"          one count
//   "1,2,8"       a list
//   "8..1024"     doubling from 8 while <= 1024: 8 16 32 ... 1024
//   "8..64+8"     adding 8: 8 16 24 ... 64
//   "2..162*3"    multiplying by 3: 2 6 18 54 162
// the syntax of a sweep's ranges (sweep/param_value.h), for whole numbers.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtcalc {

/// The counts `text` names, each from 1 to `max_count`, at most `max_values`
/// of them. Nullopt (and `expected` set to what was expected) on malformed
/// text, a count out of range, a range that yields nothing (64..8) or one of
/// more than `max_values` counts.
std::optional<std::vector<long long>> parse_count_range(std::string_view text, long long max_count, std::size_t max_values,
                                                        std::string& expected);

}  // namespace dtcalc
