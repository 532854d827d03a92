#include "validate/log_tokens.h"

#include <charconv>

namespace dtcalc {

std::vector<std::string_view> split_blanks(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

namespace {

// The digits of `s` from `i` on: where they end (i itself when there are none).
std::size_t digits_end(std::string_view s, std::size_t i) {
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i;
}

}  // namespace

std::string_view strip_launcher_tag(std::string_view line) {
    if (!line.empty() && line[0] == '[') {
        std::size_t i = digits_end(line, 1);
        if (i == 1) return line;
        if (i < line.size() && line[i] == ',') {  // Open MPI: [job,rank]<stdout>: or <stderr>:
            const std::size_t j = digits_end(line, i + 1);
            if (j == i + 1) return line;
            for (std::string_view stream : {"]<stdout>:", "]<stderr>:"})
                if (line.substr(j, stream.size()) == stream) {
                    std::string_view rest = line.substr(j + stream.size());
                    if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
                    return rest;
                }
            return line;
        }
        if (i + 1 < line.size() && line[i] == ']' && line[i + 1] == ' ') return line.substr(i + 2);  // MPICH: [rank]
        return line;
    }
    std::size_t i = 0;  // Slurm: rank: (right-aligned when there are many)
    while (i < line.size() && line[i] == ' ') ++i;
    const std::size_t end = digits_end(line, i);
    if (end > i && end + 1 < line.size() && line[end] == ':' && line[end + 1] == ' ') return line.substr(end + 2);
    return line;
}

std::optional<long long> whole_number(std::string_view s) {
    long long v = 0;
    if (s.empty()) return std::nullopt;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

}  // namespace dtcalc
