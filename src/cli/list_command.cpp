#include "cli/list_command.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "config/framework_recipe.h"
#include "config/hardware_catalogue.h"
#include "config/model_loader.h"
#include "config/named_file.h"
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
        fmt::print("  {:<30} {:>6} NPUs  {:<14} {}\n", name, p.system.network.total_npus(), network_backend_name(p.system.backend),
                   p.description);
    }
}

std::string tflops(double v) { return v > 0 ? fmt::format("{:.1f}", v) : "-"; }

void list_gpus_table(const std::vector<std::string>& preset_dirs) {
    fmt::print("gpus (presets/devices; dense TFLOP/s, HBM, NVLink/Infinity Fabric links x GB/s per direction):\n");
    fmt::print("  {:<14} {:>7} {:>7} {:>6} {:>8} {:>9}  {:<16} {:>11} {:>4}  {}\n", "name", "bf16", "fp8", "fp32", "HBM GiB",
               "HBM GB/s", "node fabric", "links", "sm", "efficiency");
    for (const std::string& name : toml_names_in(catalogue_dirs(preset_dirs, "devices"))) {
        const DeviceSummary d = load_device_summary(name, preset_dirs);
        const std::string links = d.links_per_gpu > 0 ? fmt::format("{} x {:.1f}", d.links_per_gpu, d.link_bandwidth_gbps) : "-";
        fmt::print("  {:<14} {:>7} {:>7} {:>6} {:>8.0f} {:>9.0f}  {:<16} {:>11} {:>4}  {}\n", name, tflops(d.peak_tflops_bf16),
                   tflops(d.peak_tflops_fp8), tflops(d.peak_tflops_fp32), d.hbm_capacity_gib, d.hbm_bandwidth_gbps, d.fabric,
                   links, d.sm ? std::to_string(*d.sm) : "-",
                   d.efficiency_from.empty() ? "fitted" : "assumed from " + d.efficiency_from);
    }
}

void list_nics_table(const std::vector<std::string>& preset_dirs) {
    fmt::print("nics (presets/nics; line rate per direction):\n");
    fmt::print("  {:<10} {:>6} {:>6} {:>12}  {}\n", "name", "Gb/s", "GB/s", "latency (ns)", "description");
    for (const std::string& name : toml_names_in(catalogue_dirs(preset_dirs, "nics"))) {
        const NicSummary n = load_nic_summary(name, preset_dirs);
        fmt::print("  {:<10} {:>6.0f} {:>6.1f} {:>12.0f}  {}\n", name, n.line_rate_gbit, n.line_rate_gbit / 8,
                   n.latency_ns, n.description);
    }
}

void list_frameworks_table(const std::vector<std::string>& preset_dirs) {
    const std::vector<std::string> dirs = framework_dirs(preset_dirs);
    const std::vector<std::string> names = list_frameworks(dirs);
    if (names.empty()) {
        fmt::print("frameworks: none defined (no presets/frameworks/*.toml)\n");
        return;
    }
    fmt::print("frameworks (presets/frameworks; --framework NAME):\n");
    for (const std::string& name : names)
        fmt::print("  {:<16} {}\n", name, load_framework(name, dirs).description);
}

}  // namespace

void setup_list_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                        const std::vector<std::string>& model_dirs) {
    auto what = std::make_shared<std::string>("all");
    CLI::App* cmd = app.add_subcommand("list", "List the models, presets, GPUs, NICs and frameworks dtcalc can find");
    cmd->add_option("WHAT", *what, "models | presets | gpus | nics | frameworks | all (default all)");
    cmd->callback([what, &preset_dirs, &model_dirs] {
        const std::string& w = *what;
        if (w != "all" && w != "models" && w != "presets" && w != "gpus" && w != "nics" && w != "frameworks")
            throw InputError({"WHAT", 0, 0, ""},
                             "expected models, presets, gpus, nics, frameworks or all, got '" + w + "'");
        const bool all = w == "all";
        if (all || w == "models") list_models_table(model_dirs);
        if (all) fmt::print("\n");
        if (all || w == "presets") list_presets_table(preset_dirs);
        if (all) fmt::print("\n");
        if (all || w == "gpus") list_gpus_table(preset_dirs);
        if (all) fmt::print("\n");
        if (all || w == "nics") list_nics_table(preset_dirs);
        if (all) fmt::print("\n");
        if (all || w == "frameworks") list_frameworks_table(preset_dirs);
    });
}

}  // namespace dtcalc::cli
