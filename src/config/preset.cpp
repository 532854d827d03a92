#include "config/preset.h"

#include <algorithm>
#include <filesystem>

#include "config/config_readers.h"
#include "config/network_config.h"
#include "config/system_config_reader.h"

namespace dtcalc {
namespace fs = std::filesystem;

namespace {

std::string find_preset_file(const std::string& name_or_path, const std::vector<std::string>& search_dirs) {
    const bool looks_like_path = name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".toml");
    if (looks_like_path) return name_or_path;
    for (const std::string& dir : search_dirs) {
        const fs::path candidate = fs::path(dir) / (name_or_path + ".toml");
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec)) return candidate.string();
    }
    std::string known;
    for (const std::string& name : list_presets(search_dirs)) known += (known.empty() ? "" : ", ") + name;
    throw InputError({"--preset", 0, 0, ""}, "no preset named '" + name_or_path + "' (known: " +
                                                 (known.empty() ? "none found" : known) + ")");
}

}  // namespace

Preset load_preset(const std::string& name_or_path, const std::vector<std::string>& search_dirs) {
    Preset preset;
    preset.path = find_preset_file(name_or_path, search_dirs);
    const ConfigValue root = read_toml_file(preset.path);
    ConfigTableReader reader(root);
    preset.name = reader.string("name");
    preset.description = reader.string("description");
    preset.sources = reader.string_list("sources");
    const ConfigValue& backend = reader.required("backend");
    const auto parsed = parse_network_backend(as_string(backend));
    if (!parsed) fail_at(backend, "expected 'astra-unaware' or 'astra-aware', got '" + backend.text + "'");
    preset.backend = *parsed;
    preset.network = network_from_config(reader.required("network"));
    preset.system = system_config_from(reader.required("system"), preset.network.dimensions.size());
    reader.finish();
    return preset;
}

std::vector<std::string> list_presets(const std::vector<std::string>& search_dirs) {
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

}  // namespace dtcalc
