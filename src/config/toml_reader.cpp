// The only translation unit that includes toml++ (it is slow to compile).
#include <toml++/toml.h>

#include "config/config_readers.h"

namespace dtcalc {
namespace {

std::string join_key(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
}

ConfigValue convert(const toml::node& node, const std::string& file, const std::string& key) {
    ConfigValue out;
    const auto& source = node.source();
    out.where = {file, static_cast<int>(source.begin.line), static_cast<int>(source.begin.column), key};
    if (const auto* table = node.as_table()) {
        out.type = ConfigValue::Type::Table;
        for (const auto& [name, child] : *table) {
            const std::string child_key = join_key(key, std::string(name.str()));
            out.fields.emplace_back(std::string(name.str()), convert(child, file, child_key));
        }
    } else if (const auto* array = node.as_array()) {
        out.type = ConfigValue::Type::List;
        for (std::size_t i = 0; i < array->size(); ++i)
            out.items.push_back(convert((*array)[i], file, key + "[" + std::to_string(i) + "]"));
    } else if (const auto* s = node.as_string()) {
        out.type = ConfigValue::Type::String;
        out.text = s->get();
    } else if (const auto* i = node.as_integer()) {
        out.type = ConfigValue::Type::Integer;
        out.number = static_cast<double>(i->get());
    } else if (const auto* f = node.as_floating_point()) {
        out.type = ConfigValue::Type::Float;
        out.number = f->get();
    } else if (const auto* b = node.as_boolean()) {
        out.type = ConfigValue::Type::Bool;
        out.boolean = b->get();
    } else {
        throw InputError(out.where, "dates and times are not accepted here");
    }
    return out;
}

}  // namespace

ConfigValue read_toml_file(const std::string& path) { return parse_toml_text(read_text_file(path), path); }

ConfigValue parse_toml_text(const std::string& text, const std::string& path) {
    toml::table table;
    try {
        table = toml::parse(text, path);
    } catch (const toml::parse_error& error) {
        throw InputError({path, static_cast<int>(error.source().begin.line),
                          static_cast<int>(error.source().begin.column), ""},
                         std::string(error.description()));
    }
    ConfigValue root = convert(table, path, "");
    root.where.line = 0;
    root.where.column = 0;
    return root;
}

}  // namespace dtcalc
