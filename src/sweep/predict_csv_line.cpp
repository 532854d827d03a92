#include "sweep/predict_csv_line.h"

namespace dtcalc {

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
