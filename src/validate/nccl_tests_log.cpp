#include "validate/nccl_tests_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <utility>

#include "config/config_readers.h"
#include "core/number_text.h"
#include "validate/log_tokens.h"
#include "validate/nccl_debug_lines.h"

namespace dtcalc {
namespace {

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct TableColumns {
    std::size_t size = 0;
    std::optional<std::size_t> count, type, redop, root;
    std::size_t time = 0;  // the first time/cputime column: out-of-place
    std::size_t needed = 0;  // fields a row must have
};

// What a run's NCCL_DEBUG output says NCCL_ALGO and NCCL_PROTO were.
struct EnvSettings {
    std::vector<NcclStatedSetting> settings;  ///< nccl_modelled_settings() the run states
    std::vector<std::string> unmodelled;  ///< "NCCL_X=value", NCCL settings dtcalc does not model
};

// A run as the text states it, and what the text parser tracks about it.
struct Run : NcclTestsRun {
    std::optional<TableColumns> columns;
    bool ended = false;     // its table closed ("# Out of bounds" / "# Avg bus bandwidth" after its rows)
    int closing_line = 0;   // the first such closing line, rows or none
    int failure_line = 0;   // nccl-tests' first report that the run failed
    std::string failure;
};

std::optional<TableColumns> table_columns(const std::vector<std::string_view>& tokens) {
    // tokens[0] is "#"; the header names are tokens[1..].
    TableColumns c;
    bool size = false, time = false;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const std::size_t at = i - 1;
        const std::string_view t = tokens[i];
        if (t == "size" && !size) { c.size = at; size = true; }
        else if (t == "count" && !c.count) c.count = at;
        else if (t == "type" && !c.type) c.type = at;
        else if (t == "redop" && !c.redop) c.redop = at;
        else if (t == "root" && !c.root) c.root = at;
        else if ((t == "time" || t == "cputime") && !time) { c.time = at; time = true; }
    }
    if (!size || !time) return std::nullopt;
    c.needed = std::max({c.size, c.time, c.count.value_or(0), c.type.value_or(0), c.redop.value_or(0),
                         c.root.value_or(0)}) + 1;
    return c;
}

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
    throw InputError({path, line, 0, ""}, what);
}

// nccl-tests' report of a failed run (its src/common.h and common.cu):
// "<host>: Test NCCL failure <file>:<line> '<error> / <last error>'", the
// same with "Test CUDA failure", then " .. <host> pid <N>: Test failure
// <file>:<line>" for each frame it unwinds.
bool reports_failed_run(std::string_view line) {
    for (std::string_view what : {": Test NCCL failure ", ": Test CUDA failure ", ": Test failure "})
        if (line.find(what) != std::string_view::npos) return true;
    return false;
}

// A whole number of at least `least` after a header field (`field`, as
// printed: "nGpus", "iters:"); `expected` names it in the error.
int header_number(std::string_view token, const char* expected, const char* field, int least,
                  const std::string& path, int line) {
    int v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (token.empty() || ec != std::errc() || end != token.data() + token.size() || v < least)
        fail(path, line, fmt::format("expected {} of at least {} after '{}', got '{}'", expected, least, field, token));
    return v;
}

// The operations nccl-tests timed back to back, from its header line ("...
// warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0"): -n, times
// the CUDA graph launches where it captured one (-G); -n's default, 20, where
// the header predates the field.
std::int64_t timed_operations(const std::vector<std::string_view>& tokens, const std::string& path, int line) {
    const auto after = [&](std::size_t i) { return i + 1 < tokens.size() ? tokens[i + 1] : std::string_view(); };
    int iterations = 20, graph_launches = 0;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        if (tokens[i] == "iters:" && tokens[i - 1] != "warmup" && tokens[i - 1] != "agg")
            iterations = header_number(after(i), "a whole number", "iters:", 1, path, line);
        else if (tokens[i] == "graph:")
            graph_launches = header_number(after(i), "a whole number", "graph:", 0, path, line);
    }
    return static_cast<std::int64_t>(iterations) * std::max(1, graph_launches);
}

