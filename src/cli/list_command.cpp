#include "cli/list_command.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "config/model_loader.h"
#include "config/preset.h"
#include "core/error.h"
#include "model/transformer_costs.h"

namespace dtcalc::cli {
namespace {

void list_models_table(const std::vector<std::string>& dirs) {
    fmt::print("models:\n");
    for (const std::string& name : list_models(dirs)) {
        const ModelSpec m = load_model(name, dirs);
        const double params = total_parameters(m);
        const std::string size = params >= 1e9 ? fmt::format("{:.1f}B", params / 1e9) : fmt::format("{:.1f}M", params / 1e6);
        fmt::print("  {:<16} {:>9}  {}\n", name, size, m.description);
    }
}

void list_presets_table(const std::vector<std::string>& dirs) {
    fmt::print("presets:\n");
    for (const std::string& name : list_presets(dirs)) {
        const Preset p = load_preset(name, dirs);
        fmt::print("  {:<30} {:>6} NPUs  {:<14} {}\n", name, p.network.total_npus(), network_backend_name(p.backend),
                   p.description);
    }
}

}  // namespace

void setup_list_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                        const std::vector<std::string>& model_dirs) {
    auto what = std::make_shared<std::string>("all");
    CLI::App* cmd = app.add_subcommand("list", "List the models and presets dtcalc can find");
    cmd->add_option("WHAT", *what, "models | presets | all (default all)");
    cmd->callback([what, &preset_dirs, &model_dirs] {
        if (*what != "all" && *what != "models" && *what != "presets")
            throw InputError({"WHAT", 0, 0, ""}, "expected models, presets or all, got '" + *what + "'");
        if (*what != "presets") list_models_table(model_dirs);
        if (*what == "all") fmt::print("\n");
        if (*what != "models") list_presets_table(preset_dirs);
    });
}

}  // namespace dtcalc::cli
