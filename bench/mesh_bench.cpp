// Meshes and tori: the general link-load computation (every message routed)
// against the closed forms the collective engine uses.
//
//   BM_MeshAllToAllRouted/N   direct all-to-all on an N x N mesh, every one of
//                             the N^2 (N^2 - 1) messages routed XY and counted
//                             (N = 32: 1,024 NPUs, 1,047,552 messages)
//   BM_MeshRingRouted/N       the snake ring's step on an N x N mesh, routed
//   BM_MeshAllToAllCollective/N  the same all-to-all through collective_time
//                             (closed form), one query
#include <benchmark/benchmark.h>

#include "collective/collective_cost.h"
#include "topology/link_load.h"

namespace {

using namespace dtcalc;

GridTraffic whole_mesh(int n, TrafficPattern pattern) {
    GridTraffic t;
    t.shape = GridShape{GridKind::Mesh, 2, {n, n, 1}};
    t.members = {n, n, 1};
    t.axis = -1;
    t.pattern = pattern;
    return t;
}

void BM_MeshAllToAllRouted(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const GridTraffic t = whole_mesh(n, TrafficPattern::AllPairs);
    for (auto _ : state) benchmark::DoNotOptimize(route_traffic(t, {50, 50, 50}).summary.max_messages());
    const double messages = static_cast<double>(n) * n * (static_cast<double>(n) * n - 1);
    state.counters["npus"] = static_cast<double>(n) * n;
    state.counters["messages"] = messages;
    state.counters["ns/message"] =
        benchmark::Counter(messages, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_MeshAllToAllRouted)->Arg(4)->Arg(8)->Arg(16)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

void BM_MeshRingRouted(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const GridTraffic t = whole_mesh(n, TrafficPattern::RingNeighbour);
    for (auto _ : state) benchmark::DoNotOptimize(route_traffic(t, {50, 50, 50}).summary.max_messages());
    state.counters["npus"] = static_cast<double>(n) * n;
}
BENCHMARK(BM_MeshRingRouted)->Arg(8)->Arg(32)->Arg(128)->Unit(benchmark::kMicrosecond);

void BM_MeshAllToAllCollective(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    Network network;
    network.dimensions = {{Topology::Mesh2D, n, 100, 50}, {Topology::Mesh2D, n, 100, 50}};
    SystemConfig system;
    for (auto& list : system.implementation) list = {{AlgorithmKind::Direct, true}};
    system.preferred_dataset_splits = 16;
    system.active_chunks_per_dimension = 2;
    system.endpoint_delay_ns = 10;
    system.local_mem_bw_gbps = 3000;
    const CollectiveQuery query{CollectiveKind::AllToAll, 64ull << 20, whole_network_group(network)};
    for (auto _ : state)
        benchmark::DoNotOptimize(collective_time(network, system, NetworkBackend::AstraUnaware, query).time_ns);
}
BENCHMARK(BM_MeshAllToAllCollective)->Arg(32)->Arg(1024);

}  // namespace
