#include "sweep/batch_sweep.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>

#include "core/error.h"
#include "sweep/sweep_plot.h"
#include "core/text_formats.h"

namespace dtcalc {

BatchSweep::BatchSweep(SweepSpec spec, const std::string& csv_text, const std::string& source,
                       std::vector<std::string> preset_dirs, std::vector<std::string> model_dirs, bool keep_going)
    : spec_(std::move(spec)), evaluator_(spec_, std::move(preset_dirs), std::move(model_dirs)), source_(source) {
    if (!spec_.cases.empty()) throw InputError({source, 0, 0, "case"}, "batch mode takes no [[case]] tables: each row is a case");
    for (const SweepAxis& a : spec_.parameters)
        if (a.values.size() != 1) {
            // The location names the parameter (its flag or key) when there is one.
            const bool located = !a.where.file.empty() || !a.where.key.empty();
            throw InputError(a.where, (located ? std::string() : std::string(a.param->name) + ": ") +
                                          "batch mode takes one value per parameter (the rows vary them), got " +
                                          std::to_string(a.values.size()));
        }
    CsvDocument table = parse_csv_document(csv_text, source);
    header_ = std::move(table.header);
    for (std::size_t c = 0; c < header_.size(); ++c) {
        std::string name = header_[c];
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        if (!name.empty() && name[0] == '#') {
            columns_.push_back(nullptr);
            continue;
        }
        std::string key = name;
        std::replace(key.begin(), key.end(), '-', '_');
        const ParamInfo* p = find_parameter(key);
        if (!p)
            throw InputError({source, 1, 0, ""}, "column " + std::to_string(c + 1) + " '" + name + "': unknown parameter" +
                                                     parameter_suggestion(key) + " (columns starting with '#' are carried through)");
        if (std::find(columns_.begin(), columns_.end(), p) != columns_.end())
            throw InputError({source, 1, 0, ""}, "column '" + name + "' appears twice");
        columns_.push_back(p);
    }

    rows_.reserve(table.rows.size());
    for (CsvDocumentRow& record : table.rows) {
        Row row;
        row.line = record.line;
        row.cells = std::move(record.fields);
        try {
            if (row.cells.size() != header_.size())
                throw InputError({source, row.line, 0, ""}, "the row has " + std::to_string(row.cells.size()) + " field" +
                                                                (row.cells.size() == 1 ? "" : "s") + ", the header " +
                                                                std::to_string(header_.size()) + " (a column is missing or extra)");
            row.values.resize(header_.size());
            for (std::size_t c = 0; c < header_.size(); ++c) {
                if (!columns_[c] || row.cells[c].empty()) continue;
                std::string expected;
                const auto v = parse_param_value(*columns_[c], row.cells[c], expected);
                if (!v)
                    throw InputError({source, row.line, 0, std::string(columns_[c]->name)},
                                     "expected " + expected + ", got '" + row.cells[c] + "'");
                row.values[c] = *v;
                check_text_value(*columns_[c], row.values[c], {source, row.line, 0, std::string(columns_[c]->name)});
            }
        } catch (const InputError& e) {
            if (!keep_going) throw;
            row.error = e.what();
            bad_.push_back(row.error);
        }
        rows_.push_back(std::move(row));
    }
    // Pointers into rows_ only once it no longer moves.
    for (Row& row : rows_) {
        if (!row.error.empty()) continue;
        for (const SweepAxis& a : spec_.parameters) {
            const bool overridden = [&] {
                for (std::size_t c = 0; c < header_.size(); ++c)
                    if (columns_[c] == a.param && !row.cells[c].empty()) return true;
                return false;
            }();
            if (!overridden) row.assigned.push_back({a.param, &a.values.front()});
        }
        for (std::size_t c = 0; c < header_.size(); ++c)
            if (columns_[c] && !row.cells[c].empty()) row.assigned.push_back({columns_[c], &row.values[c]});
        try {
            row.target = evaluator_.load_target(row.assigned);
        } catch (const InputError& e) {
            const std::string message = fmt::format("{}:{}: {}", source, row.line, e.what());
            if (!keep_going) throw InputError({source, row.line, 0, ""}, e.what());
            row.error = message;
            bad_.push_back(message);
        }
    }
}

std::string BatchSweep::describe(const Row& row) const {
    std::string s;
    for (std::size_t c = 0; c < header_.size(); ++c)
        if (columns_[c] && c < row.cells.size() && !row.cells[c].empty())
            s += fmt::format("{}{} {}", s.empty() ? "" : ", ", columns_[c]->name, row.cells[c]);
    return s;
}

BatchReport BatchSweep::run(const SweepSettings& settings, const std::function<void(std::string_view)>& write,
                            const std::function<void(std::uint64_t, std::uint64_t)>& progress) const {
    const auto started = std::chrono::steady_clock::now();
    BatchReport report;
    report.bad_rows = bad_;
    report.threads = effective_threads(settings.threads);
    report.feasible_only = settings.feasible_only;
    std::vector<std::string> dropped;
    for (const std::string& h : header_) dropped.push_back(h);
    SweepRowWriter writer(settings.format, "input", dropped, settings.comm_by_group, settings.unit);
    if (settings.format == SweepFormat::Csv) {
        std::string line;
        for (std::size_t c = 0; c < header_.size(); ++c) line += (c ? "," : "") + csv_field(header_[c]);
        const std::string rest = writer.header({}, {});
        line += (header_.empty() || rest.empty() ? "" : ",") + rest;
        write(line);
    }
    struct Worker {
        PointEvaluator::Scratch scratch;
        PointOutcome outcome;
        std::vector<RowField> ids, group;
        RowScratch rows;
    };
    std::vector<Worker> workers(static_cast<std::size_t>(report.threads));
    for (Worker& w : workers) w.scratch.replay.comm_by_group = settings.comm_by_group;
    const ItemFunction item = [&](std::uint64_t index, int w, std::string& out, RankedPoint& record) {
        Worker& k = workers[static_cast<std::size_t>(w)];
        const Row& row = rows_[static_cast<std::size_t>(index)];
        k.ids.clear();
        if (settings.format == SweepFormat::JsonLines) k.ids.push_back({"line", std::to_string(row.line), false});
        k.group.clear();
        for (std::size_t c = 0; c < header_.size(); ++c) {
            const bool text = !columns_[c] || columns_[c]->type == ParamType::Text || !row.error.empty();
            k.group.push_back({header_[c], c < row.cells.size() ? row.cells[c] : std::string(), text});
        }
        if (!row.error.empty()) {
            if (!settings.feasible_only) writer.write_error(out, k.ids, k.group, row.error);
            return false;
        }
        evaluator_.evaluate(row.assigned, row.target, k.scratch, k.outcome);
        record.point = index;
        record.runs = k.outcome.runs();
        record.fits = record.runs && k.outcome.result.feasible;
        record.memory_known = k.outcome.result.memory_limit_bytes > 0;
        record.iteration_ns = k.outcome.result.iteration_ns;
        record.tokens_per_s = k.outcome.result.tokens_per_s;
        record.tokens_per_s_per_gpu = k.outcome.result.tokens_per_s_per_gpu;
        record.mfu = k.outcome.result.mfu;
        record.memory_bytes = k.outcome.result.memory.breakdown.total();
        record.memory_limit_bytes = k.outcome.result.memory_limit_bytes;
        record.cost_per_mtok = k.outcome.cost_per_mtok;
        if (!settings.feasible_only || record.fits) writer.write(out, k.ids, k.group, k.outcome, k.rows);
        return true;
    };
    const std::uint64_t total = rows_.size();
    OrderedRun run = run_in_order(0, total, report.threads, item, write, [&](std::uint64_t done) {
        if (progress) progress(done, total);
    });
    report.records = std::move(run.records);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
}

std::string BatchSweep::plot_svg(const BatchReport& report) const {
    const std::string title = fmt::format("{}: {} row{}, iteration time against peak memory", source_,
                                          report.records.size(), report.records.size() == 1 ? "" : "s");
    auto label = [&](const RankedPoint& p) {
        const Row& row = rows_[static_cast<std::size_t>(p.point)];
        return fmt::format("line {}: {}", row.line, describe(row));
    };
    return sweep_plot_svg({sweep_case_chart(report.records, spec_.objective, label, title)});
}

void BatchSweep::write_summary(std::ostream& out, const BatchReport& report, TimeUnit unit) const {
    const std::size_t n = rows_.size();
    const double rate = report.seconds > 0 ? static_cast<double>(n) / report.seconds : 0;
    fmt::print(out, "dtcalc sweep: {} row{} of {} in {:.3f} s ({:.0f} rows/s, {} thread{})", n, n == 1 ? "" : "s", source_,
               report.seconds, rate, report.threads, report.threads == 1 ? "" : "s");
    if (!report.bad_rows.empty()) fmt::print(out, ", {} could not be read", report.bad_rows.size());
    out << "\n";
    const Ranking r = rank_points(report.records, spec_.objective, spec_.top, report.feasible_only);
    fmt::print(out, "{} row(s) evaluated: {} cannot run or are not allowed, {} run, {} of them fit in memory{}\n", r.points,
               r.points - r.runs, r.runs, r.fits - r.fits_unchecked,
               r.fits_unchecked == 0 ? std::string()
                                     : fmt::format(", {} unchecked (the system states no memory capacity: give memory_limit)",
                                                   r.fits_unchecked));
    const std::string u(time_unit_name(unit));
    auto line = [&](const RankedPoint& p) {
        const Row& row = rows_[static_cast<std::size_t>(p.point)];
        fmt::print(out, "    line {:>5}: {:.3f} {}, {:.0f} tokens/s, {:.2f} GiB{}  ({})\n", row.line,
                   nanoseconds_to(unit, p.iteration_ns), u, p.tokens_per_s, p.memory_bytes / 1073741824.0,
                   !p.fits ? ", does not fit" : p.memory_known ? "" : ", memory capacity unknown", describe(row));
    };
    for (const std::string& note : evaluator_.efficiency_notes()) fmt::print(out, "note: {}\n", note);
    if (r.best.empty()) {
        if (report.feasible_only && r.runs > 0) out << "  no row fits in memory\n";
        return;
    }
    fmt::print(out, "  best {} by {} ({}):\n", r.best.size(), sweep_objective_name(spec_.objective),
               report.feasible_only ? "of the rows that fit, --feasible-only" : "memory not limited");
    for (const RankedPoint& p : r.best) line(p);
    if (r.best_fitting) {
        out << "  best that fits in memory:\n";
        line(*r.best_fitting);
    } else {
        out << "  no row fits in memory\n";
    }
    fmt::print(out, "  Pareto front of iteration time and peak memory ({} row{}):\n", r.pareto.size(), r.pareto.size() == 1 ? "" : "s");
    for (const RankedPoint& p : r.pareto) line(p);
}

}  // namespace dtcalc
