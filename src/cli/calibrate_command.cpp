#include "cli/calibrate_command.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "calibrate/calibration.h"
#include "calibrate/calibration_report.h"
#include "calibrate/preset_writer.h"
#include "cli/cli_common.h"
#include "cli/progress_bar.h"
#include "config/config_readers.h"
#include "config/named_file.h"
#include "config/preset.h"
#include "config/system_source.h"
#include "config/toml_writer.h"
#include "core/error.h"
#include "validate/nccl_inputs.h"

namespace dtcalc::cli {
namespace {

struct CalibrateOptions {
    std::vector<std::string> inputs;
    std::string preset;
    std::optional<int> nodes, gpus_per_node;
    std::vector<std::string> fit, check;
    std::string format = "table";
    std::string write;
    std::string date;
    bool no_leave_one_out = false;
    int threads = 0;
    std::string leave_out = "group";
    bool no_progress = false;
    bool skip_failed_runs = false;
    std::string algo, proto;       // NCCL_ALGO / NCCL_PROTO the runs were made with
    std::vector<std::string> env;  // their other NCCL settings, VARIABLE=VALUE
};

// The NCCL settings the runs were made with, as given, for the report.
std::vector<std::string> stated_settings(const CalibrateOptions& options) {
    std::vector<std::string> out;
    if (!options.algo.empty()) out.push_back("NCCL_ALGO=" + options.algo);
    if (!options.proto.empty()) out.push_back("NCCL_PROTO=" + options.proto);
    out.insert(out.end(), options.env.begin(), options.env.end());
    return out;
}

// Today (UTC) as YYYY-MM-DD.
std::string today() {
    const auto days = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
    const std::chrono::year_month_day ymd{days};
    return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                       static_cast<unsigned>(ymd.day()));
}

std::string checked_date(const std::string& date) {
    const bool shaped = date.size() == 10 && date[4] == '-' && date[7] == '-' &&
                        std::all_of(date.begin(), date.end(), [](char c) { return c == '-' || (c >= '0' && c <= '9'); });
    if (shaped) {
        const std::chrono::year_month_day ymd{std::chrono::year{std::stoi(date.substr(0, 4))},
                                              std::chrono::month{static_cast<unsigned>(std::stoi(date.substr(5, 2)))},
                                              std::chrono::day{static_cast<unsigned>(std::stoi(date.substr(8, 2)))}};
        if (ymd.ok()) return date;
    }
    throw InputError({"--date", 0, 0, ""}, "expected a date YYYY-MM-DD, got '" + date + "'");
}

void run_calibrate(const CalibrateOptions& options, const std::vector<std::string>& preset_dirs,
                   const std::vector<std::string>& model_dirs) {
    const OutputFormat format = parse_output_format(options.format);
    if (format == OutputFormat::Csv) throw InputError({"--format", 0, 0, ""}, "expected table or json, got 'csv'");
    if (options.leave_out != "group" && options.leave_out != "shape")
        throw InputError({"--leave-out", 0, 0, ""}, "expected group or shape, got '" + options.leave_out + "'");
    check_threads_flag(options.threads);
    const std::string date = options.date.empty() ? today() : checked_date(options.date);
    const std::string preset_path = find_named_toml(options.preset, preset_dirs, "preset", "preset");
    std::string preset_text = read_text_file(preset_path);
    ConfigValue root = parse_toml_text(preset_text, preset_path);
    if (root.find("gpu")) {
        // Composed of the hardware catalogue: calibrate (and write) its expanded form, every table stated.
        const Preset composed = load_preset(preset_path, preset_dirs);
        preset_text = write_toml(composed.tree, {composed.name + ": composed of the hardware catalogue, written out in full"});
        root = parse_toml_text(preset_text, preset_path);
    }
    const Preset preset = preset_from_config(root, preset_path);
    if (preset.calibration.empty())
        throw InputError({"--preset", 0, 0, ""},
                         preset.name + " marks no constant as calibrated: it has no [calibration] table of \"key\" = [low, high]");
    const std::vector<std::string> settings = stated_settings(options);
    const NcclForce nccl_force = nccl_run_settings(preset.system, options.algo, options.proto, options.env,
                                                   {"--algo", 0, 0, ""}, {"--proto", 0, 0, ""}, {"--env", 0, 0, ""});

    MeasuredInputs inputs =
        read_measured_inputs(options.inputs, {options.nodes, options.gpus_per_node}, preset_path, options.skip_failed_runs);
    if (inputs.collectives.empty() && !settings.empty())
        throw InputError({!options.algo.empty() ? "--algo" : !options.proto.empty() ? "--proto" : "--env", 0, 0, ""},
                         "applies to nccl-tests rows, and the inputs hold none (training cases state theirs in "
                         "columns nccl_algo, nccl_proto, nccl_env)");
    // Runs where one thread drove several GPUs: one note, naming the first file.
    std::set<std::string> driven_files;
    const NcclMeasurement* first_driven = nullptr;
    for (const NcclMeasurement& row : inputs.collectives) {
        if (row.gpus_per_thread <= 1) continue;
        if (!first_driven) first_driven = &row;
        driven_files.insert(row.where.file);
    }
    std::vector<std::string> notes;
    if (first_driven)
        notes.push_back(
            first_driven->where.file +
            (driven_files.size() > 1 ? fmt::format(" (and {} other file{})", driven_files.size() - 1,
                                                   driven_files.size() > 2 ? "s" : "")
                                     : "") +
            ": " +
            nccl_thread_launch_note(first_driven->gpus_per_thread) +
            "; fit on runs with one process per GPU (mpirun -np G ... -g 1), or leave their rows below 1 MiB out");
    if (!inputs.discarded.empty())
        notes.push_back(inputs.discarded.front().where.file + ": " + nccl_discarded_note(static_cast<int>(inputs.discarded.size())));
    for (const NcclTestsRunFailed& failed : inputs.failed_runs) notes.push_back(failed_run_note(failed));
    const WarningsAtEnd say_notes(std::move(notes), "note");
    CalibrationData rows{std::move(inputs.collectives), std::move(inputs.training)};
    CalibrationOptions calibration;
    calibration.preset_dirs = preset_dirs;
    calibration.model_dirs = model_dirs;
    calibration.nccl_force = nccl_force;
    calibration.fit_groups = options.fit;
    calibration.check_groups = options.check;
    calibration.leave_one_group_out = !options.no_leave_one_out;
    calibration.threads = options.threads;
    calibration.hold_out = options.leave_out == "shape" ? HoldOut::Shape : HoldOut::Group;
    ProgressBar bar(!options.no_progress, "out-of-sample refits");
    calibration.progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
    const CalibrationResult result = calibrate_preset(root, preset_path, rows, calibration);
    bar.clear();

    CalibrationHeader header{preset.name, options.inputs, options.write, settings};
    if (!options.write.empty()) {
        std::string data;
        for (const std::string& input : options.inputs) data += (data.empty() ? "" : ", ") + input;
        std::size_t fitted_groups = 0;
        for (const GroupFit& g : result.groups) fitted_groups += g.role == GroupRole::Fit ? 1 : 0;
        data += fmt::format(" ({} rows in {} fitted groups)", result.rows_used, fitted_groups);
        for (std::size_t i = 0; i < settings.size(); ++i) data += (i ? " " : ", run with ") + settings[i];
        const ConfigValue* name = root.find("name");
        PresetNote note{std::filesystem::path(options.write).stem().string(), data, date, preset.name};
        const std::string text =
            calibrated_preset_text(preset_text, name ? name->where.line : 0, preset.calibration, result.constants, note);
        // Check that what is written reads back as a preset before writing it.
        preset_from_config(parse_toml_text(text, options.write), options.write);
        std::ofstream file(options.write, std::ios::binary);
        file << text;
        file.close();
        if (!file) throw InputError({"--write", 0, 0, ""}, "cannot write " + options.write);
    }
    if (format == OutputFormat::Json) write_calibration_json(std::cout, header, result);
    else write_calibration_table(std::cout, header, result);
}

}  // namespace

