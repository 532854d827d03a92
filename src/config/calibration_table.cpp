#include "config/calibration_table.h"

#include <fmt/format.h>

#include <cmath>

namespace dtcalc {
namespace {

template <typename Value>
Value* find_path(Value& root, std::string_view key) {
    Value* node = &root;
    while (!key.empty()) {
        if (node->type != ConfigValue::Type::Table) return nullptr;
        const std::size_t dot = key.find('.');
        const std::string_view part = key.substr(0, dot);
        Value* next = nullptr;
        for (auto& [name, child] : node->fields)
            if (name == part) next = &child;
        if (!next) return nullptr;
        node = next;
        key = dot == std::string_view::npos ? std::string_view{} : key.substr(dot + 1);
    }
    return node;
}

}  // namespace

const ConfigValue* find_config_path(const ConfigValue& root, std::string_view key) { return find_path(root, key); }
ConfigValue* find_config_path(ConfigValue& root, std::string_view key) { return find_path(root, key); }

std::vector<CalibratedConstant> calibration_from(const ConfigValue& table, const ConfigValue& root) {
    if (table.type != ConfigValue::Type::Table)
        fail_at(table, "expected a table of \"dotted.key\" = [low, high] entries");
    std::vector<CalibratedConstant> out;
    for (const auto& [key, bounds] : table.fields) {
        if (key.empty() || key.starts_with("calibration"))
            fail_at(bounds, "expected the dotted key of a number elsewhere in this preset");
        const ConfigValue* value = find_config_path(root, key);
        if (!value)
            fail_at(bounds, "names no key of this preset (expected a dotted path like \"nccl.p2p.latency-us\")");
        if (value->type != ConfigValue::Type::Integer && value->type != ConfigValue::Type::Float)
            fail_at(bounds, "'" + key + "' is " + std::string(config_type_name(value->type)) +
                                "; only a single number can be calibrated");
        if (bounds.type != ConfigValue::Type::List || bounds.items.size() != 2)
            fail_at(bounds, "expected [low, high], the physical range the fit may use");
        const double low = as_positive_number(bounds.items[0]);
        const double high = as_positive_number(bounds.items[1]);
        if (!(low < high)) fail_at(bounds, fmt::format("expected low < high, got [{}, {}]", low, high));
        if (value->number < low || value->number > high)
            fail_at(bounds, fmt::format("the preset's value {} lies outside [{}, {}]", value->number, low, high));
        for (const CalibratedConstant& c : out)
            if (c.key == key) fail_at(bounds, "listed twice");
        CalibratedConstant c;
        c.key = key;
        c.low = low;
        c.high = high;
        c.value = value->number;
        c.integer = value->type == ConfigValue::Type::Integer;
        c.bounds_where = bounds.where;
        c.value_where = value->where;
        out.push_back(std::move(c));
    }
    if (out.empty()) fail_at(table, "lists no constant; leave the table out instead");
    return out;
}

}  // namespace dtcalc
