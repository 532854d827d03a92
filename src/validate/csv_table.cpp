#include "validate/csv_table.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "config/config_readers.h"
#include "core/error.h"

namespace dtcalc {
namespace {

// Splits the text into records of fields, remembering the line each starts on.
void parse(const std::string& path, const std::string& text, std::vector<std::vector<std::string>>& records,
           std::vector<int>& lines) {
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    bool field_started = false;
    int line = 1;
    int record_line = 1;
    auto end_record = [&] {
        fields.push_back(field);
        const bool blank = fields.size() == 1 && fields[0].find_first_not_of(" \t\r") == std::string::npos;
        if (!blank) {
            records.push_back(fields);
            lines.push_back(record_line);
        }
        fields.clear();
        field.clear();
        field_started = false;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                if (c == '\n') ++line;
                field += c;
            }
            continue;
        }
        switch (c) {
            case '"':
                if (field_started && !field.empty())
                    throw InputError({path, line, 0, ""}, "a quote inside an unquoted field");
                quoted = true;
                field_started = true;
                break;
            case ',':
                fields.push_back(field);
                field.clear();
                field_started = false;
                break;
            case '\r': break;
            case '\n':
                end_record();
                ++line;
                record_line = line;
                break;
            default:
                field += c;
                field_started = true;
        }
    }
    if (quoted) throw InputError({path, record_line, 0, ""}, "unterminated quoted field");
    if (!field.empty() || !fields.empty()) end_record();
}

}  // namespace

std::size_t CsvTable::column(std::string_view name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return i;
    throw InputError({path, 1, 0, std::string(name)}, "missing column");
}

double CsvTable::number(std::size_t row, std::size_t col) const {
    const std::string& text = rows[row][col];
    const char* begin = text.c_str();
    char* end = nullptr;
    const double value = std::strtod(begin, &end);
    if (text.empty() || end != begin + text.size() || !std::isfinite(value))
        throw InputError({path, lines[row], 0, header[col]}, "expected a number, got '" + text + "'");
    return value;
}

long long CsvTable::integer(std::size_t row, std::size_t col) const {
    const std::string& text = rows[row][col];
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < 0)
        throw InputError({path, lines[row], 0, header[col]}, "expected a non-negative integer, got '" + text + "'");
    return value;
}

CsvTable read_csv_table(const std::string& path) {
    CsvTable table;
    table.path = path;
    const std::string text = read_text_file(path);
    std::vector<std::vector<std::string>> records;
    std::vector<int> lines;
    parse(path, text, records, lines);
    if (records.empty()) throw InputError({path, 0, 0, ""}, "file is empty");
    table.header = records.front();
    for (std::size_t i = 1; i < records.size(); ++i) {
        if (records[i].size() != table.header.size())
            throw InputError({path, lines[i], 0, ""}, "expected " + std::to_string(table.header.size()) +
                                                          " fields like the header, got " +
                                                          std::to_string(records[i].size()));
        table.rows.push_back(std::move(records[i]));
        table.lines.push_back(lines[i]);
    }
    return table;
}

}  // namespace dtcalc
