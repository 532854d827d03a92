#pragma once
// CSV text as spreadsheets write it (RFC 4180): fields separated by commas, a field
// in double quotes may hold commas, line breaks and doubled quotes (""); a quote
// inside an unquoted field is refused. A header line names the columns. Blank
// lines are skipped; CRLF and a UTF-8 byte-order mark are accepted. The one CSV
// reader of dtcalc: batch rows, training cases and the validation tables
// (validate/csv_table.h) all read through it; each row's field count is left to
// the caller, so batch mode can report a short row and go on.
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
/// text after a closing quote, a quote inside an unquoted field, or a missing header.
CsvDocument parse_csv_document(std::string_view text, const std::string& source);


}  // namespace dtcalc
