#pragma once
// File formats into ConfigValue trees. Each reader throws InputError naming the
// file (and line and column where the parser knows them) for unreadable, empty,
// truncated, binary or malformed input.
#include <string>

#include "config/config_value.h"

namespace dtcalc {

ConfigValue read_toml_file(const std::string& path);
ConfigValue read_json_file(const std::string& path);
ConfigValue read_yaml_file(const std::string& path);

/// The same from text held in memory; `source_name` stands for the file in
/// error messages (a C ABI or Python caller's string).
ConfigValue parse_toml_text(const std::string& text, const std::string& source_name);
ConfigValue parse_json_text(const std::string& text, const std::string& source_name);

/// Throws InputError (the file and line, the parser's words) when `text` is
/// not well-formed JSON; for readers of other programs' JSON, whose documents
/// hold what ConfigValue does not (null).
void check_json_text(const std::string& text, const std::string& source_name);

/// The whole file as text; throws when it cannot be read, is empty or holds NUL bytes.
std::string read_text_file(const std::string& path);

}  // namespace dtcalc
