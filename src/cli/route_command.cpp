#include "cli/route_command.h"

#include <iostream>
#include <memory>

#include "config/network_config.h"
#include "config/preset.h"
#include "core/error.h"
#include "topology/network_route.h"
#include "topology/route_report.h"

namespace dtcalc::cli {
namespace {

struct RouteOptions {
    std::string src;
    std::string dst;
    std::string network_file;
    std::string preset;
    std::string format = "table";
};

std::int64_t parse_npu(const std::string& text, const std::string& name) {
    std::size_t used = 0;
    long long value = -1;
    try {
        value = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || value < 0)
        throw InputError({name, 0, 0, ""}, "expected an NPU id (0, 1, 2, ...), got '" + text + "'");
    return value;
}

void run_route(const RouteOptions& options, const std::vector<std::string>& preset_dirs) {
    if (options.format != "table" && options.format != "json")
        throw InputError({"--format", 0, 0, ""}, "expected table or json, got '" + options.format + "'");
    if (!options.preset.empty() && !options.network_file.empty())
        throw InputError({"--preset", 0, 0, ""}, "give either --preset or --network, not both");
    Network network;
    if (!options.network_file.empty())
        network = load_astra_network_yaml(options.network_file);
    else if (!options.preset.empty())
        network = load_preset(options.preset, preset_dirs).system.network;
    else
        throw InputError({"--network", 0, 0, ""}, "missing: give --network FILE (a network YAML) or --preset NAME");
    const NetworkRoute route =
        route_in_network(network, parse_npu(options.src, "SRC"), parse_npu(options.dst, "DST"), "SRC", "DST");
    if (options.format == "json")
        write_route_json(std::cout, route);
    else
        write_route_table(std::cout, network, route);
}

}  // namespace

void setup_route_command(CLI::App& app, const std::vector<std::string>& preset_dirs) {
    auto options = std::make_shared<RouteOptions>();
    CLI::App* command = app.add_subcommand("route", "Route one message through a network (XY routing on a mesh)");
    command->add_option("SRC", options->src, "Source NPU id")->required();
    command->add_option("DST", options->dst, "Destination NPU id")->required();
    command->add_option("--network", options->network_file, "ASTRA-sim network YAML");
    command->add_option("--preset,-p", options->preset, "System preset: a name (see `dtcalc list`) or a .toml path");
    command->add_option("--format", options->format, "table | json (default table)");
    command->callback([options, &preset_dirs] { run_route(*options, preset_dirs); });
}

}  // namespace dtcalc::cli
