#pragma once
// The fields of one line of `predict`'s own CSV output, without copying: a
// field in double quotes runs to its closing quote (a quote inside is
// doubled, as CSV does), and the quotes stay part of the field. The sweep
// reads back the header it writes with it; any other CSV is read with
// core/csv_document.h.
#include <string_view>
#include <vector>

namespace dtcalc {

std::vector<std::string_view> split_predict_csv_line(std::string_view line);
void split_predict_csv_line(std::string_view line, std::vector<std::string_view>& fields);

}  // namespace dtcalc
