#include "config/named_file.h"

#include <algorithm>
#include <filesystem>

#include "core/error.h"

namespace dtcalc {
namespace fs = std::filesystem;

std::vector<std::string> toml_names_in(const std::vector<std::string>& search_dirs) {
    std::vector<std::string> names;
    for (const std::string& dir : search_dirs) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".toml") names.push_back(it->path().stem().string());
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

std::vector<std::string> subfolders_of(const std::vector<std::string>& dirs, std::string_view name) {
    std::vector<std::string> out;
    out.reserve(dirs.size());
    for (const std::string& d : dirs) out.push_back((fs::path(d) / name).string());
    return out;
}

std::string find_named_toml(const std::string& name_or_path, const std::vector<std::string>& search_dirs,
                            std::string_view kind, std::string_view option) {
    const bool looks_like_path = name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".toml");
    if (looks_like_path) return name_or_path;
    for (const std::string& dir : search_dirs) {
        const fs::path candidate = fs::path(dir) / (name_or_path + ".toml");
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec)) return candidate.string();
    }
    std::string known;
    for (const std::string& name : toml_names_in(search_dirs)) known += (known.empty() ? "" : ", ") + name;
    throw OptionError(std::string(option), "no " + std::string(kind) + " named '" + name_or_path + "' (known: " +
                                                         (known.empty() ? "none found" : known) + ")");
}

}  // namespace dtcalc
