#include <nlohmann/json.hpp>

#include <algorithm>

#include "config/config_readers.h"

namespace dtcalc {
namespace {

// nlohmann::json keeps no positions; we find a key's line by searching the
// text for its quoted name after its parent's position. Good enough to point
// a person at the right line of a configuration file.
struct LineFinder {
    const std::string& text;

    std::size_t find_key(const std::string& key, std::size_t from) const {
        const std::string quoted = "\"" + key + "\"";
        const std::size_t at = text.find(quoted, from);
        return at == std::string::npos ? from : at;
    }
    int line_of(std::size_t offset) const {
        return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(std::min(offset, text.size())), '\n'));
    }
};

// Deeper nesting is no configuration; refusing it keeps the recursion below
// off the end of the stack (TOML's reader stops at the same depth).
constexpr int kMaxDepth = 256;

ConfigValue convert(const nlohmann::json& node, const std::string& file, const std::string& key,
                    const LineFinder& lines, std::size_t offset, int depth = 0) {
    ConfigValue out;
    out.where = {file, offset == std::string::npos ? 0 : lines.line_of(offset), 0, key};
    if (depth > kMaxDepth)
        throw InputError(out.where, "nested more than " + std::to_string(kMaxDepth) + " lists or objects deep");
    switch (node.type()) {
        case nlohmann::json::value_t::object:
            out.type = ConfigValue::Type::Table;
            for (const auto& [name, child] : node.items()) {
                const std::size_t at = lines.find_key(name, offset);
                out.fields.emplace_back(name, convert(child, file, key.empty() ? name : key + "." + name, lines, at, depth + 1));
            }
            break;
        case nlohmann::json::value_t::array:
            out.type = ConfigValue::Type::List;
            for (std::size_t i = 0; i < node.size(); ++i)
                out.items.push_back(convert(node[i], file, key + "[" + std::to_string(i) + "]", lines, offset, depth + 1));
            break;
        case nlohmann::json::value_t::string:
            out.type = ConfigValue::Type::String;
            out.text = node.get<std::string>();
            break;
        case nlohmann::json::value_t::boolean:
            out.type = ConfigValue::Type::Bool;
            out.boolean = node.get<bool>();
            break;
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
            out.type = ConfigValue::Type::Integer;
            out.number = node.get<double>();
            break;
        case nlohmann::json::value_t::number_float:
            out.type = ConfigValue::Type::Float;
            out.number = node.get<double>();
            break;
        default:
            throw InputError(out.where, "null or binary values are not accepted here");
    }
    return out;
}

}  // namespace

ConfigValue read_json_file(const std::string& path) { return parse_json_text(read_text_file(path), path); }

namespace {

nlohmann::json parse_document(const std::string& text, const std::string& path) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        const LineFinder lines{text};
        std::string message = e.what();
        if (const auto colon = message.find("parse error"); colon != std::string::npos)
            message = message.substr(colon);
        throw InputError({path, lines.line_of(e.byte == 0 ? 0 : e.byte - 1), 0, ""}, "invalid JSON: " + message);
    } catch (const nlohmann::json::exception& e) {
        // Not a syntax error but a value the parser refuses, like a number too
        // large for a double: "number overflow parsing '1e400'". The line is
        // that of the quoted text's first appearance.
        std::string message = e.what();
        if (const auto bracket = message.find("] "); bracket != std::string::npos) message = message.substr(bracket + 2);
        int line = 0;
        const auto open = message.find('\''), close = message.rfind('\'');
        if (open != std::string::npos && close > open + 1)
            if (const auto at = text.find(message.substr(open + 1, close - open - 1)); at != std::string::npos)
                line = LineFinder{text}.line_of(at);
        throw InputError({path, line, 0, ""}, "invalid JSON: " + message);
    }
}

}  // namespace

void check_json_text(const std::string& text, const std::string& path) { (void)parse_document(text, path); }

ConfigValue parse_json_text(const std::string& text, const std::string& path) {
    const nlohmann::json document = parse_document(text, path);
    const LineFinder lines{text};
    ConfigValue root = convert(document, path, "", lines, 0);
    root.where.line = 0;
    return root;
}

}  // namespace dtcalc
