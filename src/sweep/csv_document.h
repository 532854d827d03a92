#pragma once
// CSV text as spreadsheets write it (RFC 4180): fields separated by commas, a field
// in double quotes may hold commas, line breaks and doubled quotes (""). A
// header line names the columns. Blank lines are skipped; CRLF and a UTF-8
// byte-order mark are accepted. Unlike validate/csv_table.h (a file, every row
// checked at once) it reads text and leaves each row's field count to the
// caller, so batch mode can report a short row and go on.
#include <string>
#include <string_view>
#include <vector>

namespace dtcalc {

struct CsvDocumentRow {
    int line = 0;  ///< 1-based line where the record starts
    std::vector<std::string> fields;
};

struct CsvDocument {
    std::vector<std::string> header;
    std::vector<CsvDocumentRow> rows;
};

/// Throws InputError naming `source` and the line for an unterminated quote,
/// text after a closing quote, or a missing header.
CsvDocument parse_csv_document(std::string_view text, const std::string& source);


/// Splits one line of `predict`'s CSV into its raw fields: a field in double
/// quotes runs to its closing quote (a quote inside is doubled, as CSV does),
/// and the quotes stay part of the field.
std::vector<std::string_view> split_predict_csv_line(std::string_view line);
void split_predict_csv_line(std::string_view line, std::vector<std::string_view>& fields);

}  // namespace dtcalc
