#include "config/toml_writer.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

namespace dtcalc {
namespace {

bool bare_key(const std::string& key) {
    if (key.empty()) return false;
    for (char c : key)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
    return true;
}

std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (u < 0x20 || u == 0x7f) out += fmt::format("\\u{:04X}", u);
        else out += c;
    }
    return out + "\"";
}

std::string key_text(const std::string& key) { return bare_key(key) ? key : quoted(key); }

std::string number_text(const ConfigValue& v) {
    if (v.type == ConfigValue::Type::Integer) return fmt::format("{}", static_cast<long long>(v.number));
    std::string text = fmt::format("{}", v.number);  // shortest text that reads back as the same double
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
    return text;
}

bool is_table(const ConfigValue& v) { return v.type == ConfigValue::Type::Table; }

std::string value_text(const ConfigValue& v) {
    switch (v.type) {
        case ConfigValue::Type::String: return quoted(v.text);
        case ConfigValue::Type::Integer:
        case ConfigValue::Type::Float: return number_text(v);
        case ConfigValue::Type::Bool: return v.boolean ? "true" : "false";
        case ConfigValue::Type::List: {
            std::string out = "[";
            for (std::size_t i = 0; i < v.items.size(); ++i) out += (i ? ", " : "") + value_text(v.items[i]);
            return out + "]";
        }
        case ConfigValue::Type::Table: {
            std::string out = "{";
            for (std::size_t i = 0; i < v.fields.size(); ++i)
                out += (i ? ", " : " ") + key_text(v.fields[i].first) + " = " + value_text(v.fields[i].second);
            return out + (v.fields.empty() ? "}" : " }");
        }
    }
    return "";
}

// A long list of lists (a table of rows) on one line per row.
std::string list_text(const ConfigValue& v) {
    bool rows = v.items.size() > 1;
    for (const ConfigValue& item : v.items) rows = rows && item.type == ConfigValue::Type::List;
    const std::string one_line = value_text(v);
    if (!rows && one_line.size() <= 100) return one_line;
    std::string out = "[\n";
    for (const ConfigValue& item : v.items) out += "  " + value_text(item) + ",\n";
    return out + "]";
}

void write_table(const ConfigValue& table, const std::string& path, std::string& out) {
    for (const auto& [key, value] : table.fields)
        if (!is_table(value))
            out += key_text(key) + " = " + (value.type == ConfigValue::Type::List ? list_text(value) : value_text(value)) +
                   "\n";
    for (const auto& [key, value] : table.fields) {
        if (!is_table(value)) continue;
        const std::string sub = path.empty() ? key_text(key) : path + "." + key_text(key);
        out += "\n[" + sub + "]\n";
        write_table(value, sub, out);
    }
}

}  // namespace

std::string write_toml(const ConfigValue& root, const std::vector<std::string>& comments) {
    std::string out;
    for (const std::string& line : comments) out += "# " + line + "\n";
    if (!comments.empty()) out += "\n";
    write_table(root, "", out);
    return out;
}

}  // namespace dtcalc
