#include "cli/predict_command.h"

#include <fstream>
#include <iostream>
#include <memory>

#include "cli/cli_common.h"
#include "cli/option_flags.h"
#include "predict/predict_options.h"
#include "config/config_readers.h"
#include "core/error.h"
#include "report/chrome_trace.h"
#include "report/iteration_report.h"
#include "report/predict_plot.h"
#include "report/predict_report.h"
#include "report/svg_chart.h"
#include "sweep/step_replay.h"

namespace dtcalc::cli {
namespace {

struct PredictCommand {
    OptionFlags flags;
    std::string scenario;
    std::string units = "us", format = "table", layers_csv, trace_json, plot_svg;
};

void run_predict(PredictCommand& c, const std::vector<std::string>& preset_dirs, const std::vector<std::string>& model_dirs) {
    // The scenario first, then every flag given on the command line over it.
    PredictOptions options;
    ConfigValue scenario;
    if (!c.scenario.empty()) {
        scenario = read_toml_file(c.scenario);
        apply_scenario(scenario, options);
    }
    c.flags.apply(options);
    auto resolve = [&] {
        try {
            return resolve_prediction(options, preset_dirs, model_dirs);
        } catch (const OptionError& e) {
            // An option the scenario gave and no flag overrode: its key and line.
            const OptionDecl* option = find_option(e.option());
            if (option && !c.flags.given(*option) && scenario.type == ConfigValue::Type::Table)
                if (const ConfigValue* v = scenario.find(option->name)) throw OptionError(e, v->where);
            throw;
        }
    };
    const TimeUnit unit = parse_units_flag(c.units);
    const OutputFormat format = parse_output_format(c.format);
    const ResolvedPrediction resolved = resolve();
    const WarningsAtEnd warnings(resolved.warnings);
    check_plan(resolved.inputs);
    // The graph only where its timeline or per-layer rows are written; the
    // numbers are the same either way (tests/sweep_replay_test.cpp).
    const bool graph = !c.layers_csv.empty() || !c.trace_json.empty();
    const PredictResult result = graph ? predict(resolved.inputs) : predict_numbers(resolved.inputs);
    const PredictLabels labels = predict_labels(resolved);
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
    if (!c.plot_svg.empty()) write_svg_file(c.plot_svg, predict_plot_svg(resolved.inputs, result, labels), "--plot");
    switch (format) {
        case OutputFormat::Table: write_predict_table(std::cout, resolved.inputs, result, labels, unit); break;
        case OutputFormat::Json: write_predict_json(std::cout, resolved.inputs, result, labels); break;
        case OutputFormat::Csv:
            write_predict_csv_header(std::cout, unit);
            write_predict_csv_row(std::cout, resolved.inputs, result, labels, unit);
            break;
    }
}

}  // namespace

void setup_predict_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                           const std::vector<std::string>& model_dirs) {
    auto c = std::make_shared<PredictCommand>();
    CLI::App* cmd = app.add_subcommand("predict", "Predict one training iteration: time, throughput, MFU, memory");
    cmd->add_option("--scenario", c->scenario, "A scenario TOML holding these options (flags override it)");
    c->flags.add(*cmd);
    cmd->add_option("--units", c->units, "us | ns | ms | s | cycles (default us)");
    cmd->add_option("--format", c->format, "table | csv | json (default table)");
    cmd->add_option("--layers", c->layers_csv, "Write per-stage rows to this CSV");
    cmd->add_option("--trace", c->trace_json, "Write a Chrome trace-event JSON timeline (Perfetto)");
    cmd->add_option("--plot", c->plot_svg, "Write an SVG: the iteration as a stacked bar, memory against the limit");
    cmd->callback([c, &preset_dirs, &model_dirs] { run_predict(*c, preset_dirs, model_dirs); });
}

}  // namespace dtcalc::cli
