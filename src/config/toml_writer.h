#pragma once
// A configuration tree written back as TOML: scalars and lists of a table
// first, then its sub-tables under [dotted.headers], keys in the tree's order.
// Integers stay integers, numbers are written in the shortest text that reads
// back as the same double, strings are escaped as TOML basic strings. What
// read_toml_file() makes of the text is the same tree (values, types, order).
#include <string>

#include "config/config_value.h"

namespace dtcalc {

/// `comments` (one line each) open the text as "# ..." lines.
std::string write_toml(const ConfigValue& root, const std::vector<std::string>& comments = {});

}  // namespace dtcalc
