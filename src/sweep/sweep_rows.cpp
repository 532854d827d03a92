#include "sweep/sweep_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "core/text_formats.h"
#include "sweep/predict_csv_line.h"

namespace dtcalc {
namespace {

std::string json_value(const RowField& f) {
    if (f.is_text) return json_string(f.text);
    return f.text.empty() ? "null" : f.text;
}

// predict's pretty JSON object as the body of one line: without its braces,
// line breaks and indentation (it never breaks a line inside a string).
std::string json_body(const std::string& pretty) {
    std::string out;
    out.reserve(pretty.size());
    bool skipping_indent = false;
    for (char c : pretty) {
        if (c == '\n') {
            skipping_indent = true;
            if (!out.empty() && out.back() == ',') out += ' ';
            continue;
        }
        if (skipping_indent && c == ' ') continue;
        skipping_indent = false;
        out += c;
    }
    const std::size_t open = out.find('{');
    const std::size_t close = out.rfind('}');
    if (open == std::string::npos || close == std::string::npos || close <= open) return "";
    return out.substr(open + 1, close - open - 1);
}

std::string number(double v) { return general_number(v); }

}  // namespace

std::optional<SweepFormat> parse_sweep_format(std::string_view text) {
    if (text == "csv") return SweepFormat::Csv;
    if (text == "jsonl" || text == "json" || text == "ndjson") return SweepFormat::JsonLines;
    return std::nullopt;
}

SweepRowWriter::SweepRowWriter(SweepFormat format, std::string group_name, std::vector<std::string> dropped,
                               bool comm_by_group, TimeUnit unit)
    : format_(format), unit_(unit), group_name_(std::move(group_name)) {
    std::ostringstream header;
    write_predict_csv_header(header, unit);
    const std::string u(time_unit_name(unit));
    std::string line = header.str();
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    for (std::string_view name : split_predict_csv_line(line)) columns_.emplace_back(name);
    bool results = false;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
        const std::string& c = columns_[i];
        if (c == "iteration_time_" + u) results = true;
        if (c == "feasible") feasible_column_ = static_cast<int>(i);
        if (c == "reason") reason_column_ = static_cast<int>(i);
        const bool by_group = c.size() > 3 && c[2] == '_' && c != "exposed_comm_" + u &&
                              (c.ends_with("_comm_" + u) || c.ends_with("_exposed_" + u));  // tp_comm_us, tp_exposed_us, ...
        kept_.push_back(std::find(dropped.begin(), dropped.end(), c) == dropped.end() && (comm_by_group || !by_group));
        result_.push_back(results && c != "feasible" && c != "reason");
    }
}

std::string SweepRowWriter::header(std::span<const std::string> id_names, std::span<const std::string> group_names) const {
    if (format_ != SweepFormat::Csv) return "";
    std::string out;
    auto add = [&](std::string_view name) {
        if (!out.empty()) out += ',';
        out += csv_field(name);
    };
    for (const std::string& n : id_names) add(n);
    for (const std::string& n : group_names) add(n);
    for (std::size_t i = 0; i < columns_.size(); ++i)
        if (kept_[i]) add(columns_[i]);
    add("cost_per_mtok");
    return out + "\n";
}

namespace {

// The row's identifying and swept fields, comma-separated (no trailing comma).
void append_leading_csv_fields(std::string& out, std::span<const RowField> ids, std::span<const RowField> group) {
    bool first = true;
    for (std::span<const RowField> part : {ids, group})
        for (const RowField& f : part) {
            if (!first) out += ',';
            first = false;
            out += csv_field(f.text);
        }
}

}  // namespace

void SweepRowWriter::write(std::string& out, std::span<const RowField> ids, std::span<const RowField> group,
                           const PointOutcome& point, RowScratch& scratch) const {
    const bool runs = point.runs();
    const std::string cost = runs && point.cost_per_mtok > 0 ? number(point.cost_per_mtok) : "";
    if (format_ == SweepFormat::JsonLines) {
        std::ostringstream& json = scratch.text;
        json.str(std::string());
        write_predict_json(json, *point.inputs, point.result, point.target->labels);
        out += '{';
        for (const RowField& f : ids) out += json_string(f.name) + ": " + json_value(f) + ", ";
        out += json_string(group_name_) + ": {";
        for (std::size_t i = 0; i < group.size(); ++i)
            out += (i ? ", " : "") + json_string(group[i].name) + ": " + json_value(group[i]);
        out += "}, ";
        out += json_body(json.str());
        out += ", \"cost_per_mtok\": " + (cost.empty() ? std::string("null") : cost) + "}\n";
        return;
    }
    std::string& line = scratch.line;
    std::vector<std::size_t>& ends = scratch.field_ends;
    line.clear();
    ends.clear();
    append_predict_csv_row(line, *point.inputs, point.result, point.target->labels, unit_, &ends);
    bool first = true;
    auto sep = [&] {
        if (!first) out += ',';
        first = false;
    };
    append_leading_csv_fields(out, ids, group);
    first = ids.empty() && group.empty();
    for (std::size_t i = 0; i < columns_.size(); ++i) {
        if (!kept_[i]) continue;
        sep();
        const std::size_t start = i == 0 ? 0 : ends[i - 1] + 1;  // after the comma
        if (i < ends.size() && (runs || !result_[i])) out.append(line, start, ends[i] - start);
    }
    sep();
    out += cost;
    out += '\n';
}

void SweepRowWriter::write_error(std::string& out, std::span<const RowField> ids, std::span<const RowField> group,
                                 const std::string& message) const {
    if (format_ == SweepFormat::JsonLines) {
        out += '{';
        for (const RowField& f : ids) out += json_string(f.name) + ": " + json_value(f) + ", ";
        out += json_string(group_name_) + ": {";
        for (std::size_t i = 0; i < group.size(); ++i)
            out += (i ? ", " : "") + json_string(group[i].name) + ": " + json_value(group[i]);
        out += "}, \"feasible\": false, \"error\": " + json_string(message) + "}\n";
        return;
    }
    bool first = true;
    auto sep = [&] {
        if (!first) out += ',';
        first = false;
    };
    append_leading_csv_fields(out, ids, group);
    first = ids.empty() && group.empty();
    for (std::size_t i = 0; i < columns_.size(); ++i) {
        if (!kept_[i]) continue;
        sep();
        if (static_cast<int>(i) == feasible_column_) out += "false";
        if (static_cast<int>(i) == reason_column_) out += csv_field(message);
    }
    sep();
    out += '\n';
}

}  // namespace dtcalc
