#include "cli/preset_command.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/cli_common.h"
#include "config/config_readers.h"
#include "config/preset.h"
#include "config/toml_writer.h"
#include "core/error.h"
#include "network/cluster_shape.h"

namespace dtcalc::cli {
namespace {

struct PresetOptions {
    std::string name;  ///< a preset name or path (or empty with --gpu)
    SystemOptions system;
    std::string write;
    std::string rename;
};

ConfigValue* field(ConfigValue& table, std::string_view key) {
    for (auto& [k, v] : table.fields)
        if (k == key) return &v;
    return nullptr;
}

void run_preset(const PresetOptions& o, const std::vector<std::string>& preset_dirs) {
    if (!o.system.network_file.empty() || !o.system.system_file.empty())
        throw InputError({"--network", 0, 0, ""}, "writes presets and clusters from the catalogue only; ASTRA-sim's "
                                                   "files are already the network and system");
    if (!o.name.empty() && !o.system.preset.empty())
        throw InputError({"--preset", 0, 0, ""}, "give the preset once (NAME or --preset)");
    SystemSource source = o.system;
    if (!o.name.empty()) source.preset = o.name;
    if (source.preset.empty() && source.gpu.empty())
        throw InputError({"NAME", 0, 0, ""}, "missing: give a preset NAME, or a cluster (--gpu and its flags)");
    if (!source.gpu.empty() && !source.preset.empty())
        throw InputError({"--gpu", 0, 0, ""}, "give either a preset or a cluster from the catalogue, not both");

    Preset preset;
    if (!source.gpu.empty()) {
        preset = compose_preset(cluster_request(source), preset_dirs);
    } else {
        preset = load_preset(source.preset, preset_dirs);
        if (!source.backend.empty()) {
            if (!parse_network_backend(source.backend))
                throw InputError({"--backend", 0, 0, ""},
                                 "expected astra-unaware, astra-aware or nccl, got '" + source.backend + "'");
            field(preset.tree, "backend")->text = source.backend;
        }
        if (source.nodes || source.gpus_per_node) {
            // Reshape as every command does, and state the shape in the file.
            const Network shaped = shape_cluster(preset.system.network, source.nodes, source.gpus_per_node,
                                                  preset.system.node_gpus());
            ConfigValue& counts = *field(*field(preset.tree, "network"), "npus_count");
            for (std::size_t i = 0; i < counts.items.size() && i < shaped.dimensions.size(); ++i)
                counts.items[i].number = shaped.dimensions[i].npus;
        }
    }
    ConfigValue tree = preset.tree;
    std::string name = o.rename;
    if (name.empty() && !o.write.empty()) name = std::filesystem::path(o.write).stem().string();
    if (!name.empty()) field(tree, "name")->text = name;
    // The written text must read back as this system: check before writing.
    const std::string text =
        write_toml(tree, {"A dtcalc preset: every table stated, to edit. Keys, units and defaults:",
                          "docs/file-formats.md. Use it with --preset PATH."});
    preset_from_config(parse_toml_text(text, o.write.empty() ? "(the preset text)" : o.write), o.write);
    if (o.write.empty()) {
        std::cout << text;
        return;
    }
    std::ofstream out(o.write, std::ios::binary);
    if (!out) throw InputError({"--write", 0, 0, ""}, "cannot write '" + o.write + "'");
    out << text;
    out.close();
    if (!out) throw InputError({"--write", 0, 0, ""}, "cannot write '" + o.write + "'");
    fmt::print("wrote {}: preset {}, {} NPUs, backend {}\n", o.write, field(tree, "name")->text,
               preset.system.network.total_npus(), network_backend_name(parse_network_backend(field(tree, "backend")->text).value()));
}

}  // namespace

void setup_preset_command(CLI::App& app, const std::vector<std::string>& preset_dirs) {
    auto o = std::make_shared<PresetOptions>();
    CLI::App* cmd = app.add_subcommand(
        "preset", "Write a preset, or a cluster from the catalogue (--gpu ...), as a preset file to edit");
    cmd->add_option("NAME", o->name, "A preset name or .toml path (or give --gpu and the cluster's flags)");
    add_system_options(*cmd, o->system);
    cmd->add_option("--write,-o", o->write, "The file to write (default: print the preset on stdout)");
    cmd->add_option("--name", o->rename, "The written preset's name (default: the file's stem)");
    cmd->callback([o, &preset_dirs] { run_preset(*o, preset_dirs); });
}

}  // namespace dtcalc::cli
