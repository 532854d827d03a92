// ASTRA-sim's node times, each worked out by hand in a comment (or taken
// from ASTRA-sim's reference runs in validation/astrasim).
#include <doctest/doctest.h>

#include "chakra/node_timing.h"
#include "config/network_config.h"
#include "config/system_config_reader.h"
#include "chakra_test_traces.h"

using namespace dtcalc;
using namespace dtcalc::chakra;

namespace {

// The sanity trace's system: FullyConnected(8) 128.5714 GB/s 20 ns x Switch(2)
// 25 GB/s 100 ns; splits 10, active 4, endpoint 10, local-mem-bw 3000, peak 900.
struct Sanity {
    System machine{load_astra_network_yaml(testing::chakra_dir() + "/network_system_16.yml"),
                   load_astra_system_json(testing::chakra_dir() + "/system_system_16.json", 2)};
    Network& network = machine.network;
    SystemConfig& system = machine.config;
    TimingModel model;
    Sanity() { model.system = &machine; }
};

TraceNode comp_node(std::uint64_t ops, std::uint64_t bytes) {
    TraceNode n;
    n.kind = NodeKind::Comp;
    n.num_ops = ops;
    n.tensor_size = bytes;
    return n;
}

}  // namespace

TEST_CASE("roofline: compute-bound and memory-bound nodes") {
    Sanity s;
    // OI = 17179869184000 / 536870912 = 32000 FLOP/B; 3000e9 x 32000 > 900e12,
    // so perf = 9e14 and t = 17179869184000 / 9e14 s = 19,088,743.5 ns -> 19,088,743.
    const CompTime a = comp_time(s.model, comp_node(17179869184000ULL, 536870912ULL));
    CHECK(a.ns == 19088743);
    CHECK(a.roofline);
    CHECK_FALSE(a.memory_bound);
    CHECK(a.intensity == 32000);
    CHECK(a.perf_flops == 9e14);
    // OI = 1: perf = 3e12 FLOP/s; t = 536870912 / 3e12 s = 178,956.97 ns -> 178,956.
    const CompTime b = comp_time(s.model, comp_node(536870912ULL, 536870912ULL));
    CHECK(b.ns == 178956);
    CHECK(b.memory_bound);
    CHECK(b.perf_flops == 3e12);
    // tensor_size 0: ASTRA-sim skips the node (no time, no statistics).
    const CompTime c = comp_time(s.model, comp_node(1000, 0));
    CHECK(c.ns == 0);
    CHECK_FALSE(c.roofline);
}

TEST_CASE("replayed nodes: duration_micros, at least 1 ns, or dtcalc's exact attribute") {
    Sanity s;
    TraceNode n = comp_node(100, 100);
    n.is_cpu_op = true;  // CPU ops replay even with roofline on
    n.duration_micros = 7;
    CHECK(comp_time(s.model, n).ns == 7000);
    CHECK_FALSE(comp_time(s.model, n).roofline);
    n.duration_micros = 0;
    CHECK(comp_time(s.model, n).ns == 1);
    n.exact_duration_ns = 1234.5;
    CHECK(comp_time(s.model, n).ns == 1234.5);
    s.system.roofline_enabled = false;
    TraceNode g = comp_node(100, 100);
    g.duration_micros = 3;
    CHECK(comp_time(s.model, g).ns == 3000);
}

TEST_CASE("a send: one message on the dimension the NPUs differ in, no endpoint delay") {
    Sanity s;
    // 0 -> 8 differ in dimension 1 (Switch: 2 hops x 100 ns; 25 GB/s = 26.8435456 B/ns):
    // floor(200 + 536870912 / 26.8435456) = 200 + 20,000,000.
    CHECK(send_time(s.model, 0, 8, 536870912ULL) == 20000200);
    // 0 -> 3 in dimension 0 (FullyConnected: 1 hop x 20 ns; 138.0524896 B/ns):
    // floor(20 + 1000000 / 138.0524896) = floor(20 + 7243.62) = 7263.
    CHECK(send_time(s.model, 0, 3, 1000000) == 7263);
    // Congestion-aware: per hop floor(100 + 20,000,000) -> 2 x 20,000,100.
    s.machine.backend = NetworkBackend::AstraAware;
    CHECK(send_time(s.model, 0, 8, 536870912ULL) == 40000200);
}