NcclTestsRow parse_row(const std::vector<std::string_view>& fields, const TableColumns& c, const std::string& path,
                       int line) {
    const std::string expected =
        "expected an nccl-tests result row (size count type redop root time algbw busbw #wrong ...) with " +
        std::to_string(c.needed) + " fields or more";
    if (fields.size() < c.needed) fail(path, line, expected + ", got " + std::to_string(fields.size()));
    NcclTestsRow row;
    row.at = {path, line, 0, ""};
    const auto bytes = whole_number(fields[c.size]);
    if (!bytes || *bytes < 0) fail(path, line, "size: expected a whole number of bytes, got '" + std::string(fields[c.size]) + "'");
    row.bytes = static_cast<std::uint64_t>(*bytes);
    const auto time = parse_finite_number(fields[c.time]);
    if (!time) fail(path, line, "time: expected the out-of-place time in us, got '" + std::string(fields[c.time]) + "'");
    if (!(*time > 0)) fail(path, line, "time: must be > 0 (got " + std::string(fields[c.time]) + ")");
    row.time_us = *time;
    if (c.count) {
        row.count = whole_number(fields[*c.count]);
        if (!row.count || *row.count < 0)
            fail(path, line, "count: expected a whole number of elements, got '" + std::string(fields[*c.count]) + "'");
    }
    if (c.type) row.type = std::string(fields[*c.type]);
    if (c.redop) row.redop = std::string(fields[*c.redop]);
    if (c.root) {
        row.root = whole_number(fields[*c.root]);
        if (!row.root) fail(path, line, "root: expected a rank or -1, got '" + std::string(fields[*c.root]) + "'");
    }
    return row;
}

// Why `run` counts as failed, if it does: nccl-tests said so, or its table
// has no rows or no closing line. `next_line`: the line the next run begins
// on, 0 when the log ends.
std::optional<NcclTestsRunFailed> run_failure(const Run& run, int next_line, const std::string& path) {
    const std::string name = run.program.empty() ? "the run" : "the " + run.program + " run";
    const std::size_t rows = run.rows.size();
    const std::string printed =
        rows == 0 ? "" : fmt::format("{} result row{} (the last {} B, on line {})", rows, rows == 1 ? "" : "s",
                                    run.rows.back().bytes, run.rows.back().at.line);
    if (run.failure_line > 0) {
        const std::string when = rows == 0   ? "before its first result row"
                                 : run.ended ? "after its table ended"
                                             : "after " + printed;
        return NcclTestsRunFailed({path, run.failure_line, 0, ""},
                                  fmt::format("{} failed {}; nccl-tests says: {}", name, when, run.failure), rows);
    }
    if (run.ended) return std::nullopt;
    const std::string cut = next_line > 0 ? fmt::format("the next run begins on line {}", next_line)
                                          : std::string("the log ends (the job was stopped?)");
    if (rows == 0 && run.closing_line > 0)
        return NcclTestsRunFailed({path, run.closing_line, 0, ""},
                                  fmt::format("{} closed its table without a result row", name));
    if (rows == 0)
        return NcclTestsRunFailed({path, run.header_at.line, 0, ""},
                                  fmt::format("{} printed no result rows: {}", name, cut));
    return NcclTestsRunFailed({path, run.header_at.line, 0, ""},
                              fmt::format("{} stops after {} without nccl-tests' closing '# Avg bus bandwidth' "
                                          "line: {}",
                                          name, printed, cut),
                              rows);
}

void close_run(const Run& run, int next_line, const std::string& path, const NcclLogShape& shape,
               NcclTestsLog& out) {
    append_nccl_tests_run(run, path, shape, out.rows);
    if (auto failed = run_failure(run, next_line, path)) out.failed_runs.push_back(std::move(*failed));
}

// Record one setting line; every rank prints it, and they must agree.
void record_setting(std::vector<NcclStatedSetting>& settings, const std::string& variable, const std::string& value,
                    int line, const std::string& path) {
    const auto known = std::find_if(settings.begin(), settings.end(),
                                    [&](const NcclStatedSetting& s) { return s.variable == variable; });
    if (known == settings.end()) {
        settings.push_back({variable, value, {path, line, 0, variable}});
    } else if (known->value != value) {
        fail(path, line,
             fmt::format("{} set to '{}' here but to '{}' at line {} for the same run", variable, value, known->value,
                         known->at.line));
    }
}

