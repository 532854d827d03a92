#include "config/framework_recipe.h"

#include "config/config_readers.h"
#include "config/named_file.h"
#include "core/error.h"

namespace dtcalc {

std::vector<std::string> framework_dirs(const std::vector<std::string>& preset_dirs) {
    return subfolders_of(preset_dirs, "frameworks");
}

FrameworkRecipe load_framework(const std::string& name_or_path, const std::vector<std::string>& search_dirs) {
    FrameworkRecipe recipe;
    recipe.path = find_named_toml(name_or_path, search_dirs, "framework", "framework");
    const ConfigValue root = read_toml_file(recipe.path);
    ConfigTableReader r(root);
    recipe.name = r.string("name");
    recipe.description = r.string("description");
    recipe.sources = r.string_list("sources");
    const ConfigValue& defaults = r.required("defaults");
    if (defaults.type != ConfigValue::Type::Table) fail_at(defaults, "expected a table of option defaults");
    recipe.defaults = defaults;
    r.finish();
    return recipe;
}

std::vector<std::string> list_frameworks(const std::vector<std::string>& search_dirs) { return toml_names_in(search_dirs); }

}  // namespace dtcalc
