#include "cli/export_chakra_command.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "chakra/astra_config_files.h"
#include "chakra/graph_export.h"
#include "chakra/trace_set.h"
#include "cli/cli_common.h"
#include "core/error.h"
#include "predict/predict.h"
#include "cli/option_flags.h"
#include "predict/predict_options.h"
#include "workload/astra_v1_workload.h"

namespace dtcalc::cli {
namespace {

struct ExportCommand {
    std::string workload;  // a v1 text workload, or empty with --model
    SystemOptions system;
    OptionFlags plan;      // --model and a plan
    int passes = 1;
    std::string output;
    std::string comm_groups;
    std::string configs;
    bool no_durations = false;
};

struct ExportedWorkload {
    WorkloadGraph graph;
    System system;
};

ExportedWorkload build(const ExportCommand& c, const std::vector<std::string>& preset_dirs,
                       const std::vector<std::string>& model_dirs) {
    ExportedWorkload w;
    PredictOptions options;
    c.plan.apply(options);
    if (!c.workload.empty() && !options.model.empty())
        throw InputError({"--model", 0, 0, ""}, "give either a WORKLOAD file or --model, not both");
    if (c.workload.empty() && options.model.empty())
        throw InputError({"WORKLOAD", 0, 0, ""}, "missing: give an ASTRA-sim 1.0 text workload, or --model with a plan");
    // The system's flags, with --nodes and --gpus-per-node from the plan's.
    SystemOptions source = c.system;
    source.nodes = options.system.nodes;
    source.gpus_per_node = options.system.gpus_per_node;
    if (!c.workload.empty()) {
        if (c.passes < 1 || c.passes > 1000)
            throw InputError({"--passes", 0, 0, ""}, "expected 1 to 1000, got " + std::to_string(c.passes));
        ResolvedSystem sys = resolve_system(source, preset_dirs);
        const WarningsAtEnd warnings(sys.warnings);
        w.graph = build_v1_training_graph(parse_v1_workload(c.workload), sys.system.network, c.passes);
        w.system = std::move(sys.system);
        return w;
    }
    options.system = std::move(source);
    const ResolvedPrediction resolved = resolve_prediction(options, preset_dirs, model_dirs);
    const WarningsAtEnd warnings(resolved.warnings);
    check_plan(resolved.inputs);
    PredictResult result = predict(resolved.inputs);
    w.graph = std::move(result.step.graph);
    w.system = resolved.inputs.system;
    return w;
}

void run(const ExportCommand& c, const std::vector<std::string>& preset_dirs, const std::vector<std::string>& model_dirs) {
    if (c.output.empty()) throw InputError({"--output", 0, 0, ""}, "missing: the trace prefix to write (PREFIX.<rank>.et)");
    const ExportedWorkload w = build(c, preset_dirs, model_dirs);
    const std::string groups = c.comm_groups.empty() ? c.output + ".json" : c.comm_groups;
    chakra::ExportOptions options;
    options.dtcalc_durations = !c.no_durations;
    const chakra::ExportSummary s = chakra::export_chakra(w.graph, w.system, c.output, groups, options);
    std::string text = fmt::format("wrote {} traces ({} to {}, {} nodes, {} role{}) and {} ({} communicator group{})\n",
                                   s.npus, chakra::rank_file(c.output, 0), chakra::rank_file(c.output, s.npus - 1), s.nodes,
                                   s.roles, s.roles == 1 ? "" : "s", groups, s.comm_groups, s.comm_groups == 1 ? "" : "s");
    std::string configs_flags = "--system-configuration SYSTEM.json --network-configuration NETWORK.yml";
    if (!c.configs.empty()) {
        chakra::write_astra_configs(c.configs, w.system, s.roofline);
        text += fmt::format("wrote {0}/network.yml, {0}/system.json, {0}/remote_memory.json\n", c.configs);
        configs_flags = fmt::format(
            "--system-configuration {0}/system.json --network-configuration {0}/network.yml "
            "--remote-memory-configuration {0}/remote_memory.json",
            c.configs);
    }
    text += fmt::format("run: dtcalc astra --workload-configuration {} --comm-group-configuration {} {}\n", c.output,
                        groups, configs_flags);
    std::cout << text;
}

}  // namespace

void setup_export_chakra_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                                 const std::vector<std::string>& model_dirs) {
    auto c = std::make_shared<ExportCommand>();
    CLI::App* cmd = app.add_subcommand(
        "export-chakra", "Write a workload as Chakra traces (+ comm groups, + ASTRA-sim configs) to run in ASTRA-sim");
    cmd->add_option("WORKLOAD", c->workload, "ASTRA-sim 1.0 text workload (or give --model and a plan)");
    add_system_options(*cmd, c->system, /*shape=*/false);  // --nodes, --gpus-per-node: the plan's flags
    cmd->add_option("--passes", c->passes, "Training passes of a text workload (default 1)");
    cmd->add_option("--output,-o", c->output, "Trace prefix: writes PREFIX.<rank>.et for every NPU")->required();
    cmd->add_option("--comm-group", c->comm_groups, "Comm-group JSON to write (default PREFIX.json)");
    cmd->add_option("--configs", c->configs, "Also write network.yml, system.json, remote_memory.json here");
    cmd->add_flag("--no-dtcalc-durations", c->no_durations,
                  "Leave out dtcalc's exact op times (then `dtcalc astra` times the nodes as ASTRA-sim does)");
    // The options `predict` takes but the system's (above) and the memory limit.
    c->plan.add(*cmd, [](const OptionDecl& d) {
        return d.target == OptionTarget::Option && d.name != "system" && d.name != "preset" && d.name != "network" &&
               d.name != "backend" && d.name != "memory_limit" && d.name != "gpu" && d.name != "nic" &&
               d.name != "nics_per_node" && d.name != "nics_per_gpu" && d.name != "host_cpu";
    });
    cmd->callback([c, &preset_dirs, &model_dirs] { run(*c, preset_dirs, model_dirs); });
}

}  // namespace dtcalc::cli
