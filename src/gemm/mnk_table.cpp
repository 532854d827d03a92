#include "gemm/mnk_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include "config/config_readers.h"
#include "core/error.h"
#include "core/name_key.h"

namespace dtcalc {
namespace {

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    const auto last = s.find_last_not_of(" \t");
    return s.substr(first, last - first + 1);
}

/// Comma-separated fields, trimmed, without the empty ones at the end.
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        out.push_back(trim(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    while (!out.empty() && out.back().empty()) out.pop_back();
    return out;
}

std::int64_t dimension(const std::string& text, const std::string& path, int line, const std::string& column) {
    std::int64_t value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    auto [end, ec] = std::from_chars(first, last, value);
    if (text.empty() || ec == std::errc::invalid_argument || (ec == std::errc() && end != last))
        throw InputError({path, line, 0, column}, "expected a whole number, got '" + text + "'");
    if (ec == std::errc::result_out_of_range || value > kMaxGemmDimension)
        throw InputError({path, line, 0, column}, "must be <= 2147483647 (got " + text + ")");
    if (value < 1) throw InputError({path, line, 0, column}, "must be >= 1 (got " + text + ")");
    return value;
}

const char* kColumns = "expected 4 columns (layer,m,n,k), got ";

}  // namespace

MnkTable parse_mnk_csv(const std::string& path) { return parse_mnk_csv_text(read_text_file(path), path); }

MnkTable parse_mnk_csv_text(const std::string& text, const std::string& path) {
    MnkTable table;
    table.path = path;
    std::istringstream in(text);
    std::string line;
    int line_number = 0;
    bool first_content = true;
    while (std::getline(in, line)) {
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::string trimmed = trim(line);
        if (trimmed.empty() || trimmed.front() == '#') continue;
        const auto fields = csv_fields(line);
        if (fields.empty()) continue;  // a row of empty cells
        const bool header = first_content && fields.size() >= 2 && ascii_lower(fields[1]) == "m";
        first_content = false;
        if (header) {
            if (fields.size() != 4 || ascii_lower(fields[2]) != "n" || ascii_lower(fields[3]) != "k")
                throw InputError({path, line_number, 0, "header"},
                                 "expected 'Layer,m,n,k' (one strategy for all layers: per-layer strategies are not "
                                 "supported), got '" + trimmed + "'");
            continue;
        }
        if (fields.size() != 4)
            throw InputError({path, line_number, 0, ""}, kColumns + std::to_string(fields.size()));
        GemmLayer layer;
        layer.line = line_number;
        layer.name = fields[0];
        if (layer.name.empty()) throw InputError({path, line_number, 0, "layer"}, "the layer name is empty");
        if (layer.name.find_first_of(" \t") != std::string::npos)
            throw InputError({path, line_number, 0, "layer"},
                             "'" + layer.name + "' contains whitespace (the v1 workload format separates fields by whitespace)");
        for (std::size_t i = 0; i < layer.name.size(); ++i) {
            const auto byte = static_cast<unsigned char>(layer.name[i]);
            if (byte < 0x20 || byte == 0x7f)
                throw InputError({path, line_number, 0, "layer"},
                                 fmt::format("the name holds a control character (byte 0x{:02x} at position {}); the v1 "
                                             "workload format needs printable names",
                                             byte, i + 1));
        }
        layer.m = dimension(fields[1], path, line_number, "m");
        layer.n = dimension(fields[2], path, line_number, "n");
        layer.k = dimension(fields[3], path, line_number, "k");
        table.layers.push_back(layer);
    }
    if (table.layers.empty())
        throw InputError({path, line_number, 0, ""}, "no layers: expected lines 'name,m,n,k' after the header 'Layer,m,n,k'");
    return table;
}

}  // namespace dtcalc
