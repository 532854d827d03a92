#include "capi/embedded_calls.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <span>
#include <sstream>
#include <utility>

#include "collective/collective_cost.h"
#include "config/config_readers.h"
#include "config/system_source.h"
#include "core/error.h"
#include "core/units.h"
#include "predict/predict_options.h"
#include "report/collective_report.h"
#include "report/predict_report.h"
#include "sweep/step_replay.h"

namespace dtcalc {
namespace {

// The table without the keys only the embedding reads.
ConfigValue without(const ConfigValue& table, std::span<const std::string_view> keys) {
    ConfigValue out = table;
    std::erase_if(out.fields, [&](const auto& field) {
        for (std::string_view k : keys)
            if (field.first == k) return true;
        return false;
    });
    return out;
}

void require_table(const ConfigValue& config) {
    if (config.type != ConfigValue::Type::Table) fail_at(config, "expected a table of settings");
}

std::vector<std::string> split_path(const std::string& text) {
    std::vector<std::string> dirs;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t colon = std::min(text.find(':', start), text.size());
        if (colon > start) dirs.push_back(text.substr(start, colon - start));
        start = colon + 1;
    }
    return dirs;
}

std::vector<std::string> search_dirs(const ConfigValue* config, const char* key, const std::vector<std::string>& usual) {
    std::vector<std::string> dirs;
    if (config && config->type == ConfigValue::Type::Table)
        if (const ConfigValue* v = config->find(key)) dirs = split_path(as_string(*v));
    dirs.insert(dirs.end(), usual.begin(), usual.end());
    return dirs;
}

SweepSettings run_settings(const ConfigValue& config) {
    SweepSettings s;
    if (const ConfigValue* v = config.find("threads")) {
        const double threads = as_non_negative_number(*v);  // 0: every core; each worker's scratch is allocated up front
        if (threads != std::floor(threads) || threads > 1024) fail_at(*v, fmt::format("expected 0 (every core) to 1024 threads, got {}", threads));
        s.threads = static_cast<int>(threads);
    }
    if (const ConfigValue* v = config.find("feasible_only")) {
        if (v->type != ConfigValue::Type::Bool) fail_at(*v, "expected true or false");
        s.feasible_only = v->boolean;
    }
    return s;
}

constexpr std::string_view kEmbeddingKeys[] = {"preset_path", "model_path", "threads", "feasible_only"};

}  // namespace

ConfigValue parse_config_text(const std::string& text, const std::string& source) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) throw InputError({source, 0, 0, ""}, "empty: expected TOML or JSON settings");
    if (text.find('\0') != std::string::npos) throw InputError({source, 0, 0, ""}, "holds a NUL byte: expected TOML or JSON text");
    return text[first] == '{' ? parse_json_text(text, source) : parse_toml_text(text, source);
}

std::vector<std::string> embedded_preset_dirs(const ConfigValue* config, const std::string& library_path) {
    return search_dirs(config, "preset_path", preset_search_dirs(library_path));
}

std::vector<std::string> embedded_model_dirs(const ConfigValue* config, const std::string& library_path) {
    return search_dirs(config, "model_path", model_search_dirs(library_path));
}

std::string predict_json(const ConfigValue& config, const std::string& library_path) {
    require_table(config);
    PredictOptions options;
    apply_scenario(without(config, kEmbeddingKeys), options);
    const ResolvedPrediction resolved = [&] {
        try {
            return resolve_prediction(options, embedded_preset_dirs(&config, library_path), embedded_model_dirs(&config, library_path));
        } catch (const OptionError& e) {
            if (const ConfigValue* v = config.find(e.option())) throw OptionError(e, v->where);  // its key and line
            throw;
        }
    }();
    check_plan(resolved.inputs);
    const PredictResult result = predict_numbers(resolved.inputs);
    std::ostringstream out;
    write_predict_json(out, resolved.inputs, result,
                       predict_labels(resolved));
    return out.str();
}

