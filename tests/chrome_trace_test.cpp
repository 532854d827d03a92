// The Chrome trace loads back as JSON with one track per stream, and spans on
// one track never overlap.
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/chrome_trace.h"
#include "workload/astra_v1_workload.h"

using namespace dtcalc;

TEST_CASE("trace of the DLRM workload: structure and no overlap per track") {
    System machine;
    Network& network = machine.network;
    network.dimensions = {{Topology::Switch, 8, 400, 936.25}};
    SystemConfig& system = machine.config;
    for (auto& list : system.implementation) list.assign(1, {AlgorithmKind::Ring, false});
    system.preferred_dataset_splits = 4;
    system.active_chunks_per_dimension = 2;
    system.endpoint_delay_ns = 10;
    system.local_mem_bw_gbps = 3350;
    const V1Workload w = parse_v1_workload(std::string(DTCALC_VALIDATION_DIR) + "/workloads/DLRM_HybridParallel.txt");
    const WorkloadGraph graph = build_v1_training_graph(w, network, 2);
    EvaluationSystem eval;
    eval.system = &machine;
    const Schedule schedule = evaluate(graph, eval);

    std::ostringstream out;
    write_chrome_trace(out, graph, schedule);
    const auto doc = nlohmann::json::parse(out.str());
    REQUIRE(doc.contains("traceEvents"));
    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> spans;
    int complete = 0;
    bool named_compute = false;
    for (const auto& e : doc["traceEvents"]) {
        REQUIRE(e.contains("ph"));
        REQUIRE(e.contains("pid"));
        if (e["ph"] == "X") {
            ++complete;
            REQUIRE(e.contains("ts"));
            REQUIRE(e.contains("dur"));
            CHECK(e["dur"].get<double>() >= 0);
            spans[{e["pid"].get<int>(), e["tid"].get<int>()}].emplace_back(e["ts"].get<double>(),
                                                                             e["ts"].get<double>() + e["dur"].get<double>());
        }
        if (e["ph"] == "M" && e["name"] == "thread_name" && e["args"]["name"] == "compute") named_compute = true;
    }
    CHECK(named_compute);
    // Every op but the receives is a complete event (this workload has none).
    CHECK(complete == static_cast<int>(graph.ops.size()));
    CHECK(spans.size() >= 2);  // compute and the network dimension
    for (auto& [track, list] : spans) {
        std::sort(list.begin(), list.end());
        for (std::size_t i = 1; i < list.size(); ++i) {
            CAPTURE(track.second);
            CHECK(list[i].first >= list[i - 1].second - 1e-6);
        }
    }
}
