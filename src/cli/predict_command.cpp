#include "cli/predict_command.h"

#include <fstream>
#include <iostream>
#include <memory>

#include "cli/cli_common.h"
#include "predict/predict_options.h"
#include "config/config_readers.h"
#include "core/error.h"
#include "report/chrome_trace.h"
#include "report/iteration_report.h"
#include "report/predict_report.h"

namespace dtcalc::cli {
namespace {

struct PredictCommand {
    PredictOptions options;
    std::string scenario;
    std::string units = "us", format = "table", layers_csv, trace_json;
    CLI::App* app = nullptr;
};

void run_predict(PredictCommand& c, const std::vector<std::string>& preset_dirs, const std::vector<std::string>& model_dirs) {
    PredictOptions options = c.options;
    if (!c.scenario.empty()) {
        // The scenario first, then every flag given on the command line over it.
        PredictOptions from_file;
        apply_scenario(read_toml_file(c.scenario), from_file);
        auto given = [&](const char* flag) { return c.app->count(flag) > 0; };
        if (!given("--model")) options.model = from_file.model;
        if (!given("--preset")) options.preset = from_file.preset;
        if (!given("--backend")) options.backend = from_file.backend;
        if (!given("--nodes")) options.nodes = from_file.nodes;
        if (!given("--gpus-per-node")) options.gpus_per_node = from_file.gpus_per_node;
        if (!given("--dp")) options.dp = from_file.dp;
        if (!given("--tp")) options.tp = from_file.tp;
        if (!given("--pp")) options.pp = from_file.pp;
        if (!given("--cp")) options.cp = from_file.cp;
        if (!given("--ep")) options.ep = from_file.ep;
        if (!given("--vpp")) options.vpp = from_file.vpp;
        if (!given("--mbs")) options.mbs = from_file.mbs;
        if (!given("--zero")) options.zero = from_file.zero;
        if (!given("--gbs")) options.gbs = from_file.gbs;
        if (!given("--seq")) options.seq = from_file.seq;
        if (!given("--sequence-parallel")) options.sequence_parallel = from_file.sequence_parallel;
        if (!given("--tp-comm-overlap")) options.tp_comm_overlap = from_file.tp_comm_overlap;
        if (!given("--schedule")) options.schedule = from_file.schedule;
        if (!given("--recompute")) options.recompute = from_file.recompute;
        if (!given("--precision")) options.precision = from_file.precision;
        if (!given("--order")) options.order = from_file.order;
        if (!given("--memory-limit")) options.memory_limit = from_file.memory_limit;
    }
    const TimeUnit unit = parse_units_flag(c.units);
    const OutputFormat format = parse_output_format(c.format);
    const ResolvedPrediction resolved = resolve_prediction(options, preset_dirs, model_dirs);
    check_plan(resolved.inputs);
    const PredictResult result = predict(resolved.inputs);
    const PredictLabels labels{resolved.model_label, resolved.system_label, resolved.backend_label};
    if (!c.layers_csv.empty() || !c.trace_json.empty()) {
        if (!c.trace_json.empty()) {
            std::ofstream out(c.trace_json);
            if (!out) throw InputError({"--trace", 0, 0, ""}, "cannot write '" + c.trace_json + "'");
            write_chrome_trace(out, result.step.graph, result.schedule);
        }
        if (!c.layers_csv.empty()) {
            std::ofstream out(c.layers_csv);
            if (!out) throw InputError({"--layers", 0, 0, ""}, "cannot write '" + c.layers_csv + "'");
            write_layers_csv(out, predict_iteration_report(result), unit);
        }
    }
    switch (format) {
        case OutputFormat::Table: write_predict_table(std::cout, resolved.inputs, result, labels, unit); break;
        case OutputFormat::Json: write_predict_json(std::cout, resolved.inputs, result, labels); break;
        case OutputFormat::Csv:
            write_predict_csv_header(std::cout);
            write_predict_csv_row(std::cout, resolved.inputs, result, labels);
            break;
    }
}

}  // namespace

void setup_predict_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                           const std::vector<std::string>& model_dirs) {
    auto c = std::make_shared<PredictCommand>();
    CLI::App* cmd = app.add_subcommand("predict", "Predict one training iteration: time, throughput, MFU, memory");
    c->app = cmd;
    PredictOptions& o = c->options;
    cmd->add_option("--scenario", c->scenario, "A scenario TOML holding these options (flags override it)");
    cmd->add_option("--model,-m", o.model, "Model name (see `dtcalc list`) or a .toml path");
    cmd->add_option("--preset,-p", o.preset, "System preset: a name or a .toml path");
    cmd->add_option("--network", o.network_file, "ASTRA-sim network YAML (with --system)");
    cmd->add_option("--system", o.system_file, "ASTRA-sim system JSON (with --network)");
    cmd->add_option("--backend", o.backend, "Network model (default: the preset's)");
    cmd->add_option("--nodes", o.nodes, "Nodes (the outermost network dimension)");
    cmd->add_option("--gpus-per-node", o.gpus_per_node, "GPUs per node (the innermost dimension)");
    cmd->add_option("--dp", o.dp, "Data parallel (default: NPUs / (tp x pp x cp))");
    cmd->add_option("--tp", o.tp, "Tensor parallel");
    cmd->add_option("--pp", o.pp, "Pipeline parallel");
    cmd->add_option("--cp", o.cp, "Context parallel");
    cmd->add_option("--ep", o.ep, "Expert parallel (within dp)");
    cmd->add_flag("--sequence-parallel,--sp", o.sequence_parallel, "Megatron sequence parallelism (with tp)");
    cmd->add_flag("--tp-comm-overlap", o.tp_comm_overlap, "Hide tensor-parallel collectives behind the GEMMs");
    cmd->add_option("--vpp", o.vpp, "Virtual pipeline stages per rank (interleaved schedule)");
    cmd->add_option("--schedule", o.schedule, "gpipe | 1f1b | interleaved (default 1f1b)");
    cmd->add_option("--mbs", o.mbs, "Micro-batch size (sequences)");
    cmd->add_option("--gbs", o.gbs, "Global batch size (sequences; default dp x mbs)");
    cmd->add_option("--seq", o.seq, "Sequence length (default: the model's)");
    cmd->add_option("--recompute", o.recompute, "none | selective | full");
    cmd->add_option("--zero", o.zero, "ZeRO stage 0-3 (3 = FSDP)");
    cmd->add_option("--precision", o.precision, "bf16 | fp8");
    cmd->add_option("--order", o.order, "Axes innermost first (default tp,cp,ep,dp,pp)");
    cmd->add_option("--memory-limit", o.memory_limit, "Memory per GPU (default: the device's capacity)");
    cmd->add_option("--units", c->units, "us | ns | ms | s | cycles (default us)");
    cmd->add_option("--format", c->format, "table | csv | json (default table)");
    cmd->add_option("--layers", c->layers_csv, "Write per-stage rows to this CSV");
    cmd->add_option("--trace", c->trace_json, "Write a Chrome trace-event JSON timeline (Perfetto)");
    cmd->callback([c, &preset_dirs, &model_dirs] { run_predict(*c, preset_dirs, model_dirs); });
}

}  // namespace dtcalc::cli
