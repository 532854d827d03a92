#include "calibrate/preset_writer.h"

#include <fmt/format.h>

#include <cmath>

#include "core/number_text.h"
#include "core/text_formats.h"

namespace dtcalc {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::string number_text(double value, bool integer) {
    if (integer) return fmt::format("{}", static_cast<long long>(std::llround(value)));
    std::string s = fmt::format("{}", value);
    if (s.find_first_of(".eE") == std::string::npos) s += ".0";  // stays a float in TOML
    return s;
}

// "a \"b\"" as a TOML basic string.
std::string toml_string(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;
        out += c;
    }
    return out + "\"";
}

// One line of comment text: control characters (a line break in a path) become spaces.
std::string comment_text(const std::string& s) {
    std::string out = s;
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    return out;
}

}  // namespace

std::string calibrated_preset_text(const std::string& text, int name_line,
                                   const std::vector<CalibratedConstant>& constants,
                                   const std::vector<ConstantFit>& fits, const PresetNote& given) {
    PresetNote note = given;
    note.data = comment_text(note.data);
    note.date = comment_text(note.date);
    note.from = comment_text(note.from);
    std::vector<std::string> lines = split_lines(text);
    for (std::size_t i = 0; i < constants.size() && i < fits.size(); ++i) {
        const CalibratedConstant& c = constants[i];
        const ConstantFit& f = fits[i];
        if (!f.fitted) continue;
        const int line = c.value_where.line;
        const std::string last = c.key.substr(c.key.find_last_of('.') == std::string::npos ? 0 : c.key.find_last_of('.') + 1);
        auto refuse = [&] {
            throw InputError(c.value_where, "cannot rewrite this value in place: calibrate rewrites `" + last +
                                                " = NUMBER` written on one line");
        };
        if (line < 1 || line > static_cast<int>(lines.size())) refuse();
        std::string& l = lines[static_cast<std::size_t>(line - 1)];
        const std::size_t key_at = l.find(last);
        const std::size_t eq = key_at == std::string::npos ? std::string::npos : l.find('=', key_at + last.size());
        if (eq == std::string::npos) refuse();
        std::size_t value_at = eq + 1;
        while (value_at < l.size() && (l[value_at] == ' ' || l[value_at] == '\t')) ++value_at;
        std::size_t value_end = value_at;
        while (value_end < l.size() && l[value_end] != ' ' && l[value_end] != '\t' && l[value_end] != '#' &&
               l[value_end] != '\r')
            ++value_end;
        const std::string old_text = l.substr(value_at, value_end - value_at);
        const auto old_value = parse_finite_number(old_text);
        if (!old_value || std::abs(*old_value - c.value) > 1e-9 * std::abs(c.value)) refuse();
        l = l.substr(0, value_at) + number_text(f.after, c.integer) +
            fmt::format("  # fitted by dtcalc calibrate on {} to {}; preset {} had {}", note.date, note.data, note.from,
                        old_text);
    }
    if (name_line >= 1 && name_line <= static_cast<int>(lines.size()))
        lines[static_cast<std::size_t>(name_line - 1)] = "name = " + toml_string(note.name);
    std::string out = fmt::format(
        "# Preset {} with the constants of its [calibration] table fitted by dtcalc calibrate on {}\n"
        "# to {}; each fitted value says so beside it.\n",
        note.from, note.date, note.data);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        if (i + 1 < lines.size()) out += '\n';
    }
    return out;
}

}  // namespace dtcalc
