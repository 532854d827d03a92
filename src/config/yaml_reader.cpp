#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "config/config_readers.h"

namespace dtcalc {
namespace {

ConfigValue scalar(const YAML::Node& node, ConfigValue out) {
    const std::string& text = node.Scalar();
    out.text = text;
    if (node.Tag() == "!") {  // quoted: always a string
        out.type = ConfigValue::Type::String;
        return out;
    }
    if (text == "true" || text == "True" || text == "false" || text == "False") {
        out.type = ConfigValue::Type::Bool;
        out.boolean = text[0] == 't' || text[0] == 'T';
        return out;
    }
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (!text.empty() && end == text.c_str() + text.size() && errno == 0 && std::isfinite(value)) {
        const bool integral = text.find_first_of(".eE") == std::string::npos;
        out.type = integral ? ConfigValue::Type::Integer : ConfigValue::Type::Float;
        out.number = value;
        return out;
    }
    out.type = ConfigValue::Type::String;
    return out;
}

// An alias repeats the node it names, and may name a node it is inside of:
// "a: &x [*x]" nests without end, ten levels of ten aliases make 10^10 values
// out of a few lines. Both are refused before they exhaust the stack or memory.
constexpr int kMaxDepth = 256;
constexpr std::size_t kMaxValues = 1000000;

// Where a null list item is. A bare "-" gives yaml-cpp's null the mark of the
// token after it, often on a later line; the dash itself is found by looking
// back from there over blank space. An explicit ~ or null keeps its own mark.
InputLocation null_item_location(const YAML::Mark& mark, const std::string& text, const std::string& file,
                                 const std::string& key) {
    InputLocation at{file, mark.line + 1, mark.column + 1, key};
    if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) > text.size()) return at;
    std::size_t i = static_cast<std::size_t>(mark.pos);
    const std::string_view rest = std::string_view(text).substr(i);
    auto is_word = [&](std::string_view word) {
        return rest.starts_with(word) &&
               (rest.size() == word.size() || std::string_view(" \t\r\n,]}#").find(rest[word.size()]) != std::string_view::npos);
    };
    if (is_word("~") || is_word("null") || is_word("Null") || is_word("NULL")) return at;
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r')) --i;
    if (i == 0 || text[i - 1] != '-') return at;
    const std::size_t dash = i - 1;
    const std::size_t newline = text.rfind('\n', dash);
    const std::size_t line_start = newline == std::string::npos ? 0 : newline + 1;
    at.line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(dash), '\n'));
    at.column = 1 + static_cast<int>(dash - line_start);
    return at;
}

ConfigValue convert(const YAML::Node& node, const std::string& text, const std::string& file, const std::string& key,
                    int depth, std::size_t& values) {
    ConfigValue out;
    const YAML::Mark mark = node.Mark();
    out.where = {file, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, key};
    if (depth > kMaxDepth)
        throw InputError(out.where, "nested more than " + std::to_string(kMaxDepth) + " lists or mappings deep (an alias inside what it names?)");
    if (++values > kMaxValues)
        throw InputError(out.where, "more than " + std::to_string(kMaxValues) + " values in all (aliases repeat what they name)");
    switch (node.Type()) {
        case YAML::NodeType::Map:
            out.type = ConfigValue::Type::Table;
            for (const auto& entry : node) {
                const std::string name = entry.first.Scalar();
                if (entry.second.IsNull()) {  // "key:" and nothing: the null's own mark is the next token's, often a line on
                    const YAML::Mark at = entry.first.Mark();
                    throw InputError({file, at.line + 1, at.column + 1, key.empty() ? name : key + "." + name},
                                     "expected a value");
                }
                ConfigValue child = convert(entry.second, text, file, key.empty() ? name : key + "." + name, depth + 1, values);
                if (child.where.line == 0) child.where.line = entry.first.Mark().line + 1;
                out.fields.emplace_back(name, std::move(child));
            }
            break;
        case YAML::NodeType::Sequence:
            out.type = ConfigValue::Type::List;
            for (std::size_t i = 0; i < node.size(); ++i) {
                const std::string item_key = key + "[" + std::to_string(i) + "]";
                if (node[i].IsNull()) throw InputError(null_item_location(node[i].Mark(), text, file, item_key), "expected a value");
                out.items.push_back(convert(node[i], text, file, item_key, depth + 1, values));
            }
            break;
        case YAML::NodeType::Scalar: return scalar(node, std::move(out));
        default: throw InputError(out.where, "expected a value");
    }
    return out;
}

}  // namespace

ConfigValue read_yaml_file(const std::string& path) {
    const std::string text = read_text_file(path);
    YAML::Node document;
    try {
        document = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw InputError({path, e.mark.line + 1, e.mark.column + 1, ""}, "invalid YAML: " + e.msg);
    }
    if (!document.IsMap()) throw InputError({path, 1, 1, ""}, "expected a mapping of keys at the top level");
    std::size_t values = 0;
    ConfigValue root = convert(document, text, path, "", 0, values);
    root.where.line = 0;
    root.where.column = 0;
    return root;
}

}  // namespace dtcalc
