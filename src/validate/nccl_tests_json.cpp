#include "validate/nccl_tests_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string_view>

#include "config/config_readers.h"
#include "validate/log_tokens.h"
#include "validate/nccl_debug_lines.h"

namespace dtcalc {
namespace {

using Json = nlohmann::json;

constexpr long long kMaxRanks = 1 << 24;  // the largest network dtcalc takes (core/units.h)

[[noreturn]] void fail(const std::string& path, const std::string& key, const std::string& what) {
    throw InputError({path, 0, 0, key}, what);
}

const Json* member(const Json& object, const char* name) {
    const auto it = object.find(name);
    return it == object.end() ? nullptr : &*it;
}

std::string_view json_type(const Json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "a list";
    return "an object";
}

// A whole number of at least `least` (JSON integer), else an error naming `key`.
long long whole(const Json& v, long long least, const std::string& path, const std::string& key,
                const char* what) {
    if (!v.is_number_integer() || v.get<long long>() < least)
        fail(path, key,
             std::string("expected ") + what + " (a whole number of at least " + std::to_string(least) + "), got " +
                 (v.is_number() ? v.dump() : std::string(json_type(v))));
    return v.get<long long>();
}

const std::string& string_at(const Json& v, const std::string& path, const std::string& key) {
    if (!v.is_string()) fail(path, key, "expected a string, got " + std::string(json_type(v)));
    return v.get_ref<const std::string&>();
}

std::string trimmed(std::string_view s) {
    const auto tokens = split_blanks(s);
    return tokens.size() == 1 ? std::string(tokens[0]) : std::string(s);
}

NcclTestsRow read_result(const Json& result, const std::string& path, const std::string& key) {
    if (!result.is_object()) fail(path, key, "expected a result object, got " + std::string(json_type(result)));
    NcclTestsRow row;
    row.at = {path, 0, 0, key};
    const Json* size = member(result, "size");
    if (!size) fail(path, key, "missing 'size', the bytes nccl-tests counts");
    row.bytes = static_cast<std::uint64_t>(whole(*size, 0, path, key + ".size", "the size in bytes"));
    if (const Json* count = member(result, "count"))
        row.count = whole(*count, 0, path, key + ".count", "a whole number of elements");
    if (const Json* type = member(result, "type")) row.type = string_at(*type, path, key + ".type");
    if (const Json* redop = member(result, "redop")) row.redop = string_at(*redop, path, key + ".redop");
    if (const Json* root = member(result, "root")) {
        // nccl-tests writes it as printed: "    -1".
        const std::optional<long long> rank =
            root->is_number_integer() ? std::optional<long long>(root->get<long long>())
                                      : whole_number(trimmed(string_at(*root, path, key + ".root")));
        if (!rank) fail(path, key + ".root", "expected a rank or -1, got " + root->dump());
        row.root = rank;
    }
    const Json* timing = member(result, "out_of_place");
    if (!timing) fail(path, key, "missing 'out_of_place', the out-of-place time dtcalc reads");
    if (timing->is_null())
        fail(path, key + ".out_of_place",
             "null: nccl-tests timed this size in place only (trace replay); dtcalc reads the out-of-place time");
    if (!timing->is_object())
        fail(path, key + ".out_of_place", "expected an object, got " + std::string(json_type(*timing)));
    const char* name = member(*timing, "time") ? "time" : "cpu_time";
    const Json* time = member(*timing, name);
    const std::string time_key = key + ".out_of_place." + name;
    if (!time) fail(path, key + ".out_of_place", "missing 'time' (or 'cpu_time'), the out-of-place time in us");
    if (!time->is_number() || !(time->get<double>() > 0))
        fail(path, time_key, "expected the out-of-place time in us (> 0), got " +
                                 (time->is_number() ? time->dump() : std::string(json_type(*time))));
    row.time_us = time->get<double>();
    return row;
}

}  // namespace

bool looks_like_json(const std::string& text) {
    for (const char c : text) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        return c == '{';
    }
    return false;
}

