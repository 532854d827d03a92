#pragma once
// Models from models/NAME.toml (found by name or path), each citing its source.
#include <string>
#include <vector>

#include "model/model_spec.h"

namespace dtcalc {

ModelSpec load_model(const std::string& name_or_path, const std::vector<std::string>& search_dirs);
std::vector<std::string> list_models(const std::vector<std::string>& search_dirs);

}  // namespace dtcalc
