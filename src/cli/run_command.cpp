#include "cli/run_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/cli_common.h"
#include "core/error.h"
#include "report/chrome_trace.h"
#include "report/iteration_report.h"
#include "schedule/evaluate.h"
#include "workload/astra_v1_workload.h"

namespace dtcalc::cli {
namespace {

struct RunOptions {
    std::string workload;
    SystemOptions system;
    int passes = 1;
    std::string units = "us";
    std::string format = "table";
    std::string layers_csv;
    std::string trace_json;
};

std::ofstream open_output(const std::string& path, const std::string& flag) {
    std::ofstream out(path);
    if (!out) throw InputError({flag, 0, 0, ""}, "cannot write '" + path + "'");
    return out;
}

void run_workload(const RunOptions& options, const std::vector<std::string>& preset_dirs) {
    const TimeUnit unit = parse_units_flag(options.units);
    const OutputFormat format = parse_output_format(options.format);
    if (options.passes < 1 || options.passes > 1000000)
        throw InputError({"--passes", 0, 0, ""}, "expected 1 to 1000000, got " + std::to_string(options.passes));
    const ResolvedSystem sys = resolve_system(options.system, preset_dirs);
    const WarningsAtEnd warnings(sys.warnings);
    const V1Workload workload = parse_v1_workload(options.workload);
    check_layer_passes(options.passes, workload.layers.size());
    const WorkloadGraph graph = build_v1_training_graph(workload, sys.system.network, options.passes);

    const EvaluationSystem eval = roofline_evaluation(sys.system);
    const Schedule schedule = evaluate(graph, eval);

    IterationReport report = make_iteration_report(graph, schedule, options.passes);
    report.workload = std::filesystem::path(options.workload).filename().string();
    report.system_label = sys.label;
    report.backend = std::string(network_backend_name(sys.system.backend));

    if (!options.layers_csv.empty()) {
        std::ofstream out = open_output(options.layers_csv, "--layers");
        write_layers_csv(out, report, unit);
    }
    if (!options.trace_json.empty()) {
        std::ofstream out = open_output(options.trace_json, "--trace");
        write_chrome_trace(out, graph, schedule);
    }
    switch (format) {
        case OutputFormat::Table: write_iteration_table(std::cout, report, unit); break;
        case OutputFormat::Csv: write_iteration_csv(std::cout, report, unit); break;
        case OutputFormat::Json: write_iteration_json(std::cout, report); break;
    }
}

}  // namespace

void setup_run_command(CLI::App& app, const std::vector<std::string>& preset_dirs) {
    auto options = std::make_shared<RunOptions>();
    CLI::App* command = app.add_subcommand("run", "Evaluate an ASTRA-sim 1.0 text workload (training loop)");
    command->add_option("WORKLOAD", options->workload, "Workload file (ASTRA-sim 1.0 text format)")->required();
    add_system_options(*command, options->system);
    command->add_option("--passes", options->passes, "Training passes (default 1)");
    command->add_option("--units", options->units, "us | ns | ms | s | cycles (default us)");
    command->add_option("--format", options->format, "table | csv | json (default table)");
    command->add_option("--layers", options->layers_csv, "Write per-layer rows (EndToEnd.csv columns) to this CSV");
    command->add_option("--trace", options->trace_json, "Write a Chrome trace-event JSON timeline (Perfetto)");
    command->callback([options, &preset_dirs] { run_workload(*options, preset_dirs); });
}

}  // namespace dtcalc::cli
