#include "validate/csv_table.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "config/config_readers.h"
#include "core/csv_document.h"
#include "core/error.h"

namespace dtcalc {
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
    CsvDocument document = parse_csv_document(read_text_file(path), path);
    table.header = std::move(document.header);
    if (table.header.size() == 1 && table.header[0].empty() && document.rows.empty())
        throw InputError({path, 0, 0, ""}, "file is empty");  // one empty quoted field: no columns, no rows
    for (CsvDocumentRow& row : document.rows) {
        if (row.fields.size() != table.header.size())
            throw InputError({path, row.line, 0, ""}, "expected " + std::to_string(table.header.size()) +
                                                          " fields like the header, got " +
                                                          std::to_string(row.fields.size()));
        table.rows.push_back(std::move(row.fields));
        table.lines.push_back(row.line);
    }
    return table;
}

}  // namespace dtcalc
