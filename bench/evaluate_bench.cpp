// Evaluator throughput: ops per second on a 100k-op training-like graph
// (compute chains with a weight-gradient all-reduce every 8 ops, awaited later).
#include <benchmark/benchmark.h>

#include "schedule/evaluate.h"

namespace {

using namespace dtcalc;

WorkloadGraph make_graph(int ops, const CommGroup& group) {
    WorkloadGraph g;
    const int gid = g.add_group(group);
    g.ops.reserve(static_cast<std::size_t>(ops));
    int last = -1;
    std::vector<int> pending;
    for (int i = 0; static_cast<int>(g.ops.size()) < ops; ++i) {
        Op c;
        c.kind = OpKind::Compute;
        c.duration_ns = 1000 + (i % 7) * 100;
        std::vector<int> deps;
        if (last >= 0) deps.push_back(last);
        if (pending.size() > 4) {
            deps.push_back(pending.front());
            pending.erase(pending.begin());
        }
        last = g.add(c, deps);
        if (i % 8 == 7) {
            Op ar;
            ar.kind = OpKind::Collective;
            ar.collective = CollectiveKind::AllReduce;
            ar.group = gid;
            ar.comm_bytes = 1ull << (16 + (i / 8) % 8);
            pending.push_back(g.add(ar, {last}));
        }
    }
    return g;
}

void BM_Evaluate100kOps(benchmark::State& state) {
    System machine;
    Network& network = machine.network;
    for (int i = 0; i < 3; ++i) network.dimensions.push_back({Topology::Ring, 4, 100.0, 50.0});
    SystemConfig& system = machine.config;
    for (auto& list : system.implementation) list.assign(3, {AlgorithmKind::Ring, false});
    system.preferred_dataset_splits = 16;
    system.active_chunks_per_dimension = 2;
    system.endpoint_delay_ns = 10;
    system.local_mem_bw_gbps = 3350;
    system.collective_optimization = CollectiveOptimization::LocalBWAware;
    EvaluationSystem eval;
    eval.system = &machine;
    const WorkloadGraph graph = make_graph(static_cast<int>(state.range(0)), whole_network_group(network));
    for (auto _ : state) benchmark::DoNotOptimize(evaluate(graph, eval).wall_ns);
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(graph.ops.size()));
}
BENCHMARK(BM_Evaluate100kOps)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
