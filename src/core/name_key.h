#pragma once
// Names read from users in any case: the keys dtcalc compares them by.
#include <string>
#include <string_view>

namespace dtcalc {

/// `name` with its ASCII letters in lower case ("BF16" -> "bf16").
std::string ascii_lower(std::string_view name);

/// `name` in lower case without '-' and '_', so that all-reduce, all_reduce
/// and AllReduce compare equal ("allreduce").
std::string name_key(std::string_view name);

}  // namespace dtcalc
