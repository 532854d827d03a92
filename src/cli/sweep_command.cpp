#include "cli/sweep_command.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "cli/cli_common.h"
#include "cli/option_flags.h"
#include "cli/progress_bar.h"
#include "config/config_readers.h"
#include "core/error.h"
#include "report/svg_chart.h"
#include "sweep/batch_sweep.h"
#include "sweep/sweep.h"

namespace dtcalc::cli {
namespace {

struct SweepCommand {
    std::string spec_file, input_file, output_file, plot;
    std::map<std::string, std::vector<std::string>> parameters;  ///< flag values by parameter name
    std::optional<long long> npus;
    std::vector<std::string> rules;
    std::string objective;
    std::optional<int> top;
    std::optional<long long> max_points;
    std::string format = "csv", units = "us", shard = "1/1";
    int threads = 0;
    bool comm_by_group = false;
    bool feasible_only = false, keep_going = false, quiet = false, no_progress = false;
    CLI::App* app = nullptr;
};

SweepSpec read_spec(const SweepCommand& c) {
    SweepSpec spec;
    if (!c.spec_file.empty()) {
        const std::filesystem::path path(c.spec_file);
        const ConfigValue root = path.extension() == ".json" ? read_json_file(c.spec_file) : read_toml_file(c.spec_file);
        spec = read_sweep_spec(root, path.parent_path().string());
    }
    for (const ParamInfo& p : sweep_parameters()) {  // flags in the parameters' own order
        const auto given = c.parameters.find(std::string(p.name));
        if (given == c.parameters.end() || given->second.empty()) continue;
        const std::string& name = given->first;
        const std::vector<std::string>& texts = given->second;
        const InputLocation where{option_flag(name), 0, 0, ""};
        std::vector<ParamValue> values;
        for (const std::string& t : texts) {
            std::vector<ParamValue> more = expand_value_text(p, t, where);
            for (const ParamValue& v : more) check_text_value(p, v, where);
            values.insert(values.end(), more.begin(), more.end());
        }
        spec.set(p, std::move(values), where);
    }
    if (c.npus) {
        spec.npus = *c.npus;
        spec.npus_where = {"--npus", 0, 0, ""};
    }
    for (const std::string& r : c.rules) spec.rules.push_back(ConstraintRule::parse(r, {"--rule", 0, 0, ""}));
    if (!c.objective.empty()) {
        const auto o = parse_sweep_objective(c.objective);
        if (!o)
            throw InputError({"--objective", 0, 0, ""},
                             "expected time, tokens_per_s, tokens_per_s_per_gpu, mfu, memory or cost, got '" + c.objective + "'");
        spec.objective = *o;
    }
    if (c.top) {
        if (*c.top < 1) throw InputError({"--top", 0, 0, ""}, "expected a positive count, got " + std::to_string(*c.top));
        spec.top = *c.top;
    }
    return spec;
}

// Where rows go: a file or stdout, failing loudly when the disk is full.
class RowOutput {
public:
    explicit RowOutput(const std::string& path) : path_(path) {
        if (path.empty() || path == "-") {
            file_ = stdout;
        } else {
            file_ = std::fopen(path.c_str(), "wb");
            if (!file_) throw InputError({"--output", 0, 0, ""}, "cannot write '" + path + "'");
            owned_ = true;
        }
    }
    ~RowOutput() {
        if (owned_) std::fclose(file_);
    }
    RowOutput(const RowOutput&) = delete;
    RowOutput& operator=(const RowOutput&) = delete;
    void write(std::string_view text) {
        if (!text.empty() && std::fwrite(text.data(), 1, text.size(), file_) != text.size()) fail();
    }
    void finish() {
        if (std::fflush(file_) != 0) fail();
    }

private:
    [[noreturn]] void fail() const {
        throw InputError({path_.empty() ? "stdout" : path_, 0, 0, ""}, "writing the rows failed (disk full?)");
    }
    std::string path_;
    std::FILE* file_ = nullptr;
    bool owned_ = false;
};

void run_sweep(SweepCommand& c, const std::vector<std::string>& preset_dirs, const std::vector<std::string>& model_dirs) {
    SweepSettings settings;
    settings.threads = c.threads;
    check_threads_flag(c.threads);
    std::tie(settings.shard_index, settings.shard_count) = parse_shard(c.shard);
    if (c.max_points && *c.max_points < 1)
        throw InputError({"--max-points", 0, 0, ""}, "expected 1 or more, got " + std::to_string(*c.max_points));
    settings.feasible_only = c.feasible_only;
    settings.comm_by_group = c.comm_by_group;
    const auto format = parse_sweep_format(c.format);
    if (!format) throw InputError({"--format", 0, 0, ""}, "expected csv or jsonl, got '" + c.format + "'");
    settings.format = *format;
    const TimeUnit unit = parse_units_flag(c.units);
    settings.unit = unit;
    if (!c.input_file.empty() && settings.shard_count > 1)
        throw InputError({"--shard", 0, 0, ""}, "shards split a sweep's points; split the rows of --input instead");
    SweepSpec spec = read_spec(c);
    if (!c.plot.empty() && !std::ofstream(c.plot))  // before the sweep runs, not after
        throw InputError({"--plot", 0, 0, ""}, "cannot write '" + c.plot + "'");

    ProgressBar bar(!c.quiet && !c.no_progress, "points");
    auto progress = [&](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
    if (!c.input_file.empty()) {
        // Without --keep-going a bad row stops the batch before any row is
        // written: the message says how to get the others.
        auto make_batch = [&] {
            try {
                return BatchSweep(std::move(spec), read_text_file(c.input_file), c.input_file, preset_dirs, model_dirs,
                                  c.keep_going);
            } catch (const InputError& e) {
                if (c.keep_going || e.where().file != c.input_file || e.where().line < 2) throw;
                throw InputError(e.where(), e.detail() + " (nothing written; --keep-going writes the other rows and this "
                                                         "one with its reason)");
            }
        };
        BatchSweep batch = make_batch();
        for (const std::string& bad : batch.bad_rows()) std::cerr << "dtcalc: error: " << bad << "\n";
        RowOutput out(c.output_file);
        const BatchReport report = batch.run(settings, [&](std::string_view s) { out.write(s); }, progress);
        out.finish();
        bar.clear();
        if (!c.plot.empty()) write_svg_file(c.plot, batch.plot_svg(report), "--plot");
        if (!c.quiet) batch.write_summary(std::cerr, report, unit);
        if (!report.bad_rows.empty())
            throw InputError({c.input_file, 0, 0, ""}, std::to_string(report.bad_rows.size()) + " row" +
                                                           (report.bad_rows.size() == 1 ? "" : "s") +
                                                           " could not be read (reported above; written with their reason)");
        return;
    }
    const Sweep sweep(std::move(spec), preset_dirs, model_dirs);
    if (c.max_points && sweep.space().size() > static_cast<std::uint64_t>(*c.max_points))
        throw InputError({"--max-points", 0, 0, ""}, "the sweep has " + std::to_string(sweep.space().size()) +
                                                         " points, more than the " + std::to_string(*c.max_points) +
                                                         " allowed (narrow the ranges or raise --max-points)");
    RowOutput out(c.output_file);
    const SweepReport report = sweep.run(settings, [&](std::string_view s) { out.write(s); }, progress);
    out.finish();
    bar.clear();
    if (!c.plot.empty()) write_svg_file(c.plot, sweep.plot_svg(report), "--plot");
    if (!c.quiet) sweep.write_summary(std::cerr, report, unit);
}

}  // namespace

void setup_sweep_command(CLI::App& app, const std::vector<std::string>& preset_dirs,
                         const std::vector<std::string>& model_dirs) {
    auto c = std::make_shared<SweepCommand>();
    CLI::App* cmd = app.add_subcommand(
        "sweep",
        "Explore a design space: one row per point (CSV or JSON lines), then the best points on stderr.\n"
        "Parameters take a value, a list (1,2,4) or a range (1..64 doubling, 8..64+8, 0.5..4*2);\n"
        "flags override the spec file.");
    c->app = cmd;
    cmd->add_option("SPEC", c->spec_file, "A sweep spec (TOML or JSON): parameters, [constraints], objective, top, [[case]]");
    cmd->add_option("--input", c->input_file, "Batch mode: a CSV file, one configuration per row (columns named like the flags)");
    cmd->add_flag("--keep-going", c->keep_going, "Batch mode: report a bad row and go on with the others (exit code 2 at the end)");
    for (const ParamInfo& p : sweep_parameters()) {
        const std::string name(p.name);
        cmd->add_option(option_flags(p), c->parameters[name], option_help(p))
            ->expected(1)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
            ->group("Parameters");
    }
    cmd->add_option("--npus", c->npus, "Constraint: keep points with dp x tp x pp x cp = N (dp defaults to N / (tp x pp x cp))")
        ->group("Constraints and ranking");
    cmd->add_option("--rule", c->rules, "Constraint: an expression every point must meet, like 'tp <= 8' (repeatable)")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->group("Constraints and ranking");
    cmd->add_option("--objective", c->objective, "time | tokens_per_s | tokens_per_s_per_gpu | mfu | memory | cost (default time)")
        ->group("Constraints and ranking");
    cmd->add_option("--top", c->top, "How many best points the summary lists (default 5)")->group("Constraints and ranking");
    cmd->add_option("--max-points", c->max_points, "Refuse (exit 2) a sweep of more points than this instead of running it")
        ->group("Constraints and ranking");
    cmd->add_option("--output,-o", c->output_file, "Write the rows to this file (default stdout)");
    cmd->add_option("--format", c->format, "csv | jsonl (default csv)");
    cmd->add_option("--plot", c->plot, "Write an SVG: iteration time against peak memory, the Pareto front and the best point");
    cmd->add_flag("--feasible-only", c->feasible_only, "Leave out the rows of points that cannot run or do not fit in memory");
    cmd->add_flag("--comm-by-group", c->comm_by_group,
                  "Also write communication and exposed time by group (tp, cp, ep, dp, pp): about half again the time per point");
    cmd->add_option("--threads,-j", c->threads, "Worker threads (default 0: every core); the output is the same for any count");
    cmd->add_option("--shard", c->shard, "Evaluate shard i of n (like 3/8): the shards' outputs concatenate into the whole");
    cmd->add_option("--units", c->units, "Times in the CSV rows (their columns named for it) and the summary: us | ns | ms | s | cycles (default us)");
    cmd->add_flag("--quiet,-q", c->quiet, "No summary and no progress bar on stderr");
    cmd->add_flag("--no-progress", c->no_progress, "No progress bar");
    cmd->callback([c, &preset_dirs, &model_dirs] { run_sweep(*c, preset_dirs, model_dirs); });
}

}  // namespace dtcalc::cli
