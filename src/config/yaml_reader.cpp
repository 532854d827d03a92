#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

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

ConfigValue convert(const YAML::Node& node, const std::string& file, const std::string& key) {
    ConfigValue out;
    const YAML::Mark mark = node.Mark();
    out.where = {file, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, key};
    switch (node.Type()) {
        case YAML::NodeType::Map:
            out.type = ConfigValue::Type::Table;
            for (const auto& entry : node) {
                const std::string name = entry.first.Scalar();
                ConfigValue child = convert(entry.second, file, key.empty() ? name : key + "." + name);
                if (child.where.line == 0) child.where.line = entry.first.Mark().line + 1;
                out.fields.emplace_back(name, std::move(child));
            }
            break;
        case YAML::NodeType::Sequence:
            out.type = ConfigValue::Type::List;
            for (std::size_t i = 0; i < node.size(); ++i)
                out.items.push_back(convert(node[i], file, key + "[" + std::to_string(i) + "]"));
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
    ConfigValue root = convert(document, path, "");
    root.where.line = 0;
    root.where.column = 0;
    return root;
}

}  // namespace dtcalc
