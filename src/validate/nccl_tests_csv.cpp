#include "validate/nccl_tests_csv.h"

#include <cctype>
#include <optional>
#include <string_view>
#include <utility>

#include "core/name_key.h"
#include "validate/csv_table.h"

namespace dtcalc {
namespace {

std::optional<std::size_t> optional_column(const CsvTable& table, std::string_view name) {
    for (std::size_t c = 0; c < table.header.size(); ++c)
        if (table.header[c] == name) return c;
    return std::nullopt;
}

// "NCCL_ALGO=Ring" written in a notes cell, as on a command line: the value
// runs to the next blank; a ';', ',', '.' or ')' closing the note is not part
// of it. Empty when the cell has none.
std::string noted_setting(const std::string& notes, std::string_view variable) {
    const std::string key = std::string(variable) + "=";
    std::size_t at = notes.find(key);
    // The name whole: not the end of a longer one.
    while (at != std::string::npos && at > 0 &&
           (std::isalnum(static_cast<unsigned char>(notes[at - 1])) || notes[at - 1] == '_'))
        at = notes.find(key, at + 1);
    if (at == std::string::npos) return "";
    std::size_t end = at + key.size();
    while (end < notes.size() && notes[end] != ' ' && notes[end] != '\t') ++end;
    std::string value = notes.substr(at + key.size(), end - at - key.size());
    while (!value.empty() && (value.back() == ';' || value.back() == ',' || value.back() == '.' || value.back() == ')'))
        value.pop_back();
    return value;
}

// A row's NCCL setting (NCCL_ALGO, ...): its own column, else its notes;
// both given and different is an error at the row.
std::string row_setting(const CsvTable& table, std::size_t r, std::optional<std::size_t> column,
                        std::optional<std::size_t> notes, std::string_view variable, const char* column_name) {
    const std::string given = column ? table.rows[r][*column] : "";
    const std::string noted = notes ? noted_setting(table.rows[r][*notes], variable) : "";
    if (!given.empty() && !noted.empty() && given != noted)
        throw InputError({table.path, table.lines[r], 0, column_name},
                         "'" + given + "' but the notes say " + std::string(variable) + "=" + noted);
    return given.empty() ? noted : given;
}

}  // namespace

bool looks_like_nccl_tests_csv(const std::string& first_line) {
    return first_line.find("collective") != std::string::npos && first_line.find("size_bytes") != std::string::npos;
}

std::vector<NcclMeasurement> read_nccl_tests_csv(const std::string& path) {
    const CsvTable table = read_csv_table(path);
    const std::size_t c_source = table.column("source_url");
    const std::size_t c_gpus = table.column("gpus");
    const std::size_t c_nodes = table.column("nodes");
    const std::size_t c_coll = table.column("collective");
    const std::size_t c_size = table.column("size_bytes");
    const std::size_t c_time = table.column("time_us");
    // Each setting dtcalc models: its column (the variable in lower case:
    // nccl_algo, nccl_max_nchannels, ...), where the table has it.
    std::vector<std::pair<std::string, std::optional<std::size_t>>> c_settings;
    for (std::string_view variable : nccl_modelled_settings()) {
        const std::string column = ascii_lower(variable);
        c_settings.emplace_back(column, optional_column(table, column));
    }
    const auto c_notes = optional_column(table, "notes");
    const auto c_iters = optional_column(table, "iters");
    const auto c_type = optional_column(table, "type");
    const auto c_redop = optional_column(table, "redop");

    std::vector<NcclMeasurement> out;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        std::string name = table.rows[r][c_coll];
        if (name.ends_with("_perf")) name.resize(name.size() - 5);
        const auto kind = parse_collective_kind(name);
        if (!kind) throw InputError({table.path, table.lines[r], 0, "collective"}, "unknown collective '" + name + "'");
        const long long gpus = table.integer(r, c_gpus);
        const long long nodes = table.integer(r, c_nodes);
        if (nodes < 1 || gpus < nodes || gpus % nodes != 0 || gpus > (1 << 24))
            throw InputError({table.path, table.lines[r], 0, "gpus"},
                             "expected gpus to be a multiple of nodes, got " + std::to_string(gpus) + " GPUs on " +
                                 std::to_string(nodes) + " nodes");
        const double measured_us = table.number(r, c_time);
        if (!(measured_us > 0)) throw InputError({table.path, table.lines[r], 0, "time_us"}, "must be > 0");
        NcclMeasurement m;
        m.kind = *kind;
        m.nodes = static_cast<int>(nodes);
        m.gpus_per_node = static_cast<int>(gpus / nodes);
        m.bytes = static_cast<std::uint64_t>(table.integer(r, c_size));
        m.time_us = measured_us;
        m.where = {table.path, table.lines[r], 0, ""};
        m.source = table.rows[r][c_source];
        if (c_iters) {
            const long long iters = table.integer(r, *c_iters);
            if (iters < 1)
                throw InputError({table.path, table.lines[r], 0, "iters"},
                                 "expected nccl-tests' iteration count (-n), a whole number from 1, got " +
                                     std::to_string(iters));
            m.timed_operations = iters;
        }
        std::vector<NcclStatedSetting> settings;
        for (std::size_t i = 0; i < c_settings.size(); ++i) {
            const std::string_view variable = nccl_modelled_settings()[i];
            const auto& [column, c] = c_settings[i];
            std::string value = row_setting(table, r, c, c_notes, variable, column.c_str());
            if (!value.empty())
                settings.push_back({std::string(variable), std::move(value), {table.path, table.lines[r], 0, column}});
        }
        StatedNcclForce stated = stated_nccl_force(settings);
        m.force = stated.force;
        m.force_origin = std::move(stated.origin);
        // nccl-tests' "type" and "redop" (-d, -o), where the table has them.
        if (c_type && !table.rows[r][*c_type].empty()) {
            const auto type = parse_nccl_datatype(table.rows[r][*c_type]);
            if (!type)
                throw InputError({table.path, table.lines[r], 0, "type"},
                                 "unknown type '" + table.rows[r][*c_type] + "': expected nccl-tests' " +
                                     nccl_datatype_choices());
            m.reduction.type = *type;
        }
        if (c_redop && !table.rows[r][*c_redop].empty() && table.rows[r][*c_redop] != "none") {
            const auto op = parse_nccl_redop(table.rows[r][*c_redop]);
            if (!op)
                throw InputError({table.path, table.lines[r], 0, "redop"},
                                 "unknown redop '" + table.rows[r][*c_redop] + "': expected nccl-tests' " +
                                     nccl_redop_choices() + " (none where nothing is reduced)");
            m.reduction.op = *op;
        }
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace dtcalc
