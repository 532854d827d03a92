#include "sweep/csv_document.h"

#include "core/error.h"
#include "core/text_formats.h"

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
            blank = false;
            field += c;
            ++at;
        }
        if (blank && record.fields.size() == 1 && record.fields[0].empty()) continue;
        records.push_back(std::move(record));
    }
    if (records.empty()) throw InputError({source, 0, 0, ""}, "no header line: the first line names the columns");
    CsvDocument table;
    table.header = std::move(records.front().fields);
    records.erase(records.begin());
    table.rows = std::move(records);
    return table;
}

std::vector<std::string_view> split_predict_csv_line(std::string_view line) {
    std::vector<std::string_view> out;
    split_predict_csv_line(line, out);
    return out;
}

void split_predict_csv_line(std::string_view line, std::vector<std::string_view>& out) {
    out.clear();
    std::size_t start = 0, at = 0;
    bool in_quotes = false;
    for (; at < line.size(); ++at) {
        const char c = line[at];
        if (c == '"') {
            in_quotes = !in_quotes;  // a doubled quote inside quotes closes and reopens
        } else if (c == ',' && !in_quotes) {
            out.push_back(line.substr(start, at - start));
            start = at + 1;
        }
    }
    out.push_back(line.substr(start));
}

}  // namespace dtcalc