// Every rank prints each setting: keep one "NCCL_X=value" per setting and value.
void note_unmodelled(std::vector<std::string>& settings, const NcclEnvLine& setting) {
    const std::string text = setting.variable + "=" + setting.value;
    if (std::find(settings.begin(), settings.end(), text) == settings.end()) settings.push_back(text);
}

// The text with each line's launcher tag removed (log_tokens.h), line for line.
std::string without_launcher_tags(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        const bool last = end == std::string::npos;
        if (last) end = text.size();
        out += strip_launcher_tag(std::string_view(text).substr(start, end - start));
        if (!last) out += '\n';
        start = end + 1;
    }
    return out;
}

}  // namespace

bool looks_like_nccl_tests_log(const std::string& text) {
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const auto tokens = split_blanks(strip_launcher_tag(std::string_view(text).substr(start, end - start)));
        if (tokens.size() >= 2 && tokens[0] == "#" && tokens[1] == "nThread") return true;
        start = end + 1;
    }
    return false;
}

NcclTestsLog parse_nccl_tests_log_with_failures(const std::string& raw_text, const std::string& path,
                                                const NcclLogShape& shape) {
    const std::string text = without_launcher_tags(raw_text);
    constexpr int kMaxRanks = 1 << 24;  // the largest network dtcalc takes (core/units.h)
    if (shape.nodes && (*shape.nodes < 1 || *shape.nodes > kMaxRanks))
        throw InputError({"--nodes", 0, 0, ""}, fmt::format("expected 1 to {}, got {}", kMaxRanks, *shape.nodes));
    if (shape.gpus_per_node && (*shape.gpus_per_node < 1 || *shape.gpus_per_node > kMaxRanks))
        throw InputError({"--gpus-per-node", 0, 0, ""},
                         fmt::format("expected 1 to {}, got {}", kMaxRanks, *shape.gpus_per_node));
    if (shape.nodes && shape.gpus_per_node &&
        static_cast<long long>(*shape.nodes) * *shape.gpus_per_node > kMaxRanks)
        throw InputError({"--nodes", 0, 0, ""}, fmt::format("nodes x GPUs per node must be at most {}", kMaxRanks));
    const std::string not_output =
        "not nccl-tests output: no '# nThread N nGpus N minBytes ...' header line, which nccl-tests prints "
        "before each result table (nor a dataset CSV with 'collective' and 'size_bytes' columns)";
    if (!looks_like_nccl_tests_log(text)) fail(path, 1, not_output);
    NcclTestsLog out;
    std::optional<Run> run;
    EnvSettings pending;    // settings printed before the run they belong to began
    std::string pending_program;
    int pending_program_line = 0;
    bool in_table = false;
    int pending_failure_line = 0;  // a failure reported before any run began: the next run's
    std::string pending_failure;
    int line_number = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string_view line = std::string_view(text).substr(start, end - start);
        start = end + 1;
        ++line_number;
        const auto tokens = split_blanks(line);
        if (tokens.empty()) continue;
        if (reports_failed_run(line)) {
            // nccl-tests stops the process that failed: the report is the
            // latest run's (also after its table, as it tears down).
            int& at = run ? run->failure_line : pending_failure_line;
            if (at == 0) {
                at = line_number;
                (run ? run->failure : pending_failure) = std::string(trim_blanks(line));
            }
            continue;
        }
        if (const auto choice = nccl_tuning_line(line)) {
            // Rank 0 prints one per call: keep the first of each size.
            if (run && !run->ended &&
                std::none_of(run->tuning.begin(), run->tuning.end(), [&](const NcclTuningLine& t) {
                    return t.function == choice->function && t.bytes == choice->bytes;
                }))
                run->tuning.push_back(*choice);
            continue;
        }
        if (const auto setting = nccl_env_line(line)) {
            const bool current = run && !run->ended;
            if (!nccl_setting_modelled(setting->variable)) {
                if (!nccl_setting_changes_nothing_timed(setting->variable))
                    note_unmodelled(current ? run->unmodelled_settings : pending.unmodelled, *setting);
                continue;
            }
            record_setting(current ? run->settings : pending.settings, setting->variable, setting->value, line_number,
                           path);
            continue;
        }
        if (tokens[0] != "#") {
            // A '#' glued to a word ("#wrong") only appears inside header lines; rows start with a size.
            if (!tokens[0].starts_with("#") && in_table && all_digits(tokens[0]))
                run->rows.push_back(parse_row(tokens, *run->columns, path, line_number));
            continue;  // anything else outside '#' lines: NCCL_DEBUG output, scheduler messages
        }
        if (tokens.size() >= 4 && tokens[1] == "Collective" && tokens[2] == "test" && tokens[3] == "starting:") {
            if (run) close_run(*run, line_number, path, shape, out);
            run.reset();
            in_table = false;
            pending_program = tokens.size() >= 5 ? std::string(tokens[4]) : "";
            pending_program_line = line_number;
            continue;
        }
        if (tokens.size() >= 2 && tokens[1] == "nThread") {
            if (run) close_run(*run, line_number, path, shape, out);
            run.emplace();
            run->header_at = {path, line_number, 0, ""};  // the "# nThread" line
            run->hosts_named_by = "rank lines";
            run->hosts_expected = "'#  Rank N Group N Pid N on HOST device N' lines";
            run->failure_line = std::exchange(pending_failure_line, 0);
            run->failure = std::exchange(pending_failure, {});
            if (tokens.size() >= 5 && tokens[3] == "nGpus")
                run->gpus_per_thread = header_number(tokens[4], "a whole number of GPUs", "nGpus", 1, path, line_number);
            run->timed_operations = timed_operations(tokens, path, line_number);
            run->settings = std::move(pending.settings);
            run->unmodelled_settings = std::move(pending.unmodelled);
            pending = {};
            run->program = pending_program;
            run->program_at = {path, pending_program_line, 0, ""};
            pending_program.clear();
            in_table = false;
            continue;
        }
        // "#  Rank 0 Group 0 Pid 1234 on HOST device 0 ...", or before nccl-tests
        // had groups "#   Rank  0 Pid 1234 on HOST device 0 ...".
        if (tokens.size() >= 9 && tokens[1] == "Rank" && tokens[3] == "Group" && tokens[5] == "Pid" &&
            tokens[7] == "on") {
            if (run && !in_table) run->rank_hosts.emplace_back(std::string(tokens[8]), InputLocation{path, line_number, 0, ""});
            continue;
        }
        if (tokens.size() >= 7 && tokens[1] == "Rank" && tokens[3] == "Pid" && tokens[5] == "on") {
            if (run && !in_table) run->rank_hosts.emplace_back(std::string(tokens[6]), InputLocation{path, line_number, 0, ""});
            continue;
        }
        const bool table_header = std::find(tokens.begin(), tokens.end(), "size") != tokens.end() &&
                                  std::find(tokens.begin(), tokens.end(), "algbw") != tokens.end();
        if (table_header) {
            if (!run)
                fail(path, line_number,
                     "an nccl-tests result table before any '# nThread N nGpus N ...' header line");
            run->columns = table_columns(tokens);
            if (!run->columns)
                fail(path, line_number, "expected nccl-tests' column header with 'size' and 'time' columns");
            in_table = true;
            continue;
        }
        if (tokens.size() >= 3 && (tokens[1] == "Out" || tokens[1] == "Avg")) {
            in_table = false;
            if (run && run->closing_line == 0) run->closing_line = line_number;
            if (run && !run->rows.empty()) run->ended = true;
        }
    }
    if (run) close_run(*run, 0, path, shape, out);
    return out;
}

std::vector<NcclMeasurement> parse_nccl_tests_log(const std::string& text, const std::string& path,
                                                  const NcclLogShape& shape) {
    NcclTestsLog log = parse_nccl_tests_log_with_failures(text, path, shape);
    if (!log.failed_runs.empty()) throw log.failed_runs.front();
    return std::move(log.rows);
}

std::vector<NcclMeasurement> read_nccl_tests_log(const std::string& path, const NcclLogShape& shape) {
    return parse_nccl_tests_log(read_text_file(path), path, shape);
}

}  // namespace dtcalc
