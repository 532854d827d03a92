#pragma once
// Presets and models are TOML files found by name in search directories
// (DTCALC_PRESET_PATH, DTCALC_MODEL_PATH, the installed ones) or given as paths.
#include <string>
#include <string_view>
#include <vector>

namespace dtcalc {

/// The names (file stems) of the .toml files in `search_dirs`, sorted, without
/// duplicates. A directory that cannot be read is skipped.
std::vector<std::string> toml_names_in(const std::vector<std::string>& search_dirs);

/// `name` inside each of `dirs`, in the same order (the catalogue's devices/,
/// nics/, nccl/ and frameworks/ beside the presets).
std::vector<std::string> subfolders_of(const std::vector<std::string>& dirs, std::string_view name);

/// The file `name_or_path` means: itself when it looks like a path (it holds a
/// '/' or ends in .toml), otherwise NAME.toml in the first of `search_dirs`
/// that has it. Throws OptionError for `option` naming the known ones when
/// there is none: "no preset named 'x' (known: a, b)" for `kind` "preset".
std::string find_named_toml(const std::string& name_or_path, const std::vector<std::string>& search_dirs,
                            std::string_view kind, std::string_view option);

}  // namespace dtcalc
