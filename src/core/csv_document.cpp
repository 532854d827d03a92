#include "core/csv_document.h"

#include "core/error.h"

namespace dtcalc {

CsvDocument parse_csv_document(std::string_view text, const std::string& source) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    std::vector<CsvDocumentRow> records;
    std::size_t at = 0;
    int line = 1;
    while (at < text.size()) {
        CsvDocumentRow record;
        record.line = line;
        std::string field;
        bool quoted_field = false, blank = true;
        while (true) {
            if (at >= text.size()) {
                record.fields.push_back(std::move(field));
                break;
            }
            const char c = text[at];
            if (c == '"' && field.empty() && !quoted_field) {
                quoted_field = true;
                blank = false;
                const int opened = line;
                ++at;
                while (true) {
                    if (at >= text.size())
                        throw InputError({source, opened, 0, ""}, "a quoted field is not closed (a '\"' is missing)");
                    if (text[at] == '"') {
                        if (at + 1 < text.size() && text[at + 1] == '"') {
                            field += '"';
                            at += 2;
                            continue;
                        }
                        ++at;
                        break;
                    }
                    if (text[at] == '\n') ++line;
                    field += text[at++];
                }
                if (at < text.size() && text[at] != ',' && text[at] != '\n' && text[at] != '\r')
                    throw InputError({source, line, 0, ""}, "text after a closing quote; quote the whole field");
                continue;
            }
            if (c == ',') {
                record.fields.push_back(std::move(field));
                field.clear();
                quoted_field = false;
                blank = false;
                ++at;
                continue;
            }
            if (c == '\r' || c == '\n') {
                if (c == '\r' && at + 1 < text.size() && text[at + 1] == '\n') ++at;
                ++at;
                ++line;
                record.fields.push_back(std::move(field));
                break;
            }
            if (c == '"')
                throw InputError({source, line, 0, ""}, "a quote inside an unquoted field; quote the whole field");
            if (c != ' ' && c != '\t') blank = false;
            field += c;
            ++at;
        }
        if (blank && record.fields.size() == 1) continue;  // an empty or all-blank line
        records.push_back(std::move(record));
    }
    if (records.empty()) throw InputError({source, 0, 0, ""}, "no header line: the first line names the columns");
    CsvDocument table;
    table.header = std::move(records.front().fields);
    records.erase(records.begin());
    table.rows = std::move(records);
    return table;
}

}  // namespace dtcalc