void setup_calibrate_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                             const std::vector<std::string>& model_dirs) {
    auto options = std::make_shared<CalibrateOptions>();
    CLI::App* command = app.add_subcommand(
        "calibrate",
        "Fit a preset's calibrated constants to measured nccl-tests output and training runs; report the error in and "
        "out of sample");
    command->add_option("inputs", options->inputs,
                        "nccl-tests output files (as printed, or its -J JSON), folders of them, dataset CSVs "
                        "(validation/nccl/ format), or training cases (validation/training/cases.csv format)")
        ->required();
    command->add_option("--preset,-p", options->preset, "The preset to fit (a name or a .toml path)")->required();
    command->add_option("--nodes", options->nodes, "Nodes, for nccl-tests logs without rank lines");
    command->add_option("--gpus-per-node", options->gpus_per_node, "GPUs per node, for logs without rank lines");
    command->add_option("--fit", options->fit, "Fit on these groups only (patterns, '*' any run; comma-separated)")
        ->delimiter(',');
    command->add_option("--check", options->check, "Hold these groups out and report their error (comma-separated)")
        ->delimiter(',');
    command->add_option("--format", options->format, "table | json (default table)");
    command->add_option("--write,-o", options->write, "Write the fitted preset here (a .toml file)");
    command->add_option("--date", options->date, "The date the written preset names (default today, UTC)");
    command->add_flag("--no-leave-one-out", options->no_leave_one_out,
                      "Skip the out-of-sample refits (one fit per fitted group or shape)");
    command->add_option("--threads,-j", options->threads,
                        "Threads for the out-of-sample refits (default 0: every core); the result is the same "
                        "for any count");
    command->add_flag("--no-progress", options->no_progress, "No progress bar on stderr");
    command->add_flag("--skip-failed-runs", options->skip_failed_runs,
                      "Read past nccl-tests runs that failed (nccl-tests reported it, or the log stops "
                      "mid-run): the rows each printed before it failed are read, the rest left out, and each run "
                      "is named in a note on stderr, instead of stopping at the first");
    command->add_option("--algo", options->algo,
                        "NCCL_ALGO the runs were made with, where their output does not say (NCCL_DEBUG=INFO "
                        "prints it), in its syntax (ring, ^nvls, allreduce:tree)");
    command->add_option("--proto", options->proto,
                        "NCCL_PROTO the runs were made with, where their output does not say (LL, LL128, Simple, "
                        "^LL128)");
    command->add_option("--env", options->env,
                        "Another NCCL setting the runs were made with, as VARIABLE=VALUE (repeat for more: "
                        "NCCL_MAX_CTAS=8, NCCL_NCHANNELS_PER_NET_PEER=2, ...: those collective --env takes)")
        ->allow_extra_args(false);  // one value per --env: the inputs that follow stay inputs
    command->add_option("--leave-out", options->leave_out,
                        "What each out-of-sample refit leaves out: group (default) or shape (every group of one "
                        "GPUs x nodes shape)");
    command->callback([options, &preset_dirs, &model_dirs] { run_calibrate(*options, preset_dirs, model_dirs); });
}

}  // namespace dtcalc::cli