NcclTestsLog parse_nccl_tests_json(const std::string& text, const std::string& path, const NcclLogShape& shape) {
    check_json_text(text, path);
    const Json document = Json::parse(text);
    if (!document.is_object()) fail(path, "", "not nccl-tests JSON output: expected an object");
    const Json* results = member(document, "results");
    if (!results)
        fail(path, "",
             "not nccl-tests JSON output: no 'results' list, which nccl-tests -J writes (nor nccl-tests' text "
             "output, nor a dataset CSV with 'collective' and 'size_bytes' columns)");
    if (!results->is_array()) fail(path, "results", "expected a list, got " + std::string(json_type(*results)));

    NcclTestsRun run;
    run.header_at = {path, 0, 0, "config"};
    run.hosts_named_by = "devices";
    run.hosts_expected = "config.devices entries";
    if (const Json* args = member(document, "args")) {
        if (!args->is_array()) fail(path, "args", "expected a list, got " + std::string(json_type(*args)));
        if (!args->empty()) {
            run.program = string_at((*args)[0], path, "args[0]");
            run.program_at = {path, 0, 0, "args[0]"};
        }
    }
    if (const Json* env = member(document, "env")) {
        if (!env->is_array()) fail(path, "env", "expected a list, got " + std::string(json_type(*env)));
        for (std::size_t i = 0; i < env->size(); ++i) {
            const std::string key = "env[" + std::to_string(i) + "]";
            const std::string& entry = string_at((*env)[i], path, key);
            const auto eq = entry.find('=');
            if (eq == std::string::npos) continue;
            const std::string variable = entry.substr(0, eq);
            if (nccl_setting_modelled(variable)) {
                // The first entry of a variable counts, as getenv finds it.
                if (std::none_of(run.settings.begin(), run.settings.end(),
                                 [&](const NcclStatedSetting& s) { return s.variable == variable; }))
                    run.settings.push_back({variable, entry.substr(eq + 1), {path, 0, 0, key}});
            } else if (variable.starts_with("NCCL_") && !nccl_setting_changes_nothing_timed(variable)) {
                run.unmodelled_settings.push_back(entry);
            }
        }
    }
    long long gpus_per_process = 1;
    if (const Json* config = member(document, "config")) {
        if (!config->is_object()) fail(path, "config", "expected an object, got " + std::string(json_type(*config)));
        long long threads = 1, gpus = 1, iterations = 20, graph = 0;
        if (const Json* v = member(*config, "nthreads")) threads = whole(*v, 1, path, "config.nthreads", "threads");
        if (const Json* v = member(*config, "ngpus")) gpus = whole(*v, 1, path, "config.ngpus", "GPUs per thread");
        if (const Json* v = member(*config, "iterations"))
            iterations = whole(*v, 1, path, "config.iterations", "timed iterations");
        if (const Json* v = member(*config, "graph")) graph = whole(*v, 0, path, "config.graph", "CUDA graph launches");
        if (threads > kMaxRanks || gpus > kMaxRanks || threads * gpus > kMaxRanks)
            fail(path, "config", "more than 2^24 GPUs per process: larger than any network dtcalc takes");
        run.gpus_per_thread = static_cast<int>(gpus);
        run.timed_operations = iterations * std::max(1LL, graph);
        gpus_per_process = threads * gpus;
        if (const Json* devices = member(*config, "devices")) {
            if (!devices->is_array())
                fail(path, "config.devices", "expected a list, got " + std::string(json_type(*devices)));
            if (static_cast<long long>(devices->size()) * gpus_per_process > kMaxRanks)
                fail(path, "config.devices", "more than 2^24 ranks: larger than any network dtcalc takes");
            // One entry per process, its first rank: the process drove
            // nthreads x ngpus GPUs of that host.
            for (std::size_t i = 0; i < devices->size(); ++i) {
                const std::string key = "config.devices[" + std::to_string(i) + "]";
                const Json& device = (*devices)[i];
                if (!device.is_object()) fail(path, key, "expected an object, got " + std::string(json_type(device)));
                const Json* host = member(device, "hostname");
                if (!host) fail(path, key, "missing 'hostname'");
                const std::string& name = string_at(*host, path, key + ".hostname");
                for (long long g = 0; g < gpus_per_process; ++g) run.rank_hosts.emplace_back(name, InputLocation{path, 0, 0, key});
            }
        }
    }
    for (std::size_t i = 0; i < results->size(); ++i)
        run.rows.push_back(read_result((*results)[i], path, "results[" + std::to_string(i) + "]"));
    NcclTestsLog out;
    append_nccl_tests_run(run, path, shape, out.rows);
    return out;
}

}  // namespace dtcalc
