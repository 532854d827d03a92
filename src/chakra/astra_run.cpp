#include "chakra/astra_run.h"

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
    run.network = load_astra_network_yaml(files.network);
    run.system = load_astra_system_json(files.system, run.network.dimensions.size());
    if (run.system.roofline_enabled && run.system.peak_perf_tflops <= 0)
        throw InputError({files.system, 0, 0, "peak-perf"}, "missing: roofline-enabled needs peak-perf (TFLOP/s)");
    TimingModel model;
    model.network = &run.network;
    model.system = &run.system;
    model.backend = files.backend;
    model.replay_only = system_replay_only(files.system);
    model.remote = load_remote_memory(files.remote_memory);
    const long long npus = run.network.total_npus();
    const CommGroupTable groups = load_comm_groups(files.comm_groups, npus);

    DecodeOptions options;
    options.tensors = run.system.track_local_mem;
    TraceSet traces = load_trace_set(files.workload, npus, options, files.threads);
    run.trace = build_trace_graph(std::move(traces), groups, model);

    EvaluationSystem eval = roofline_evaluation(run.network, run.system, files.backend);
    eval.issue = IssuePolicy::ReadyLowestIndex;
    run.schedule = evaluate(run.trace.graph, eval);
    run.ranks = astra_statistics(run.trace, run.schedule, run.system);
    return run;
}

}  // namespace dtcalc::chakra
