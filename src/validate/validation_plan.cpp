#include "validate/validation_plan.h"

#include <fmt/format.h>

#include <filesystem>

#include "config/config_readers.h"

namespace dtcalc {
namespace fs = std::filesystem;

bool group_matches(std::string_view pattern, std::string_view group) {
    // Classic wildcard matching with backtracking to the last '*'.
    std::size_t p = 0, g = 0, star = std::string_view::npos, mark = 0;
    while (g < group.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = g;
        } else if (p < pattern.size() && pattern[p] == group[g]) {
            ++p;
            ++g;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            g = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

ValidationPlan load_validation_plan(const std::string& path) {
    ValidationPlan plan;
    plan.path = path;
    const fs::path folder = fs::path(path).parent_path();
    // A path in the plan, read from the plan's folder unless absolute.
    const auto from_plan = [&folder](const std::string& p) {
        return fs::path(p).is_absolute() ? p : (folder / p).lexically_normal().string();
    };
    const ConfigValue root = read_toml_file(path);
    ConfigTableReader reader(root);

    for (const ConfigValue& entry : reader.list("dataset")) {
        if (entry.type != ConfigValue::Type::Table) fail_at(entry, "expected a [[dataset]] table");
        ConfigTableReader r(entry);
        DatasetSpec spec;
        spec.where = entry.where;
        spec.name = r.string("name");
        for (const DatasetSpec& other : plan.datasets)
            if (other.name == spec.name)
                fail_at(r.required("name"), "a dataset named '" + spec.name + "' already exists");
        const ConfigValue& kind = r.required("kind");
        spec.kind = as_string(kind);
        if (!find_dataset_kind(spec.kind)) {
            std::string known;
            for (const DatasetKind& k : dataset_kinds()) known += (known.empty() ? "" : ", ") + std::string(k.name);
            fail_at(kind, "unknown dataset kind '" + spec.kind + "' (known: " + known + ")");
        }
        const std::string file = r.string("file");
        spec.file = from_plan(file);
        // A preset file (a .toml path) is read from the gates file's folder, as `file` is; a
        // name is looked up on the preset search path.
        spec.preset = r.optional_string("preset").value_or("");
        if (spec.preset.ends_with(".toml")) spec.preset = from_plan(spec.preset);
        spec.algorithm = r.optional_string("algorithm").value_or("");
        spec.protocol = r.optional_string("protocol").value_or("");
        if (const ConfigValue* v = entry.find("algorithm")) spec.algorithm_where = v->where;
        if (const ConfigValue* v = entry.find("protocol")) spec.protocol_where = v->where;
        // Further NCCL settings the runs were made with: ["NCCL_MAX_CTAS=8", ...].
        if (const ConfigValue* env = r.optional("env")) {
            if (env->type != ConfigValue::Type::List) fail_at(*env, "expected a list of \"VARIABLE=VALUE\" strings");
            for (const ConfigValue& item : env->items) spec.env.push_back(as_string(item));
            spec.env_where = env->where;
        }
        if (const ConfigValue* inputs = r.optional("inputs")) {
            if (inputs->type != ConfigValue::Type::Table) fail_at(*inputs, "expected a table of input files");
            for (const auto& [key, value] : inputs->fields) {
                const std::string& path = as_string(value);
                spec.inputs.emplace_back(key, from_plan(path));
            }
        }
        r.ignore({"description"});
        r.finish();
        plan.datasets.push_back(std::move(spec));
    }
    for (const ConfigValue& entry : reader.list("gate")) {
        if (entry.type != ConfigValue::Type::Table) fail_at(entry, "expected a [[gate]] table");
        ConfigTableReader r(entry);
        Gate gate;
        gate.where = entry.where;
        const ConfigValue& dataset = r.required("dataset");
        gate.dataset = as_string(dataset);
        bool known = false;
        for (const DatasetSpec& spec : plan.datasets) known = known || spec.name == gate.dataset;
        if (!known) fail_at(dataset, "no [[dataset]] named '" + gate.dataset + "'");
        gate.group = r.string("group");
        const ConfigValue& metric = r.required("metric");
        const auto parsed = parse_error_metric(as_string(metric));
        if (!parsed) fail_at(metric, "expected geomean, median, max or mean, got '" + metric.text + "'");
        gate.metric = *parsed;
        const ConfigValue& bound = r.required("bound");
        gate.bound = as_positive_number(bound);
        if (gate.bound > 10) fail_at(bound, "a bound is a fraction (0.05 = 5 %), got " + fmt::format("{}", gate.bound));
        gate.why = r.optional_string("why").value_or("");
        r.finish();
        plan.gates.push_back(std::move(gate));
    }
    reader.finish();
    return plan;
}

}  // namespace dtcalc
