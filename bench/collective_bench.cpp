// Collective queries per second: the engine's inner loop for sweeps.
#include <benchmark/benchmark.h>

#include "collective/collective_cost.h"

namespace {

using namespace dtcalc;

Network three_dim_rings() {
    Network n;
    for (int i = 0; i < 3; ++i) n.dimensions.push_back({Topology::Ring, 4, 100.0, 50.0});
    return n;
}

SystemConfig ring_system(int dims, CollectiveOptimization opt) {
    SystemConfig s;
    for (auto& list : s.implementation) list.assign(static_cast<std::size_t>(dims), {AlgorithmKind::Ring, false});
    s.preferred_dataset_splits = 16;
    s.active_chunks_per_dimension = 2;
    s.endpoint_delay_ns = 10;
    s.local_mem_bw_gbps = 3350;
    s.collective_optimization = opt;
    return s;
}

// 3-dimension all-reduce, localBWAware (5 phases, one dimension revisited), 16 chunks.
void BM_AllReduce3D_LocalBWAware(benchmark::State& state) {
    const Network network = three_dim_rings();
    const SystemConfig system = ring_system(3, CollectiveOptimization::LocalBWAware);
    CollectiveQuery query{CollectiveKind::AllReduce, 64ull << 20, whole_network_group(network)};
    std::uint64_t size = 1ull << 20;
    for (auto _ : state) {
        query.bytes = size;
        benchmark::DoNotOptimize(collective_time(network, system, NetworkBackend::AstraUnaware, query).time_ns);
        size = size >= (1ull << 30) ? (1ull << 20) : size * 2;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AllReduce3D_LocalBWAware);

void BM_AllReduce3D_Baseline(benchmark::State& state) {
    const Network network = three_dim_rings();
    const SystemConfig system = ring_system(3, CollectiveOptimization::Baseline);
    CollectiveQuery query{CollectiveKind::AllReduce, 64ull << 20, whole_network_group(network)};
    for (auto _ : state)
        benchmark::DoNotOptimize(collective_time(network, system, NetworkBackend::AstraUnaware, query).time_ns);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AllReduce3D_Baseline);

void BM_AllReduce1D_Aware(benchmark::State& state) {
    Network network;
    network.dimensions.push_back({Topology::Switch, 8, 400.0, 936.25});
    SystemConfig system = ring_system(1, CollectiveOptimization::LocalBWAware);
    system.preferred_dataset_splits = 4;
    CollectiveQuery query{CollectiveKind::AllReduce, 1ull << 20, whole_network_group(network)};
    for (auto _ : state)
        benchmark::DoNotOptimize(collective_time(network, system, NetworkBackend::AstraAware, query).time_ns);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AllReduce1D_Aware);

// A closed-form case: one-dimension unaware ring all-reduce, 16 NPUs, 16 chunks.
void BM_AllReduce1D_Unaware_ClosedForm(benchmark::State& state) {
    Network network;
    network.dimensions.push_back({Topology::Switch, 16, 400.0, 936.25});
    const SystemConfig system = ring_system(1, CollectiveOptimization::LocalBWAware);
    CollectiveQuery query{CollectiveKind::AllReduce, 64ull << 20, whole_network_group(network)};
    for (auto _ : state)
        benchmark::DoNotOptimize(collective_time(network, system, NetworkBackend::AstraUnaware, query).time_ns);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AllReduce1D_Unaware_ClosedForm);

// Message-model cases (collective/message_model.h) at 16 NPUs x 16 chunks, 2 in flight:
// the recurrence (aware ring; direct on a FullyConnected), one rank's event pass
// (direct on a Switch) and every rank's (halvingDoubling on a Ring, doubleBinaryTree).
void message_model_case(benchmark::State& state, Topology topology, int npus, AlgorithmKind algorithm,
                        CollectiveKind kind, NetworkBackend backend) {
    Network network;
    network.dimensions.push_back({topology, npus, 400.0, 936.25});
    SystemConfig system = ring_system(1, CollectiveOptimization::LocalBWAware);
    for (auto& list : system.implementation) list.assign(1, {algorithm, false});
    CollectiveQuery query{kind, 64ull << 20, whole_network_group(network)};
    for (auto _ : state) benchmark::DoNotOptimize(collective_time(network, system, backend, query).time_ns);
    state.SetItemsProcessed(state.iterations());
}
void BM_Aware_Ring_16x16(benchmark::State& state) {
    message_model_case(state, Topology::Switch, 16, AlgorithmKind::Ring, CollectiveKind::AllReduce,
                       NetworkBackend::AstraAware);
}
BENCHMARK(BM_Aware_Ring_16x16);
void BM_Aware_Direct_16x16(benchmark::State& state) {
    message_model_case(state, Topology::Switch, 16, AlgorithmKind::Direct, CollectiveKind::AllReduce,
                       NetworkBackend::AstraAware);
}
BENCHMARK(BM_Aware_Direct_16x16);
void BM_Aware_Direct_FullyConnected_16x16(benchmark::State& state) {
    message_model_case(state, Topology::FullyConnected, 16, AlgorithmKind::Direct, CollectiveKind::AllReduce,
                       NetworkBackend::AstraAware);
}
BENCHMARK(BM_Aware_Direct_FullyConnected_16x16);
void BM_Aware_HalvingDoubling_Ring_16x16(benchmark::State& state) {
    message_model_case(state, Topology::Ring, 16, AlgorithmKind::HalvingDoubling, CollectiveKind::AllReduce,
                       NetworkBackend::AstraAware);
}
BENCHMARK(BM_Aware_HalvingDoubling_Ring_16x16);
void BM_Unaware_DoubleBinaryTree_16x16(benchmark::State& state) {
    message_model_case(state, Topology::Switch, 16, AlgorithmKind::DoubleBinaryTree, CollectiveKind::AllReduce,
                       NetworkBackend::AstraUnaware);
}
BENCHMARK(BM_Unaware_DoubleBinaryTree_16x16);
// 1,024 NPUs: aware ring (one rank), aware doubleBinaryTree (every rank).
void BM_Aware_Ring_1024(benchmark::State& state) {
    message_model_case(state, Topology::Switch, 1024, AlgorithmKind::Ring, CollectiveKind::AllReduce,
                       NetworkBackend::AstraAware);
}
BENCHMARK(BM_Aware_Ring_1024)->Unit(benchmark::kMillisecond);
void BM_Aware_DoubleBinaryTree_1024(benchmark::State& state) {
    message_model_case(state, Topology::Switch, 1024, AlgorithmKind::DoubleBinaryTree, CollectiveKind::AllReduce,
                       NetworkBackend::AstraAware);
}
BENCHMARK(BM_Aware_DoubleBinaryTree_1024)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
