#include "sweep/sweep.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>

#include "core/error.h"
#include "sweep/sweep_plot.h"

namespace dtcalc {
namespace {

RankedPoint record_of(std::uint64_t point, int case_index, const PointOutcome& o) {
    RankedPoint r;
    r.point = point;
    r.case_index = case_index;
    r.runs = o.runs();
    r.fits = r.runs && o.result.feasible;
    r.memory_known = o.result.memory_limit_bytes > 0;
    r.iteration_ns = o.result.iteration_ns;
    r.tokens_per_s = o.result.tokens_per_s;
    r.tokens_per_s_per_gpu = o.result.tokens_per_s_per_gpu;
    r.mfu = o.result.mfu;
    r.memory_bytes = o.result.memory.breakdown.total();
    r.memory_limit_bytes = o.result.memory_limit_bytes;
    r.cost_per_mtok = o.cost_per_mtok;
    return r;
}

RowField field_of(const ParamInfo& p, const ParamValue* v) {
    return {std::string(p.name), v ? format_param_value(p, *v) : std::string(), p.type == ParamType::Text};
}

// Each target (a model and system as loaded) takes a few kilobytes and a file
// read, all up front: a bound keeps a sweep from loading without end.
constexpr std::uint64_t kMaxTargets = 100'000;

// Loads the target of every combination of a case's base parameters.
void load_targets(const SpaceCase& c, PointEvaluator& evaluator) {
    std::vector<std::size_t> base_axes;
    std::uint64_t targets = 1;
    for (std::size_t a = 0; a < c.axes.size(); ++a) {
        const SweepAxis& axis = c.axes[a];
        if (!changes_base(*axis.param)) continue;
        base_axes.push_back(a);
        if (targets > kMaxTargets / axis.values.size())
            throw InputError(axis.where, "the sweep would load more than 100000 models and systems (one per combination "
                                         "of the values of the parameters that change them); narrow the ranges");
        targets *= axis.values.size();
    }
    std::vector<std::size_t> index(base_axes.size(), 0);
    std::vector<Assigned> values(base_axes.size());
    while (true) {
        for (std::size_t k = 0; k < base_axes.size(); ++k) {
            const SweepAxis& axis = c.axes[base_axes[k]];
            values[k] = {axis.param, &axis.values[index[k]], &axis.where};
        }
        evaluator.load_target(values);
        std::size_t k = base_axes.size();
        while (k > 0) {
            --k;
            if (++index[k] < c.axes[base_axes[k]].values.size()) break;
            index[k] = 0;
            if (k == 0) return;
        }
        if (base_axes.empty()) return;
    }
}

std::string gib(double bytes) { return fmt::format("{:.2f}", bytes / 1073741824.0); }

}  // namespace

bool shown_by_predict_columns(const ParamInfo& p) {
    static constexpr std::string_view shown[] = {"model", "preset", "network", "system", "dp",  "tp",
                                                 "pp",    "cp",     "ep",      "vpp",    "mbs", "gbs",
                                                 "seq",   "sequence_parallel", "schedule", "recompute", "zero", "precision"};
    return std::find(std::begin(shown), std::end(shown), p.name) != std::end(shown);
}

std::pair<int, int> parse_shard(std::string_view text) {
    const std::size_t slash = text.find('/');
    int i = 0, n = 0;
    try {
        if (slash != std::string_view::npos) {
            std::size_t used = 0;
            const std::string a(text.substr(0, slash)), b(text.substr(slash + 1));
            i = std::stoi(a, &used);
            if (used != a.size()) i = 0;
            n = std::stoi(b, &used);
            if (used != b.size()) n = 0;
        }
    } catch (const std::exception&) {
        i = n = 0;
    }
    if (i < 1 || n < 1 || i > n) throw InputError({"--shard", 0, 0, ""}, "expected i/n with 1 <= i <= n (like 2/8), got '" + std::string(text) + "'");
    return {i, n};
}

Sweep::Sweep(SweepSpec spec, std::vector<std::string> preset_dirs, std::vector<std::string> model_dirs)
    : spec_(std::move(spec)), space_(spec_), evaluator_(spec_, std::move(preset_dirs), std::move(model_dirs)) {
    for (const SpaceCase& c : space_.cases()) load_targets(c, evaluator_);
}

SweepReport Sweep::run(const SweepSettings& settings, const std::function<void(std::string_view)>& write,
                       const std::function<void(std::uint64_t, std::uint64_t)>& progress) const {
    const auto started = std::chrono::steady_clock::now();
    SweepReport report;
    const std::uint64_t n = space_.size();
    const auto shard_count = static_cast<std::uint64_t>(settings.shard_count);
    const auto shard = static_cast<std::uint64_t>(settings.shard_index);
    report.first_point = n / shard_count * (shard - 1) + n % shard_count * (shard - 1) / shard_count;
    report.end_point = n / shard_count * shard + n % shard_count * shard / shard_count;
    report.threads = effective_threads(settings.threads);
    report.feasible_only = settings.feasible_only;

    // Columns: the point's number and case; the parameters predict's columns do
    // not show (CSV) or every parameter (JSON).
    const bool named_cases = space_.has_named_cases();
    std::vector<const ParamInfo*> group_params;
    for (const ParamInfo* p : space_.named())
        if (settings.format == SweepFormat::JsonLines || !shown_by_predict_columns(*p)) group_params.push_back(p);
    SweepRowWriter writer(settings.format, "parameters", {}, settings.comm_by_group, settings.unit);
    if (settings.shard_index == 1 && settings.format == SweepFormat::Csv) {
        std::vector<std::string> ids{"point"}, names;
        if (named_cases) ids.emplace_back("case");
        for (const ParamInfo* p : group_params) names.emplace_back(p->name);
        write(writer.header(ids, names));
    }

    struct Worker {
        PointEvaluator::Scratch scratch;
        PointOutcome outcome;
        std::vector<Assigned> values;
        std::vector<RowField> ids, group;
        RowScratch rows;
    };
    std::vector<Worker> workers(static_cast<std::size_t>(report.threads));
    for (Worker& w : workers) w.scratch.replay.comm_by_group = settings.comm_by_group;
    const ItemFunction item = [&](std::uint64_t point, int w, std::string& out, RankedPoint& record) {
        Worker& k = workers[static_cast<std::size_t>(w)];
        space_.assignment(point, k.values);
        const int case_index = space_.locate(point).case_index;
        const int target = evaluator_.find_target(k.values);
        evaluator_.evaluate(k.values, target, k.scratch, k.outcome);
        record = record_of(point, case_index, k.outcome);
        if (settings.feasible_only && !record.fits) return true;
        k.ids.clear();
        k.ids.push_back({"point", std::to_string(point), false});
        if (named_cases) k.ids.push_back({"case", space_.cases()[static_cast<std::size_t>(case_index)].name, true});
        k.group.clear();
        for (const ParamInfo* p : group_params) {
            const auto found = std::find_if(k.values.begin(), k.values.end(), [&](const Assigned& a) { return a.param == p; });
            k.group.push_back(field_of(*p, found == k.values.end() ? nullptr : found->value));
        }
        writer.write(out, k.ids, k.group, k.outcome, k.rows);
        return true;
    };
    const std::uint64_t total = report.end_point - report.first_point;
    OrderedRun run = run_in_order(report.first_point, report.end_point, report.threads, item, write,
                                  [&](std::uint64_t done) {
                                      if (progress) progress(done, total);
                                  });
    report.records = std::move(run.records);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
}

std::string Sweep::describe_point(const RankedPoint& p) const {
    std::vector<Assigned> values;
    space_.assignment(p.point, values);
    std::string s;
    for (const ParamInfo* param : space_.varying())
        for (const Assigned& a : values)
            if (a.param == param) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", param->name, format_param_value(*param, *a.value));
    return s.empty() ? std::string("the only point") : s;
}

std::string Sweep::plot_svg(const SweepReport& report) const {
    std::vector<XyChart> charts;
    for (std::size_t c = 0; c < space_.cases().size(); ++c) {
        std::vector<RankedPoint> mine;
        for (const RankedPoint& p : report.records)
            if (p.case_index == static_cast<int>(c)) mine.push_back(p);
        if (mine.empty()) continue;
        std::string title = fmt::format("Sweep: {} point{}, iteration time against peak memory", mine.size(),
                                        mine.size() == 1 ? "" : "s");
        if (space_.has_named_cases()) title = space_.cases()[c].name + ": " + title;
        charts.push_back(sweep_case_chart(mine, spec_.objective, [&](const RankedPoint& p) { return describe_point(p); }, title));
    }
    return sweep_plot_svg(charts);
}

void Sweep::write_summary(std::ostream& out, const SweepReport& report, TimeUnit unit) const {
    const std::uint64_t n = report.records.size();
    const double rate = report.seconds > 0 ? static_cast<double>(n) / report.seconds : 0;
    fmt::print(out, "dtcalc sweep: {} point{} evaluated in {:.3f} s ({:.0f} points/s, {} thread{})", n, n == 1 ? "" : "s",
               report.seconds, rate, report.threads, report.threads == 1 ? "" : "s");
    if (report.end_point - report.first_point != space_.size())
        fmt::print(out, ", points {}..{} of {}", report.first_point, report.end_point - 1, space_.size());
    out << "\n";

    const std::vector<const ParamInfo*> shown = space_.varying();
    const std::string u(time_unit_name(unit));
    auto describe = [&](const RankedPoint& p) { return describe_point(p); };
    auto table = [&](const std::vector<RankedPoint>& rows) {
        std::vector<std::string> header{"point"};
        for (const ParamInfo* p : shown) header.emplace_back(p->name);
        header.insert(header.end(), {"iteration (" + u + ")", "tokens/s", "memory (GiB)", "fits"});
        std::vector<std::vector<std::string>> cells{header};
        for (const RankedPoint& p : rows) {
            std::vector<Assigned> values;
            space_.assignment(p.point, values);
            std::vector<std::string> row{std::to_string(p.point)};
            for (const ParamInfo* param : shown) {
                std::string cell = "-";
                for (const Assigned& a : values)
                    if (a.param == param) cell = format_param_value(*param, *a.value);
                row.push_back(cell);
            }
            row.push_back(fmt::format("{:.3f}", nanoseconds_to(unit, p.iteration_ns)));
            row.push_back(fmt::format("{:.0f}", p.tokens_per_s));
            row.push_back(gib(p.memory_bytes));
            row.push_back(!p.fits ? "no" : p.memory_known ? "yes" : "unknown");
            cells.push_back(std::move(row));
        }
        std::vector<std::size_t> width(header.size(), 0);
        for (const auto& row : cells)
            for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
        for (const auto& row : cells) {
            out << "   ";
            for (std::size_t c = 0; c < row.size(); ++c) out << fmt::format(" {:>{}}", row[c], width[c]);
            out << "\n";
        }
    };

    for (std::size_t c = 0; c < space_.cases().size(); ++c) {
        std::vector<RankedPoint> mine;
        for (const RankedPoint& p : report.records)
            if (p.case_index == static_cast<int>(c)) mine.push_back(p);
        if (mine.empty()) continue;
        const Ranking r = rank_points(mine, spec_.objective, spec_.top, report.feasible_only);
        const std::string title = space_.has_named_cases() ? space_.cases()[c].name + ": " : "";
        fmt::print(out, "{}{} points: {} cannot run or are not allowed, {} run, {} of them fit in memory{}\n", title,
                   r.points, r.points - r.runs, r.runs, r.fits - r.fits_unchecked,
                   r.fits_unchecked == 0 ? std::string()
                                         : fmt::format(", {} unchecked (the system states no memory capacity: give "
                                                       "memory_limit)",
                                                       r.fits_unchecked));
        if (r.best.empty()) {
            if (report.feasible_only && r.runs > 0) out << "  no point fits in memory\n";
            continue;
        }
        fmt::print(out, "  best {} by {} ({}):\n", r.best.size(), sweep_objective_name(spec_.objective),
                   report.feasible_only ? "of the points that fit, --feasible-only" : "memory not limited");
        table(r.best);
        if (r.best_fitting)
            fmt::print(out, "  best that fits in memory: point {} ({}): {:.3f} {}, {} GiB{}\n", r.best_fitting->point,
                       describe(*r.best_fitting), nanoseconds_to(unit, r.best_fitting->iteration_ns), u,
                       gib(r.best_fitting->memory_bytes),
                       r.best_fitting->memory_known ? "" : " (memory not checked)");
        else
            out << "  no point fits in memory\n";
        fmt::print(out, "  Pareto front of iteration time and peak memory ({} point{}):\n", r.pareto.size(),
                   r.pareto.size() == 1 ? "" : "s");
        table(r.pareto);
    }
    for (const std::string& note : evaluator_.efficiency_notes()) fmt::print(out, "note: {}\n", note);
}

}  // namespace dtcalc
