#pragma once
// A framework recipe: how a training framework (Megatron-Core, NeMo,
// TorchTitan, the 2021-2022 Megatron-LM papers' code) runs a plan by default,
// in `presets/frameworks/NAME.toml` (a `frameworks` folder beside the
// presets). The file names the framework, cites its sources, and sets plan
// options' defaults in a `[defaults]` table keyed by the option names of
// predict/option_schema.h:
//
//   name = "nemo"
//   description = "NeMo 2.0 / Megatron-Bridge pre-training recipes"
//   sources = ["NeMo nemo/collections/llm/recipes/llama3_70b.py: ..."]
//   [defaults]
//   sequence_parallel = true
//   tp_comm_overlap = true
//
// This layer reads the file; predict/framework_defaults.h checks the keys
// and values against the option schema.
#include <string>
#include <vector>

#include "config/config_value.h"

namespace dtcalc {

struct FrameworkRecipe {
    std::string name;
    std::string description;
    std::vector<std::string> sources;
    ConfigValue defaults;  ///< the [defaults] table (keys located in the file)
    std::string path;      ///< the file it was read from
};

/// The folders framework recipes are looked up in: `frameworks` inside each
/// preset folder, in the same order.
std::vector<std::string> framework_dirs(const std::vector<std::string>& preset_dirs);

/// `name_or_path` is a file path (it holds '/' or ends in ".toml") or a recipe
/// name looked up as NAME.toml in `search_dirs`; throws OptionError for
/// `framework` naming the known ones when there is none, InputError at the
/// key for a file that lacks one or has an unknown one.
FrameworkRecipe load_framework(const std::string& name_or_path, const std::vector<std::string>& search_dirs);

/// The names of the recipes in `search_dirs`, sorted, without duplicates.
std::vector<std::string> list_frameworks(const std::vector<std::string>& search_dirs);

}  // namespace dtcalc
