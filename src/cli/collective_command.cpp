#include "cli/collective_command.h"

#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_common.h"
#include "collective/collective_cost.h"
#include "collective/collective_links.h"
#include "core/error.h"
#include "network/cluster_shape.h"
#include "report/collective_report.h"
#include "report/link_table.h"

namespace dtcalc::cli {
namespace {

struct CollectiveOptions {
    std::string kind;
    std::string size;
    std::optional<long long> npus;  ///< unset: the whole network (0 or less is an error, not the default)
    std::optional<long long> nodes;
    std::optional<long long> gpus_per_node;
    std::string algo;
    std::string proto;
    SystemOptions system;
    std::string units = "us";
    std::string format = "table";
    bool phases = false;
    bool links = false;
};

void run_collective(const CollectiveOptions& options, const std::vector<std::string>& preset_dirs) {
    const auto kind = parse_collective_kind(options.kind);
    if (!kind)
        throw InputError({"KIND", 0, 0, ""}, "expected all-reduce, reduce-scatter, all-gather, all-to-all or "
                                             "send-recv, got '" + options.kind + "'");
    const auto sizes = parse_byte_size_range(options.size);
    if (!sizes)
        throw InputError({"--size", 0, 0, ""}, "expected a size like 1048576, 1MiB or 4KB, or a range like "
                                               "1KiB:1GiB of at most 4096 sizes, got '" + options.size + "'");
    for (std::uint64_t size : *sizes)
        if (size > kMaxMessageBytes) throw InputError({"--size", 0, 0, ""}, byte_size_out_of_range(size));
    const TimeUnit unit = parse_units_flag(options.units);
    const OutputFormat format = parse_output_format(options.format);
    if (options.links && format != OutputFormat::Table)
        throw InputError({"--links", 0, 0, ""}, "is shown with --format table only");
    if ((options.nodes || options.gpus_per_node) && options.npus)
        throw InputError({"--npus", 0, 0, ""}, "give either --npus or --nodes/--gpus-per-node, not both");
    SystemOptions source = options.system;
    source.nodes = options.nodes;  // build a cluster from --gpu, or reshape the preset
    source.gpus_per_node = options.gpus_per_node;
    ResolvedSystem sys = resolve_system(source, preset_dirs);
    const WarningsAtEnd warnings(sys.warnings);
    // The nccl backend on constants borrowed from other hardware says so (stderr, after the result).
    std::vector<std::string> assumed;
    if (sys.backend == NetworkBackend::Nccl && sys.system.nccl)
        for (const std::string& a : sys.system.nccl->assumed) assumed.push_back("nccl backend: " + a + ", unvalidated");
    const WarningsAtEnd notes(assumed, "note");
    CollectiveQuery query;
    query.nccl = parse_nccl_force(sys, options.algo, options.proto);
    query.kind = *kind;
    query.group = options.npus ? first_npus_group(sys.network, *options.npus, "--npus")
                                   : whole_network_group(sys.network);

    std::vector<CollectiveRow> rows;
    for (std::uint64_t size : *sizes) {
        query.bytes = size;
        rows.push_back({*kind, size, query.group.size(), sys.backend,
                        collective_time(sys.network, sys.system, sys.backend, query)});
    }
    // Where congestion comes from, at the largest size; worked out before any
    // output, so that an error leaves stdout empty.
    std::vector<PhaseLinks> links;
    if (options.links && !rows.empty()) {
        query.bytes = rows.back().size_bytes;
        links = collective_links(sys.network, sys.system, sys.backend, query, rows.back().result, 5);
    }
    switch (format) {
        case OutputFormat::Table:
            write_collective_table(std::cout, {sys.label}, rows, unit, options.phases || rows.size() == 1);
            break;
        case OutputFormat::Csv: write_collective_csv(std::cout, rows, unit); break;
        case OutputFormat::Json: write_collective_json(std::cout, rows); break;
    }
    if (options.links && !rows.empty()) write_link_table(std::cout, links, unit, query.bytes);
}

}  // namespace

void setup_collective_command(CLI::App& app, const std::vector<std::string>& preset_dirs) {
    auto options = std::make_shared<CollectiveOptions>();
    CLI::App* command = app.add_subcommand("collective", "Time one collective, or a range of sizes");
    command->add_option("KIND", options->kind, "all-reduce | reduce-scatter | all-gather | all-to-all | send-recv")
        ->required();
    command->add_option("--size,-s", options->size,
                        "Bytes as nccl-tests counts them (1MiB, 4KB, 1048576) or a doubling range LO:HI")
        ->required();
    command->add_option("--npus,-n", options->npus, "Group of the first N NPUs (default: the whole network)");
    command->add_option("--nodes", options->nodes,
                        "Nodes: the outermost network dimension (with --gpus-per-node; ranks G per node)");
    command->add_option("--gpus-per-node", options->gpus_per_node, "GPUs per node: the innermost dimension");
    command->add_option("--algo", options->algo,
                        "nccl backend: force the algorithm like NCCL_ALGO (ring | tree | nvls | nvls-tree | pat)");
    command->add_option("--proto", options->proto,
                        "nccl backend: force the protocol like NCCL_PROTO (LL | LL128 | Simple)");
    add_system_options(*command, options->system, /*shape=*/false);
    command->add_option("--units", options->units, "us | ns | ms | s | cycles (default us)");
    command->add_option("--format", options->format, "table | csv | json (default table)");
    command->add_flag("--phases", options->phases, "Show the per-phase breakdown for every size");
    command->add_flag("--links", options->links,
                      "Show each phase's most loaded links on a Mesh2D/Torus (where congestion comes from)");
    command->callback([options, &preset_dirs] { run_collective(*options, preset_dirs); });
}

}  // namespace dtcalc::cli
