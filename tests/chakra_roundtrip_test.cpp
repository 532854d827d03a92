// Export, read back, same prediction: a workload graph written as Chakra
// traces and run by `dtcalc astra` gives every NPU the timeline the graph
// itself gets under ASTRA-sim's issue policy.
#include <doctest/doctest.h>

#include <cmath>

#include "chakra/astra_config_files.h"
#include "chakra/astra_run.h"
#include "chakra/graph_export.h"
#include "chakra/trace_set.h"
#include "chakra_test_traces.h"
#include "config/network_config.h"
#include "config/system_config_reader.h"
#include "predict/predict.h"
#include "predict/predict_options.h"
#include "workload/astra_v1_workload.h"

using namespace dtcalc;
using namespace dtcalc::chakra;

namespace {

// Evaluates `graph` under ASTRA-sim's issue policy, exports it, runs the
// traces, and checks every NPU's finish against its role's wall time.
void check_round_trip(const WorkloadGraph& graph, const System& sys, const std::string& name, bool track_memory = false) {
    EvaluationSystem eval;
    eval.system = &sys;
    eval.device = roofline_device(sys.config.peak_perf_tflops, sys.config.local_mem_bw_gbps);
    eval.issue = IssuePolicy::ReadyLowestIndex;
    const Schedule direct = evaluate(graph, eval);

    const std::string prefix = testing::temp_path(name);
    const std::string groups = prefix + ".json";
    const std::string configs = testing::temp_path(name + "_configs");
    const ExportSummary summary = export_chakra(graph, sys, prefix, groups);
    System written = sys;
    written.config.track_local_mem = track_memory;
    write_astra_configs(configs, written, summary.roofline);

    AstraRunFiles files;
    files.workload = prefix;
    files.comm_groups = groups;
    files.network = configs + "/network.yml";
    files.system = configs + "/system.json";
    files.remote_memory = configs + "/remote_memory.json";
    const AstraRun run = run_astra(files);
    REQUIRE(run.ranks.size() == static_cast<std::size_t>(sys.network.total_npus()));
    std::vector<int> role_of = graph.rank_role;
    if (role_of.empty())
        for (int role = 0; role < graph.roles; ++role)
            for (std::int64_t k = 0; k < graph.role_npus[static_cast<std::size_t>(role)]; ++k) role_of.push_back(role);
    for (std::size_t r = 0; r < run.ranks.size(); ++r) {
        CAPTURE(r);
        const RoleSummary& want = direct.roles[static_cast<std::size_t>(role_of[r])];
        const RoleSummary& got = run.schedule.roles[static_cast<std::size_t>(run.trace.graph.rank_role[r])];
        // The same timeline, to the last bit of the double.
        CHECK(got.wall_ns == want.wall_ns);
        CHECK(got.compute_busy_ns == want.compute_busy_ns);
        // ASTRA-sim's statistics are whole cycles.
        CHECK(std::fabs(static_cast<double>(run.ranks[r].finish_cycles) - want.wall_ns) <= 0.5);
        CHECK(std::fabs(static_cast<double>(*run.ranks[r].gpu_cycles) - want.compute_busy_ns) <= 0.5);
    }
}

}  // namespace

TEST_CASE("an ASTRA-sim 1.0 text workload: export, read back, same timeline") {
    System sys;
    sys.network = load_astra_network_yaml(testing::chakra_dir() + "/network_system_16.yml");
    sys.config = load_astra_system_json(testing::chakra_dir() + "/system_system_16.json", 2);
    const WorkloadGraph graph = build_v1_training_graph(
        parse_v1_workload(std::string(DTCALC_VALIDATION_DIR) + "/workloads/resnet50_dp.txt"), sys.network, 2);
    check_round_trip(graph, sys, "resnet50_dp");
}

TEST_CASE("two roles with a send, a receive, a collective across them, host and memory ops") {
    System sys;
    sys.network.dimensions.push_back({Topology::Switch, 2, 1e9 / 1073741824.0, 5.0});
    sys.network.dimensions.push_back({Topology::Ring, 2, 50, 20.0});
    for (auto& list : sys.config.implementation) list.assign(2, {AlgorithmKind::Ring, false});
    sys.config.preferred_dataset_splits = 2;
    sys.config.active_chunks_per_dimension = 1;
    sys.config.endpoint_delay_ns = 3;
    sys.config.local_mem_bw_gbps = 100;

    WorkloadGraph g;
    g.roles = 2;
    g.role_npus = {2, 2};
    const int everyone = g.add_group(whole_network_group(sys.network));
    CommGroup pair;
    pair.members = {2, 1};  // dimension 0: the two NPUs of a role
    const int inner = g.add_group(pair);
    CommGroup across;
    across.members = {1, 2};  // dimension 1: one NPU of each role
    const int outer = g.add_group(across);
    auto op = [&](OpKind kind, int role, double ns) {
        Op o;
        o.kind = kind;
        o.role = role;
        o.duration_ns = ns;
        return o;
    };
    // Role 0
    const int c0 = g.add(op(OpKind::Compute, 0, 1000));
    Op s0 = op(OpKind::Send, 0, -1);
    s0.group = outer;
    s0.comm_bytes = 4096;
    s0.peer_role = 1;
    s0.tag = 9;
    const int send0 = g.add(s0, {c0});
    Op ar0 = op(OpKind::Collective, 0, -1);
    ar0.group = inner;
    ar0.comm_bytes = 1 << 20;
    const int inner0 = g.add(ar0, {c0});
    Op host = op(OpKind::Compute, 0, 700);
    host.host = true;
    g.add(host);
    Op mem = op(OpKind::Memory, 0, 250);
    mem.bytes = 50000;
    g.add(mem, {inner0});
    // Role 1
    Op r1 = op(OpKind::Recv, 1, -1);
    r1.peer_role = 0;
    r1.tag = 9;
    const int recv1 = g.add(r1);
    const int c1 = g.add(op(OpKind::Compute, 1, 300), {recv1});
    // Both roles: an all-reduce over every NPU, synchronised.
    Op all = op(OpKind::Collective, 0, -1);
    all.group = everyone;
    all.comm_bytes = 1 << 16;
    all.sync = 1;
    g.add(all, {send0});
    all.role = 1;
    g.add(all, {c1});
    check_round_trip(g, sys, "two_roles");
}

TEST_CASE("a model-builder workload (Llama-2 7B, TP 4, PP 4, 1F1B on 64 NPUs): export, read back, same timeline") {
    PredictOptions options;
    options.model = "llama2-7b";
    options.system.preset = "lab-system1";
    options.tp = 4;
    options.pp = 4;
    options.mbs = 1;
    options.gbs = 16;
    const std::vector<std::string> presets{DTCALC_PRESETS_DIR};
    const std::vector<std::string> models{std::string(DTCALC_PRESETS_DIR) + "/../models"};
    const ResolvedPrediction resolved = resolve_prediction(options, presets, models);
    const PredictResult result = predict(resolved.inputs);
    REQUIRE(result.plan_problems.empty());
    System sys = resolved.inputs.system;
    sys.backend = NetworkBackend::AstraUnaware;  // the backend ASTRA-sim's run takes
    check_round_trip(result.step.graph, sys, "llama2_7b_tp4_pp4");
}
