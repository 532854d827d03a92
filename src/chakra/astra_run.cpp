#include "chakra/astra_run.h"

#include "network/plausible_links.h"

#include "chakra/comm_groups.h"
#include "chakra/remote_memory.h"
#include "chakra/run_statistics.h"
#include "chakra/trace_set.h"
#include "config/config_readers.h"
#include "config/network_config.h"
#include "config/system_config_reader.h"
#include "core/error.h"

namespace dtcalc::chakra {

bool system_replay_only(const std::string& system_file) {
    const ConfigValue root = read_json_file(system_file);
    const ConfigValue* value = root.find("replay-only");
    if (value == nullptr) return false;
    if (value->type == ConfigValue::Type::Bool) return value->boolean;
    if (value->type == ConfigValue::Type::Integer && (value->number == 0 || value->number == 1)) return value->number != 0;
    fail_at(*value, "expected 0 or 1");
}

AstraRun run_astra(const AstraRunFiles& files) {
    AstraRun run;
    System& system = run.system;
    system.network = load_astra_network_yaml(files.network);
    for (const std::string& w : implausible_links(system.network)) run.warnings.push_back(files.network + ": " + w);
    system.config = load_astra_system_json(files.system, system.network.dimensions.size());
    if (system.config.roofline_enabled && system.config.peak_perf_tflops <= 0)
        throw InputError({files.system, 0, 0, "peak-perf"}, "missing: roofline-enabled needs peak-perf (TFLOP/s)");
    system.backend = files.backend;
    system.device.peak_tflops_bf16 = system.config.peak_perf_tflops;
    system.device.hbm_gbps = system.config.local_mem_bw_gbps;
    TimingModel model;
    model.system = &system;
    model.replay_only = system_replay_only(files.system);
    model.remote = load_remote_memory(files.remote_memory);
    const long long npus = system.network.total_npus();
    const CommGroupTable groups = load_comm_groups(files.comm_groups, npus);

    DecodeOptions options;
    options.tensors = system.config.track_local_mem;
    TraceSet traces = load_trace_set(files.workload, npus, options, files.threads);
    run.trace = build_trace_graph(std::move(traces), groups, model);

    EvaluationSystem eval = roofline_evaluation(system);
    eval.issue = IssuePolicy::ReadyLowestIndex;
    run.schedule = evaluate(run.trace.graph, eval);
    run.ranks = astra_statistics(run.trace, run.schedule, system.config);
    return run;
}

}  // namespace dtcalc::chakra
