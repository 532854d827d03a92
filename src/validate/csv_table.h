#pragma once
// A CSV file as a table of strings: a header row, then one row per record,
// read by core/csv_document.h (quoted fields, CRLF, blank lines skipped).
// Every row must have as many fields as the header. Errors name the
// file, the line and (for a missing or malformed value) the column.
#include <string>
#include <string_view>
#include <vector>

namespace dtcalc {

struct CsvTable {
    std::string path;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<int> lines;  ///< file line of each row (1-based)

    /// Index of a column; throws InputError naming the file and the column.
    std::size_t column(std::string_view name) const;
    /// The cell as a number; throws InputError (file, line, column) otherwise.
    double number(std::size_t row, std::size_t column) const;
    /// The cell as a non-negative integer; throws InputError otherwise.
    long long integer(std::size_t row, std::size_t column) const;
};

/// Throws InputError for an unreadable or empty file, a malformed quote, or a
/// row whose field count differs from the header's.
CsvTable read_csv_table(const std::string& path);

}  // namespace dtcalc
