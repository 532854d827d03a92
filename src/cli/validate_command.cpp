#include "cli/validate_command.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_common.h"
#include "cli/exit_codes.h"
#include "core/error.h"
#include "validate/svg_plot.h"
#include "validate/validation_plan.h"
#include "validate/validation_report.h"
#include "validate/validation_run.h"

namespace dtcalc::cli {
namespace {

struct ValidateOptions {
    std::string gates;
    std::string format = "table";
    std::string plot_dir;
    std::vector<std::string> datasets;
    bool verbose = false;
    std::string preset;  // for --dataset files and folders
    std::optional<int> nodes, gpus_per_node;
    std::string algo, proto;  // NCCL_ALGO / NCCL_PROTO for --dataset files and folders
    std::vector<std::string> env;  // further NCCL settings for them, VARIABLE=VALUE
    bool skip_failed_runs = false;  // for --dataset files and folders of nccl-tests output
};

// ./validation/gates.toml when run from a checkout, else the source tree's.
std::string default_gates_path() {
    std::error_code ec;
    if (std::filesystem::is_regular_file("validation/gates.toml", ec)) return "validation/gates.toml";
    return std::string(DTCALC_SOURCE_DIR) + "/validation/gates.toml";
}

void run_validate(const ValidateOptions& options, const std::vector<std::string>& preset_dirs,
                  const std::vector<std::string>& model_dirs) {
    const OutputFormat format = parse_output_format(options.format);
    // A --dataset that exists on disk is measurements to read (nccl-tests
    // output or a dataset CSV, a file or a folder), predicted on --preset.
    std::vector<std::string> paths;
    bool named = options.datasets.empty();
    for (const std::string& d : options.datasets) {
        std::error_code ec;
        if (std::filesystem::exists(d, ec)) paths.push_back(d);
        else named = true;
    }
    if (!paths.empty() && options.preset.empty())
        throw InputError({"--preset", 0, 0, ""}, "needed to predict the measurements in " + paths.front() +
                                                     " (a preset name or a .toml path)");
    if (paths.empty() && !options.preset.empty())
        throw InputError({"--preset", 0, 0, ""},
                         "only for --dataset files and folders; the gates file names each dataset's preset");
    if (paths.empty() && (options.nodes || options.gpus_per_node))
        throw InputError({options.nodes ? "--nodes" : "--gpus-per-node", 0, 0, ""},
                         "only for --dataset files and folders of nccl-tests output");
    if (paths.empty() && options.skip_failed_runs)
        throw InputError({"--skip-failed-runs", 0, 0, ""},
                         "only for --dataset files and folders of nccl-tests output; the gates file's datasets are "
                         "read whole");
    if (paths.empty() && (!options.algo.empty() || !options.proto.empty()))
        throw InputError({options.algo.empty() ? "--proto" : "--algo", 0, 0, ""},
                         "only for --dataset files and folders; the gates file sets each dataset's algorithm and "
                         "protocol");
    if (paths.empty() && !options.env.empty())
        throw InputError({"--env", 0, 0, ""},
                         "only for --dataset files and folders; the gates file's datasets are predicted as their runs state");
    ValidationPlan plan;
    if (named) plan = load_validation_plan(options.gates.empty() ? default_gates_path() : options.gates);
    else plan.path = "the command line";
    for (const std::string& path : paths) {
        DatasetSpec spec;
        spec.name = path;
        spec.kind = "nccl-tests";
        spec.file = path;
        spec.preset = options.preset;
        spec.shape = {options.nodes, options.gpus_per_node};
        spec.where = {"--dataset", 0, 0, ""};
        spec.algorithm = options.algo;
        spec.protocol = options.proto;
        spec.algorithm_where = {"--algo", 0, 0, ""};
        spec.protocol_where = {"--proto", 0, 0, ""};
        spec.env = options.env;
        spec.env_where = {"--env", 0, 0, ""};
        spec.skip_failed_runs = options.skip_failed_runs;
        plan.datasets.push_back(std::move(spec));
    }
    const ValidationReport report = run_validation(plan, {preset_dirs, model_dirs}, options.datasets);
    const WarningsAtEnd say_notes(report.notes, "note");
    switch (format) {
        case OutputFormat::Table: write_validation_table(std::cout, report, options.verbose); break;
        case OutputFormat::Csv: write_validation_csv(std::cout, report); break;
        case OutputFormat::Json: write_validation_json(std::cout, report); break;
    }
    if (!options.plot_dir.empty()) {
        const std::vector<std::string> written = write_group_plots(report, options.plot_dir);
        std::cerr << "wrote " << written.size() << " plots to " << options.plot_dir << "\n";
    }
    std::cout.flush();
    if (!report.passed()) throw ExitStatus{1};
}

}  // namespace

void setup_validate_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                            const std::vector<std::string>& model_dirs) {
    auto options = std::make_shared<ValidateOptions>();
    CLI::App* command = app.add_subcommand(
        "validate", "Compare predictions with measured data; exit 1 when an error bound is exceeded");
    command->add_option("--gates", options->gates,
                        "Datasets and error bounds (default: validation/gates.toml here, else the source tree's)");
    command->add_option("--format", options->format, "table | csv | json (default table)");
    command->add_option("--plot", options->plot_dir, "Write one SVG per group (measured and predicted vs size) here");
    command->add_flag("--verbose,-v", options->verbose,
                      "List every case (predicted vs measured) after the summary; --format csv|json lists them too");
    command->add_option("--dataset", options->datasets,
                        "Run only this dataset (repeatable); a file or folder of nccl-tests output (as printed, or "
                        "its -J JSON) or dataset CSVs is read and predicted on --preset");
    command->add_option("--preset", options->preset, "The system to predict --dataset files and folders on");
    command->add_option("--nodes", options->nodes, "Nodes, for nccl-tests logs without rank lines");
    command->add_option("--gpus-per-node", options->gpus_per_node,
                        "GPUs per node, for nccl-tests logs without rank lines");
    command->add_option("--algo", options->algo,
                        "NCCL_ALGO the --dataset runs were made with, in its syntax (ring, ^nvls, allreduce:tree); "
                        "a log's NCCL_DEBUG=INFO lines say it themselves");
    command->add_option("--proto", options->proto,
                        "NCCL_PROTO the --dataset runs were made with, in its syntax (LL128, ^LL, allreduce:Simple)");
    command->add_option("--env", options->env,
                        "Another NCCL setting the --dataset runs were made with, VARIABLE=VALUE (repeat for more; "
                        "NCCL_MAX_CTAS=8, NCCL_NCHANNELS_PER_NET_PEER=2, ...: those collective --env takes); a "
                        "log's NCCL_DEBUG=INFO lines say it themselves")
        ->allow_extra_args(false);
    command->add_flag("--skip-failed-runs", options->skip_failed_runs,
                      "Read past nccl-tests --dataset runs that failed (nccl-tests reported it, or the log stops "
                      "mid-run): the rows each printed before it failed are read, the rest left out, and each run "
                      "is named in a note on stderr, instead of stopping at the first");
    command->callback([options, &preset_dirs, &model_dirs] { run_validate(*options, preset_dirs, model_dirs); });
}

}  // namespace dtcalc::cli
