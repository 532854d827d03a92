#include "cli/collective_command.h"

#include <iostream>
#include <memory>

#include "cli/cli_common.h"
#include "collective/collective_cost.h"
#include "core/error.h"
#include "report/collective_report.h"

namespace dtcalc::cli {
namespace {

struct CollectiveOptions {
    std::string kind;
    std::string size;
    long long npus = 0;
    SystemOptions system;
    std::string units = "us";
    std::string format = "table";
    bool phases = false;
};

void run_collective(const CollectiveOptions& options, const std::vector<std::string>& preset_dirs) {
    const auto kind = parse_collective_kind(options.kind);
    if (!kind)
        throw InputError({"KIND", 0, 0, ""}, "expected all-reduce, reduce-scatter, all-gather, all-to-all or "
                                             "send-recv, got '" + options.kind + "'");
    const auto sizes = parse_byte_size_range(options.size);
    if (!sizes)
        throw InputError({"--size", 0, 0, ""}, "expected a size like 1048576, 1MiB or 4KB, or a range like "
                                               "1KiB:1GiB, got '" + options.size + "'");
    const TimeUnit unit = parse_units_flag(options.units);
    const OutputFormat format = parse_output_format(options.format);
    const ResolvedSystem sys = resolve_system(options.system, preset_dirs);

    CollectiveQuery query;
    query.kind = *kind;
    query.group = options.npus > 0 ? first_npus_group(sys.network, options.npus, "--npus")
                                   : whole_network_group(sys.network);

    std::vector<CollectiveRow> rows;
    for (std::uint64_t size : *sizes) {
        query.bytes = size;
        rows.push_back({*kind, size, query.group.size(), sys.backend,
                        collective_time(sys.network, sys.system, sys.backend, query)});
    }
    switch (format) {
        case OutputFormat::Table:
            write_collective_table(std::cout, {sys.label}, rows, unit, options.phases || rows.size() == 1);
            break;
        case OutputFormat::Csv: write_collective_csv(std::cout, rows, unit); break;
        case OutputFormat::Json: write_collective_json(std::cout, rows); break;
    }
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
    add_system_options(*command, options->system);
    command->add_option("--units", options->units, "us | ns | ms | s | cycles (default us)");
    command->add_option("--format", options->format, "table | csv | json (default table)");
    command->add_flag("--phases", options->phases, "Show the per-phase breakdown for every size");
    command->callback([options, &preset_dirs] { run_collective(*options, preset_dirs); });
}

}  // namespace dtcalc::cli