TEST_CASE("a collective on a communicator group: one ring through its ranks") {
    Sanity s;
    const std::vector<int> pair = {0, 2};
    // All-gather of 536870912 B per rank on 2 ranks: chunk C = 53,687,091 B
    // (/10 splits); one step of m = C: floor(20 + 53687091 / 138.0524896) =
    // 388,908; a chunk is 10 + 1 x 10 + 388,908 = 388,928 (10 ns per message on
    // a group's ring); 10 chunks 4 at a time = 3 rounds: 1,166,784.
    CHECK(collective_time_group(s.model, CommType::AllGather, 536870912ULL, pair, 0) == 1166784);
    // Reduce-scatter of 1 GiB: C = 107,374,182, m = C/2 = 53,687,091: the same
    // step, plus one reduction 3 x floor(53687091 / 3000) = 53,685:
    // 3 x (20 + 388,908 + 53,685) = 1,327,839.
    CHECK(collective_time_group(s.model, CommType::ReduceScatter, 1073741824ULL, pair, 1) == 1327839);
    // All-reduce of 117,440,512 B: C = 11,744,051, m = 5,872,025;
    // step floor(20 + 5872025 / 138.0524896) = floor(20 + 42534.75) = 42,554;
    // 2 steps, 1 reduction 3 x 1957 = 5,871: chunk 10 + 2 x 10 + 2 x 42,554 + 5,871
    // = 91,009; 3 rounds: 273,027.
    CHECK(collective_time_group(s.model, CommType::AllReduce, 117440512ULL, pair, 0) == 273027);
    // A group of one rank does nothing.
    const std::vector<int> one = {5};
    CHECK(collective_time_group(s.model, CommType::AllReduce, 1000, one, 0) == 0);
}

TEST_CASE("a ring with unequal links: each member's chunk ends after the links leading to it") {
    Sanity s;
    s.system.preferred_dataset_splits = 1;
    s.system.active_chunks_per_dimension = 1;
    // Ring 0 -> 1 -> 8 -> 0. A message is charged to the lowest dimension in
    // which the two NPUs differ: 0 -> 1 and 1 -> 8 (coordinates (1,0) -> (0,1))
    // to dimension 0 (FullyConnected), 8 -> 0 to dimension 1 (Switch).
    // All-gather of 1,000,000 B: 2 steps of m = 1e6.
    // FC link: floor(20 + 1e6 / 138.0524896) = 7,263; Switch: floor(200 + 1e6 /
    // 26.8435456) = floor(200 + 37252.9) = 37,452.
    // Member 1 (position 1) receives over the links into 1 and into 0:
    // 10 + 2 x 10 + 7,263 + 37,452 = 44,745. Member 8: into 8 and into 1:
    // 30 + 7,263 + 7,263 = 14,556. Member 0: into 0 and into 8: 30 + 37,452 + 7,263.
    const std::vector<int> ring = {0, 1, 8};
    CHECK(collective_time_group(s.model, CommType::AllGather, 1000000, ring, 1) == 44745);
    CHECK(collective_time_group(s.model, CommType::AllGather, 1000000, ring, 2) == 14556);
    CHECK(collective_time_group(s.model, CommType::AllGather, 1000000, ring, 0) == 44745);
}

TEST_CASE("a collective on every NPU is the collective engine's: ASTRA-sim's reference run") {
    // validation/astrasim/reference_runs.csv: FullyConnected_Switch 8x2, 128.5714x25
    // GB/s, 20x100 ns, all-reduce 67108864 B, direct x direct, splits 4, active 2,
    // endpoint 10, localBWAware (local-mem-bw 3350): 191,324 cycles.
    Sanity s;
    s.system.preferred_dataset_splits = 4;
    s.system.active_chunks_per_dimension = 2;
    s.system.local_mem_bw_gbps = 3350;
    for (auto& list : s.system.implementation) list = {{AlgorithmKind::Direct, false}, {AlgorithmKind::Direct, false}};
    CHECK(collective_time_all(s.model, CommType::AllReduce, 67108864ULL).ns == 191324);
}

TEST_CASE("memory nodes: local, per-NPU remote, and shared ports") {
    Sanity s;
    // No expansion: local traffic at local-mem-bw 3000 GB/s = 3000 B/ns: 3e6 B -> 1000 ns.
    CHECK(memory_time(s.model, 3000000) == 1000);
    s.model.remote = {RemoteMemoryKind::PerNpu, 100, 10, 0, 0};
    // 100 + floor(1e6 / 10e9 x 1e9) = 100 + 100,000.
    CHECK(memory_time(s.model, 1000000) == 100100);
    s.model.remote = {RemoteMemoryKind::PerNode, 100, 10, 2, 8};
    CHECK(memory_time(s.model, 1000000) == 8 * 100100);
    s.model.remote = {RemoteMemoryKind::Pool, 100, 10, 0, 0};
    CHECK(memory_time(s.model, 1000000) == 16 * 100100);
}