std::string collective_json(const ConfigValue& config, const std::string& library_path) {
    require_table(config);
    const ConfigValue settings = without(config, kEmbeddingKeys);
    ConfigTableReader r(settings);
    const ConfigValue& kind_value = r.required("kind");
    const auto kind = parse_collective_kind(as_string(kind_value));
    if (!kind) fail_at(kind_value, "expected all-reduce, reduce-scatter, all-gather, all-to-all or send-recv, got '" + kind_value.text + "'");
    const ConfigValue& size_value = r.required("size");
    const std::string size_text =
        size_value.type == ConfigValue::Type::String ? size_value.text : fmt::format("{}", as_positive_number(size_value));  // 1.5 stays 1.5, refused below
    const auto sizes = parse_byte_size_range(size_text);
    if (!sizes) fail_at(size_value, "expected a size like 1048576 or 1MiB, or a range like 1KiB:1GiB of at most 4096 sizes, got '" + size_text + "'");
    for (std::uint64_t size : *sizes)
        if (size > kMaxMessageBytes) fail_at(size_value, byte_size_out_of_range(size));
    SystemSource source;
    if (auto v = r.optional_string("preset")) source.preset = *v;
    if (auto v = r.optional_string("network")) source.network_file = *v;
    if (auto v = r.optional_string("system")) source.system_file = *v;
    if (auto v = r.optional_string("backend")) source.backend = *v;
    // A cluster from the hardware catalogue, as the command line's --gpu, --nic, ...
    if (auto v = r.optional_string("gpu")) source.gpu = *v;
    if (auto v = r.optional_string("nic")) source.nic = *v;
    if (auto v = r.optional_string("host_cpu")) source.host_cpu = *v;
    if (const ConfigValue* v = r.optional("nics_per_node")) source.nics_per_node = as_positive_integer(*v);
    if (const ConfigValue* v = r.optional("nics_per_gpu")) source.nics_per_gpu = as_positive_integer(*v);
    std::optional<long long> npus;
    if (const ConfigValue* v = r.optional("nodes")) source.nodes = as_positive_integer(*v);
    if (const ConfigValue* v = r.optional("gpus_per_node")) source.gpus_per_node = as_positive_integer(*v);
    if (const ConfigValue* v = r.optional("npus")) npus = as_positive_integer(*v);
    const ConfigValue* algo = r.optional("algo");
    const ConfigValue* proto = r.optional("proto");
    const ConfigValue* min_nchannels = r.optional("min_nchannels");
    const ConfigValue* max_nchannels = r.optional("max_nchannels");
    // NCCL settings as VARIABLE=VALUE, as --env: one string or a list of them.
    std::vector<std::string> env;
    const ConfigValue* env_value = r.optional("env");
    if (env_value) {
        if (env_value->type == ConfigValue::Type::List) {
            for (const ConfigValue& item : env_value->items) env.push_back(as_string(item));
        } else {
            env.push_back(as_string(*env_value));
        }
    }
    // nccl-tests' -d and -o (float and sum where not given).
    NcclReduction reduction;
    if (const ConfigValue* v = r.optional("datatype")) {
        const auto type = parse_nccl_datatype(as_string(*v));
        if (!type)
            fail_at(*v, "expected nccl-tests' " + nccl_datatype_choices() + ", got '" + v->text + "'");
        reduction.type = *type;
    }
    if (const ConfigValue* v = r.optional("op")) {
        const auto op = parse_nccl_redop(as_string(*v));
        if (!op) fail_at(*v, "expected nccl-tests' " + nccl_redop_choices() + ", got '" + v->text + "'");
        reduction.op = *op;
    }
    r.finish();
    if ((source.nodes || source.gpus_per_node) && npus)
        throw InputError({"npus", 0, 0, ""}, "give either npus or nodes/gpus_per_node, not both");
    ResolvedSystem sys = resolve_system(source, embedded_preset_dirs(&config, library_path));
    CollectiveQuery query;
    query.kind = *kind;
    query.out_of_place = true;  // as `dtcalc collective`: nccl-tests' first time column
    query.reduction = reduction;
    query.group = npus ? first_npus_group(sys.system.network, *npus, "npus") : whole_network_group(sys.system.network);
    query.nccl = nccl_force_option(sys.system, algo ? as_string(*algo) : "", proto ? as_string(*proto) : "",
                                   algo ? algo->where : InputLocation{"", 0, 0, "algo"},
                                   proto ? proto->where : InputLocation{"", 0, 0, "proto"});
    for (const auto& [value, minimum] : {std::pair{min_nchannels, true}, std::pair{max_nchannels, false}}) {
        if (!value) continue;
        const double n = as_non_negative_number(*value);
        if (n != std::floor(n)) fail_at(*value, "expected a whole number of channels, got '" + value->text + "'");
        apply_nccl_channel_option(query.nccl, sys.system, minimum, static_cast<long long>(std::min(n, 1e6)),
                                  value->where);
    }
    if (env_value)
        apply_nccl_env_options(query.nccl, sys.system, env,
                               nccl_variables_by_options(algo != nullptr, proto != nullptr, min_nchannels != nullptr,
                                                         max_nchannels != nullptr),
                               env_value->where);
    std::vector<CollectiveRow> rows;
    for (std::uint64_t size : *sizes) {
        query.bytes = size;
        rows.push_back({*kind, size, query.group.size(), sys.system.backend, collective_time(sys.system, query)});
    }
    std::ostringstream out;
    write_collective_json(out, rows);
    return out.str();
}

