#include "config/config_value.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/edit_distance.h"

namespace dtcalc {

ConfigValue::ConfigValue() = default;
ConfigValue::ConfigValue(const ConfigValue&) = default;
ConfigValue::ConfigValue(ConfigValue&&) noexcept = default;
ConfigValue& ConfigValue::operator=(const ConfigValue&) = default;
ConfigValue& ConfigValue::operator=(ConfigValue&&) noexcept = default;
ConfigValue::~ConfigValue() = default;

namespace {

std::string describe(const ConfigValue& value) {
    switch (value.type) {
        case ConfigValue::Type::String: return "\"" + value.text + "\"";
        case ConfigValue::Type::Integer:
        case ConfigValue::Type::Float: {
            if (value.number == std::floor(value.number) && std::fabs(value.number) < 1e15)
                return std::to_string(static_cast<long long>(value.number));
            return fmt::format("{}", value.number);  // the shortest text that reads back as the same number
        }
        case ConfigValue::Type::Bool: return value.boolean ? "true" : "false";
        case ConfigValue::Type::List: return "a list";
        case ConfigValue::Type::Table: return "a table";
    }
    return "?";
}

bool is_number(const ConfigValue& v) {
    return v.type == ConfigValue::Type::Integer || v.type == ConfigValue::Type::Float;
}

}  // namespace

const ConfigValue* ConfigValue::find(std::string_view key) const {
    for (const auto& [name, value] : fields)
        if (name == key) return &value;
    return nullptr;
}

std::string_view config_type_name(ConfigValue::Type type) {
    switch (type) {
        case ConfigValue::Type::String: return "a string";
        case ConfigValue::Type::Integer: return "an integer";
        case ConfigValue::Type::Float: return "a number";
        case ConfigValue::Type::Bool: return "a boolean";
        case ConfigValue::Type::List: return "a list";
        case ConfigValue::Type::Table: return "a table";
    }
    return "?";
}

void fail_at(const ConfigValue& value, const std::string& message) {
    throw InputError(value.where, message);
}

double as_positive_number(const ConfigValue& value) {
    if (!is_number(value)) fail_at(value, "expected a number, got " + describe(value));
    if (!std::isfinite(value.number) || value.number <= 0)
        fail_at(value, "must be > 0 (got " + describe(value) + ")");
    return value.number;
}

double as_non_negative_number(const ConfigValue& value) {
    if (!is_number(value)) fail_at(value, "expected a number, got " + describe(value));
    if (!std::isfinite(value.number) || value.number < 0)
        fail_at(value, "must be >= 0 (got " + describe(value) + ")");
    return value.number;
}

int as_positive_integer(const ConfigValue& value) {
    if (!is_number(value)) fail_at(value, "expected a positive integer, got " + describe(value));
    if (value.number != std::floor(value.number) || value.number < 1 ||
        value.number > std::numeric_limits<int>::max())
        fail_at(value, "expected a positive integer, got " + describe(value));
    return static_cast<int>(value.number);
}

const std::string& as_string(const ConfigValue& value) {
    if (value.type != ConfigValue::Type::String)
        fail_at(value, "expected a string, got " + describe(value));
    return value.text;
}

ConfigTableReader::ConfigTableReader(const ConfigValue& table) : table_(table) {
    if (table.type != ConfigValue::Type::Table)
        fail_at(table, "expected a table of keys, got " + describe(table));
}

bool ConfigTableReader::has(std::string_view key) const { return table_.find(key) != nullptr; }

const ConfigValue& ConfigTableReader::required(std::string_view key) {
    const ConfigValue* value = optional(key);
    if (!value) {
        InputLocation where = table_.where;
        where.key = where.key.empty() ? std::string(key) : where.key + "." + std::string(key);
        // A misspelt key is the usual reason: point at it.
        for (const auto& [name, field] : table_.fields) {
            if (std::find(used_.begin(), used_.end(), name) != used_.end()) continue;
            if (edit_distance(name, key) * 3 > key.size()) continue;
            std::string at = "'" + name + "'";
            if (field.where.line > 0) at += " on line " + std::to_string(field.where.line);
            throw KeyProblem(where, "missing required key (is " + at + " a misspelling?)", KeyProblem::Kind::Misspelt,
                             &table_, std::string(key), name);
        }
        throw InputError(where, "missing required key");
    }
    return *value;
}

const ConfigValue* ConfigTableReader::optional(std::string_view key) {
    used_.emplace_back(key);
    return table_.find(key);
}

std::string ConfigTableReader::string(std::string_view key) { return as_string(required(key)); }

std::optional<std::string> ConfigTableReader::optional_string(std::string_view key) {
    const ConfigValue* v = optional(key);
    if (!v) return std::nullopt;
    return as_string(*v);
}

double ConfigTableReader::positive_number(std::string_view key) {
    return as_positive_number(required(key));
}

double ConfigTableReader::non_negative_number(std::string_view key) {
    return as_non_negative_number(required(key));
}

std::optional<double> ConfigTableReader::optional_non_negative_number(std::string_view key) {
    const ConfigValue* v = optional(key);
    if (!v) return std::nullopt;
    return as_non_negative_number(*v);
}

int ConfigTableReader::positive_integer(std::string_view key) {
    return as_positive_integer(required(key));
}

bool ConfigTableReader::boolean_flag(std::string_view key) {
    auto value = optional_boolean_flag(key);
    if (!value) required(key);  // throws "missing"
    return *value;
}

std::optional<bool> ConfigTableReader::optional_boolean_flag(std::string_view key) {
    const ConfigValue* v = optional(key);
    if (!v) return std::nullopt;
    if (v->type == ConfigValue::Type::Bool) return v->boolean;
    if (is_number(*v) && (v->number == 0 || v->number == 1)) return v->number == 1;
    fail_at(*v, "expected true/false or 0/1, got " + describe(*v));
}

const std::vector<ConfigValue>& ConfigTableReader::list(std::string_view key) {
    const ConfigValue& v = required(key);
    if (v.type != ConfigValue::Type::List) fail_at(v, "expected a list, got " + describe(v));
    if (v.items.empty()) fail_at(v, "expected a non-empty list");
    return v.items;
}

std::vector<std::string> ConfigTableReader::string_list(std::string_view key) {
    std::vector<std::string> out;
    for (const ConfigValue& item : list(key)) out.push_back(as_string(item));
    return out;
}

void ConfigTableReader::ignore(std::initializer_list<std::string_view> keys) {
    for (std::string_view k : keys) used_.emplace_back(k);
}

void ConfigTableReader::finish() const {
    for (const auto& [name, value] : table_.fields) {
        if (std::find(used_.begin(), used_.end(), name) != used_.end()) continue;
        std::string message = "unknown key";
        std::string best;
        std::size_t best_distance = 4;
        for (const std::string& known : used_) {
            const std::size_t d = edit_distance(name, known);
            if (d < best_distance) {
                best_distance = d;
                best = known;
            }
        }
        if (!best.empty()) message += " (did you mean '" + best + "'?)";
        throw KeyProblem(value.where, message, KeyProblem::Kind::Unknown, &table_, name, "");
    }
}

KeyProblem::KeyProblem(InputLocation where, std::string what, Kind kind, const ConfigValue* table, std::string key,
                       std::string misspelt)
    : InputError(std::move(where), std::move(what)),
      kind_(kind),
      table_(table),
      key_(std::move(key)),
      misspelt_(std::move(misspelt)) {}

namespace {

ConfigValue* find_node(ConfigValue& node, const ConfigValue* target) {
    if (&node == target) return &node;
    for (auto& [name, value] : node.fields)
        if (ConfigValue* found = find_node(value, target)) return found;
    for (ConfigValue& item : node.items)
        if (ConfigValue* found = find_node(item, target)) return found;
    return nullptr;
}

}  // namespace

bool patch_key_problem(ConfigValue& copy, const KeyProblem& problem) {
    ConfigValue* table = find_node(copy, problem.table());
    if (!table) return false;
    auto& fields = table->fields;
    const std::string& name = problem.kind() == KeyProblem::Kind::Unknown ? problem.key() : problem.misspelt();
    for (auto it = fields.begin(); it != fields.end(); ++it) {
        if (it->first != name) continue;
        if (problem.kind() == KeyProblem::Kind::Unknown) fields.erase(it);
        else it->first = problem.key();
        return true;
    }
    return false;
}

void throw_all_problems(const ConfigValue& tree, const std::vector<InputError>& problems) {
    if (problems.size() == 1) throw problems.front();
    const std::string& file = tree.where.file;
    std::string all;
    for (const InputError& p : problems) {
        InputLocation where = p.where();
        if (where.file == file) where.file.clear();
        // A missing key's place is its table's header; its message names the line of the misspelling.
        if (p.detail().starts_with("missing required key")) where.line = 0;
        std::string one = format_input_error(where, p.detail());
        if (where.file.empty() && where.line > 0) {
            // "4:1: key: ..." reads better as "line 4: key: ...".
            one = "line " + std::to_string(where.line) + ": " + format_input_error({"", 0, 0, where.key}, p.detail());
        }
        all += (all.empty() ? "" : "; ") + one;
    }
    throw InputError({file, 0, 0, ""}, std::to_string(problems.size()) + " problems: " + all);
}

}  // namespace dtcalc
