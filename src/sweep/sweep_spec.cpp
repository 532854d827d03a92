#include "sweep/sweep_spec.h"

#include <algorithm>

namespace dtcalc {
namespace {

constexpr std::pair<std::string_view, SweepObjective> kObjectives[] = {
    {"time", SweepObjective::Time},
    {"tokens_per_s", SweepObjective::TokensPerSecond},
    {"tokens_per_s_per_gpu", SweepObjective::TokensPerSecondPerGpu},
    {"mfu", SweepObjective::Mfu},
    {"memory", SweepObjective::Memory},
    {"cost", SweepObjective::Cost},
};

std::string normalized_key(const std::string& key) {
    std::string k = key;
    std::replace(k.begin(), k.end(), '-', '_');
    return k;
}

SweepAxis read_axis(const std::string& key, const ConfigValue& value) {
    const ParamInfo* param = find_parameter(normalized_key(key));
    if (!param) throw InputError(value.where, "unknown parameter" + parameter_suggestion(key) + "; `dtcalc sweep --help` lists them");
    SweepAxis axis{param, expand_value_config(*param, value), value.where};
    for (const ParamValue& v : axis.values) check_text_value(*param, v, value.where);
    return axis;
}

void add_axis(std::vector<SweepAxis>& axes, SweepAxis axis) {
    for (SweepAxis& a : axes)
        if (a.param == axis.param) {
            throw InputError(axis.where, "given twice (also at line " +
                                             std::to_string(a.where.line) + ")");
        }
    axes.push_back(std::move(axis));
}

void read_constraints(const ConfigValue& table, SweepSpec& spec) {
    if (table.type != ConfigValue::Type::Table) fail_at(table, "expected a table of constraints (npus, memory_limit, rules)");
    ConfigTableReader r(table);
    if (const ConfigValue* v = r.optional("npus")) {
        spec.npus = as_positive_integer(*v);
        spec.npus_where = v->where;
    }
    if (const ConfigValue* v = r.optional("memory_limit")) {
        if (spec.find("memory_limit"))
            fail_at(*v, "memory_limit is given both as a parameter and as a constraint; keep one");
        add_axis(spec.parameters, read_axis("memory_limit", *v));
    }
    if (r.has("rules"))
        for (const ConfigValue& rule : r.list("rules")) spec.rules.push_back(ConstraintRule::parse(as_string(rule), rule.where));
    r.finish();
}

SweepCase read_case(const ConfigValue& table, std::size_t index) {
    if (table.type != ConfigValue::Type::Table) fail_at(table, "expected a table: a case's name and parameters");
    SweepCase c;
    c.name = "case " + std::to_string(index + 1);
    for (const auto& [key, value] : table.fields) {
        if (key == "name") {
            c.name = as_string(value);
            continue;
        }
        if (key == "description") continue;
        add_axis(c.axes, read_axis(key, value));
    }
    return c;
}

}  // namespace

std::optional<SweepObjective> parse_sweep_objective(std::string_view text) {
    for (const auto& [name, objective] : kObjectives)
        if (name == text) return objective;
    if (text == "iteration_time") return SweepObjective::Time;
    return std::nullopt;
}

std::string_view sweep_objective_name(SweepObjective objective) {
    for (const auto& [name, o] : kObjectives)
        if (o == objective) return name;
    return "?";
}

bool objective_maximizes(SweepObjective o) {
    return o == SweepObjective::TokensPerSecond || o == SweepObjective::TokensPerSecondPerGpu || o == SweepObjective::Mfu;
}

void SweepSpec::set(const ParamInfo& param, std::vector<ParamValue> values, const InputLocation& where) {
    auto by_registry = [](const SweepAxis& a, const SweepAxis& b) { return a.param < b.param; };
    for (SweepCase& c : cases)
        c.axes.erase(std::remove_if(c.axes.begin(), c.axes.end(), [&](const SweepAxis& a) { return a.param == &param; }),
                     c.axes.end());
    for (SweepAxis& a : parameters)
        if (a.param == &param) {
            a.values = std::move(values);
            a.where = where;
            return;
        }
    parameters.push_back({&param, std::move(values), where});
    std::stable_sort(parameters.begin(), parameters.end(), by_registry);
}

const SweepAxis* SweepSpec::find(std::string_view name) const {
    for (const SweepAxis& a : parameters)
        if (a.param->name == name) return &a;
    return nullptr;
}

void check_text_value(const ParamInfo& p, const ParamValue& v, const InputLocation& where) { check_option_text(p, v, where); }

SweepSpec read_sweep_spec(const ConfigValue& root, const std::string& base_dir) {
    if (root.type != ConfigValue::Type::Table) fail_at(root, "expected a table of parameters");
    SweepSpec spec;
    spec.base_dir = base_dir;
    const ConfigValue* constraints = nullptr;
    for (const auto& [key, value] : root.fields) {
        if (key == "name" || key == "description" || key == "sources") continue;
        if (key == "constraints") {
            constraints = &value;
        } else if (key == "objective") {
            const auto o = parse_sweep_objective(as_string(value));
            if (!o) fail_at(value, "expected time, tokens_per_s, tokens_per_s_per_gpu, mfu, memory or cost, got '" + value.text + "'");
            spec.objective = *o;
        } else if (key == "top") {
            spec.top = as_positive_integer(value);
        } else if (key == "case") {
            if (value.type != ConfigValue::Type::List || value.items.empty())
                fail_at(value, "expected [[case]] tables, each a name and parameters");
            for (std::size_t i = 0; i < value.items.size(); ++i) spec.cases.push_back(read_case(value.items[i], i));
        } else {
            add_axis(spec.parameters, read_axis(key, value));
        }
    }
    if (constraints) read_constraints(*constraints, spec);  // after the parameters: memory_limit may clash
    // TOML tables keep no order: every source lists parameters in the registry's order.
    auto by_registry = [](const SweepAxis& a, const SweepAxis& b) { return a.param < b.param; };
    std::stable_sort(spec.parameters.begin(), spec.parameters.end(), by_registry);
    for (SweepCase& c : spec.cases) std::stable_sort(c.axes.begin(), c.axes.end(), by_registry);
    return spec;
}

}  // namespace dtcalc