std::string sweep_json(const ConfigValue& config, const std::string& library_path) {
    require_table(config);
    SweepSettings settings = run_settings(config);
    settings.format = SweepFormat::JsonLines;
    const Sweep sweep(read_sweep_spec(without(config, kEmbeddingKeys), ""), embedded_preset_dirs(&config, library_path),
                      embedded_model_dirs(&config, library_path));
    std::string out = "[";
    bool first = true;
    sweep.run(settings, [&](std::string_view lines) {
        std::size_t start = 0;
        while (start < lines.size()) {
            const std::size_t end = std::min(lines.find('\n', start), lines.size());
            if (end > start) {
                out += first ? "\n  " : ",\n  ";
                out.append(lines.substr(start, end - start));
                first = false;
            }
            start = end + 1;
        }
    });
    return out + "\n]\n";
}

std::string sweep_csv(const std::string& spec_file, const ConfigValue& overrides, const std::string& library_path) {
    require_table(overrides);
    SweepSpec spec;
    if (!spec_file.empty()) {
        const bool json = spec_file.size() > 5 && spec_file.compare(spec_file.size() - 5, 5, ".json") == 0;
        const ConfigValue root = json ? read_json_file(spec_file) : read_toml_file(spec_file);
        const std::size_t slash = spec_file.find_last_of('/');
        spec = read_sweep_spec(root, slash == std::string::npos ? "" : spec_file.substr(0, slash));
    }
    SweepSettings settings = run_settings(overrides);
    for (const auto& [key, value] : overrides.fields) {
        if (key == "preset_path" || key == "model_path" || key == "threads" || key == "feasible_only") continue;
        if (key == "npus") {
            spec.npus = as_positive_integer(value);
        } else if (key == "rules") {
            if (value.type != ConfigValue::Type::List) fail_at(value, "expected a list of rules");
            for (const ConfigValue& rule : value.items) spec.rules.push_back(ConstraintRule::parse(as_string(rule), rule.where));
        } else if (key == "objective") {
            const auto o = parse_sweep_objective(as_string(value));
            if (!o) fail_at(value, "expected time, tokens_per_s, tokens_per_s_per_gpu, mfu, memory or cost, got '" + value.text + "'");
            spec.objective = *o;
        } else if (key == "top") {
            spec.top = as_positive_integer(value);
        } else {
            const ParamInfo* p = find_parameter(key);
            if (!p) fail_at(value, "unknown parameter" + parameter_suggestion(key));
            std::vector<ParamValue> values = expand_value_config(*p, value);
            for (const ParamValue& v : values) check_text_value(*p, v, value.where);
            spec.set(*p, std::move(values), value.where);
        }
    }
    const Sweep sweep(std::move(spec), embedded_preset_dirs(&overrides, library_path), embedded_model_dirs(&overrides, library_path));
    std::string out;
    sweep.run(settings, [&](std::string_view s) { out += s; });
    return out;
}

}  // namespace dtcalc
