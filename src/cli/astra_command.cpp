#include "cli/astra_command.h"
#include "cli/cli_common.h"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>

#include "chakra/astra_run.h"
#include "core/error.h"
#include "report/astra_log.h"
#include "report/chrome_trace.h"

namespace dtcalc::cli {
namespace {

struct AstraOptions {
    chakra::AstraRunFiles files;
    std::string backend = "unaware";
    std::string format = "log";
    std::string peak_memory = "bytes";
    std::string log_time = "fixed";
    std::string trace_json;
    // ASTRA-sim's other flags: accepted at the values dtcalc models.
    int num_queues_per_dim = 1;
    double compute_scale = 1, comm_scale = 1, injection_scale = 1;
    std::string rendezvous = "false";
    std::string logging_configuration, logging_folder;
};

NetworkBackend parse_backend(const std::string& text) {
    if (text == "unaware" || text == "astra-unaware" || text == "congestion-unaware") return NetworkBackend::AstraUnaware;
    if (text == "aware" || text == "astra-aware" || text == "congestion-aware") return NetworkBackend::AstraAware;
    throw InputError({"--backend", 0, 0, ""}, "expected unaware or aware, got '" + text + "'");
}

void check_unmodelled(const AstraOptions& o) {
    if (o.num_queues_per_dim != 1)
        throw InputError({"--num-queues-per-dim", 0, 0, ""},
                         "only 1 queue per dimension (ASTRA-sim's default) is modelled, got " +
                             std::to_string(o.num_queues_per_dim));
    const std::pair<const char*, double> scales[] = {
        {"--compute-scale", o.compute_scale}, {"--comm-scale", o.comm_scale}, {"--injection-scale", o.injection_scale}};
    for (const auto& [flag, value] : scales)
        if (value != 1) throw InputError({flag, 0, 0, ""}, fmt::format("only 1 (ASTRA-sim's default) is modelled, got {}", value));
    if (o.rendezvous != "false" && o.rendezvous != "0")
        throw InputError({"--rendezvous-protocol", 0, 0, ""}, "only false (ASTRA-sim's default) is modelled, got '" +
                                                                 o.rendezvous + "'");
}

std::string timestamp(const std::string& mode) {
    if (mode == "fixed") return "1970-01-01 00:00:00.000";
    if (mode != "now") throw InputError({"--log-time", 0, 0, ""}, "expected fixed or now, got '" + mode + "'");
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm local{};
    localtime_r(&t, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
    return fmt::format("{}.{:03}", text, ms);
}

void run(const AstraOptions& options) {
    check_unmodelled(options);
    AstraLogOptions log;
    if (options.peak_memory != "bytes" && options.peak_memory != "human")
        throw InputError({"--peak-memory", 0, 0, ""}, "expected bytes or human, got '" + options.peak_memory + "'");
    log.human_memory = options.peak_memory == "human";
    log.timestamp = timestamp(options.log_time);
    if (options.format != "log" && options.format != "csv" && options.format != "json")
        throw InputError({"--format", 0, 0, ""}, "expected log, csv or json, got '" + options.format + "'");
    chakra::AstraRunFiles files = options.files;
    files.backend = parse_backend(options.backend);

    const chakra::AstraRun result = chakra::run_astra(files);
    const WarningsAtEnd warnings(result.warnings);

    if (!options.trace_json.empty()) {
        std::ofstream out(options.trace_json);
        if (!out) throw InputError({"--trace", 0, 0, ""}, "cannot write '" + options.trace_json + "'");
        write_chrome_trace(out, result.trace.graph, result.schedule);
    }
    if (options.format == "log") {
        write_astra_log(std::cout, result.ranks, log);
    } else if (options.format == "csv") {
        write_astra_csv(std::cout, result.ranks);
    } else {
        const AstraRunSummary summary{files.workload, result.system.network.total_npus(), result.trace.graph.roles,
                                      result.trace.traces.nodes};
        write_astra_json(std::cout, summary, result.ranks);
    }
}

}  // namespace

void setup_astra_command(CLI::App& app, const std::vector<std::string>&) {
    auto o = std::make_shared<AstraOptions>();
    CLI::App* c = app.add_subcommand(
        "astra", "Run Chakra traces as ASTRA-sim's analytical binaries do, with their flags and log lines");
    c->add_option("--workload-configuration", o->files.workload, "Trace prefix: PREFIX.<rank>.et for every NPU")
        ->required();
    c->add_option("--comm-group-configuration", o->files.comm_groups,
                  "Communicator groups JSON (default 'empty': every collective spans all NPUs)");
    c->add_option("--system-configuration", o->files.system, "ASTRA-sim system JSON")->required();
    c->add_option("--network-configuration", o->files.network, "ASTRA-sim network YAML")->required();
    c->add_option("--remote-memory-configuration", o->files.remote_memory,
                  "ASTRA-sim remote-memory JSON (default: NO_MEMORY_EXPANSION)");
    c->add_option("--backend", o->backend, "unaware | aware: which analytical binary to mimic (default unaware)");
    c->add_option("--format", o->format, "log (ASTRA-sim's lines) | csv | json (default log)");
    c->add_option("--peak-memory", o->peak_memory, "bytes | human ('46.56 GB', as newer ASTRA-sim prints; default bytes)");
    c->add_option("--log-time", o->log_time, "fixed | now: the time stamp on the log lines (default fixed)");
    c->add_option("--trace", o->trace_json, "Write a Chrome trace-event JSON timeline (one process per role)");
    c->add_option("--threads", o->files.threads, "Threads reading trace files (default: the machine's cores, at most 8)");
    c->add_option("--num-queues-per-dim", o->num_queues_per_dim, "ASTRA-sim's flag; only 1 is modelled");
    c->add_option("--compute-scale", o->compute_scale, "ASTRA-sim's flag; only 1 is modelled");
    c->add_option("--comm-scale", o->comm_scale, "ASTRA-sim's flag; only 1 is modelled");
    c->add_option("--injection-scale", o->injection_scale, "ASTRA-sim's flag; only 1 is modelled");
    c->add_option("--rendezvous-protocol", o->rendezvous, "ASTRA-sim's flag; only false is modelled");
    c->add_option("--logging-configuration", o->logging_configuration,
                  "ASTRA-sim's spdlog configuration: accepted, no effect (dtcalc writes to stdout)");
    c->add_option("--logging-folder", o->logging_folder, "ASTRA-sim's log folder: accepted, no effect");
    c->callback([o] { run(*o); });
}

}  // namespace dtcalc::cli
