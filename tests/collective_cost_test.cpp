// collective_time() end to end, with link_cost.h and phase_plan.h on the way,
// on small networks where every number can be worked out by hand.
//
// Units: bandwidth in GB/s as the input states it, B = GBps * 2^30 / 1e9 bytes
// per ns (ASTRA-sim's "1 GB is 2^30 B"). Most tests use kGbps1024 below, chosen
// so that B is exactly 1024 B/ns and every serialisation is a whole number of ns:
//     953.67431640625 = 1e9 / 2^20, so B = (1e9 / 2^20) * 2^30 / 1e9 = 2^10 = 1024.
// Local memory bandwidth 1024 GB/s (decimal) = 1024 B/ns, so a local reduction of
// m bytes costs 3 * floor(m / 1024) ns. Endpoint delay 10 ns per step plus one.
//
// Per phase (one chunk): sum of step costs + (steps + 1) * 10 + reductions.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "collective/comm_group.h"
#include "collective/link_cost.h"
#include "collective/phase_plan.h"
#include "core/error.h"

using namespace dtcalc;

namespace {

constexpr double kGbps1024 = 953.67431640625;  // B = 1024 B/ns exactly (see above)

constexpr AlgorithmChoice kRing{AlgorithmKind::Ring, false};
constexpr AlgorithmChoice kDirect{AlgorithmKind::Direct, false};
constexpr AlgorithmChoice kHalvingDoubling{AlgorithmKind::HalvingDoubling, false};
constexpr AlgorithmChoice kDoubleBinaryTree{AlgorithmKind::DoubleBinaryTree, false};

/// The same algorithms (one per dimension) for every collective.
SystemConfig make_system(const std::vector<AlgorithmChoice>& per_dim, int splits = 1, int active = 1,
                         CollectiveOptimization optimization = CollectiveOptimization::LocalBWAware) {
    SystemConfig s;
    for (auto& list : s.implementation) list = per_dim;
    s.preferred_dataset_splits = splits;
    s.active_chunks_per_dimension = active;
    s.endpoint_delay_ns = 10;
    s.local_mem_bw_gbps = 1024;
    s.collective_optimization = optimization;
    return s;
}

Network one_dim(Topology topology, int npus, double latency_ns = 100) {
    return Network{{Dimension{topology, npus, kGbps1024, latency_ns}}};
}

/// dim 0: FullyConnected of 4, latency 50; dim 1: Switch of 4, latency 100.
Network fc4_by_switch4() {
    return Network{{Dimension{Topology::FullyConnected, 4, kGbps1024, 50},
                    Dimension{Topology::Switch, 4, kGbps1024, 100}}};
}

double time_of(const Network& net, const SystemConfig& sys, NetworkBackend backend, CollectiveKind kind,
               std::uint64_t bytes, const CommGroup& group) {
    return collective_time(net, sys, backend, CollectiveQuery{kind, bytes, group}).time_ns;
}

double time_of(const Network& net, const SystemConfig& sys, NetworkBackend backend, CollectiveKind kind,
               std::uint64_t bytes) {
    return time_of(net, sys, backend, kind, bytes, whole_network_group(net));
}

constexpr auto Unaware = NetworkBackend::AstraUnaware;
constexpr auto Aware = NetworkBackend::AstraAware;

}  // namespace

TEST_CASE("link costs: bandwidth units, hops, rounding, local reduction") {
    SUBCASE("B = GBps * 2^30 / 1e9") {
        CHECK(astra_bytes_per_ns(kGbps1024) == 1024.0);
        CHECK(astra_bytes_per_ns(400) == doctest::Approx(429.4967296));  // 400 * 1.073741824
    }
    SUBCASE("unaware: floor(hops * latency + bytes / B), paid once") {
        // Switch: 2 hops. floor(2 * 100 + 4096 / 1024) = 204.
        const StepCost c = step_cost(Dimension{Topology::Switch, 4, kGbps1024, 100}, 4, Unaware,
                                     StepRun{1, 4096, 1, 1, false});
        CHECK(c.latency_ns == 200);
        CHECK(c.bandwidth_ns == 4);
        CHECK(c.total_ns == 204);
        // 400 GB/s, 936.25 ns: floor(2 * 936.25 + 32768 / 429.4967296) = floor(1872.5 + 76.29) = 1948.
        CHECK(step_cost(Dimension{Topology::Switch, 8, 400, 936.25}, 8, Unaware, StepRun{1, 32768, 1, 1, false})
                  .total_ns == 1948);
    }
    SUBCASE("aware: every hop is a store-and-forward link") {
        // Switch: 2 * floor(100 + 4) = 208; serialisation paid on both links: 8.
        const StepCost c = step_cost(Dimension{Topology::Switch, 4, kGbps1024, 100}, 4, Aware,
                                     StepRun{1, 4096, 1, 1, false});
        CHECK(c.total_ns == 208);
        CHECK(c.bandwidth_ns == 8);
        // 3 messages at once on the NPU's link: 2 more serialisations, 208 + 2 * 4 = 216.
        CHECK(step_cost(Dimension{Topology::Switch, 4, kGbps1024, 100}, 4, Aware, StepRun{1, 4096, 3, 3, false})
                  .total_ns == 216);
    }
    SUBCASE("ring hops: the shorter way, a partial group wraps the long way") {
        const Dimension ring8{Topology::Ring, 8, kGbps1024, 100};
        // Neighbour: 1 hop, floor(100 + 4) = 104.
        CHECK(step_cost(ring8, 8, Unaware, StepRun{1, 4096, 1, 1, false}).total_ns == 104);
        // Every peer up to 7 positions away on a ring of 8: farthest is 4 hops, 400 + 4.
        CHECK(step_cost(ring8, 8, Unaware, StepRun{1, 4096, 7, 7, false}).total_ns == 404);
        // A group of the first 4 of the 8: member 3 -> member 0 is 3 hops back, 300 + 4.
        CHECK(step_cost(ring8, 4, Unaware, StepRun{1, 4096, 1, 1, false}).total_ns == 304);
    }
    SUBCASE("local reduction: 3 * floor(bytes / local_mem_bw), decimal GB/s") {
        CHECK(reduction_ns(4096, 1024) == 12);    // 3 * 4
        CHECK(reduction_ns(32768, 3350) == 27);   // 3 * floor(9.78)
        CHECK(reduction_ns(1000, 1024) == 0);     // 3 * floor(0.98)
    }
    SUBCASE("link serialisation for the pipeline's stagger: aware only") {
        const Dimension sw{Topology::Switch, 4, kGbps1024, 100};
        CHECK(link_serialization_ns(sw, Aware, 4096) == 4);
        CHECK(link_serialization_ns(sw, Aware, 5000) == 4);  // floor(4.88)
        CHECK(link_serialization_ns(sw, Unaware, 4096) == 0);
    }
}

TEST_CASE("one Switch of 4, unaware, ring: the four collectives by hand") {
    const Network net = one_dim(Topology::Switch, 4);
    const SystemConfig sys = make_system({kRing});
    // A ring step of m bytes on the Switch: floor(2 * 100 + m / 1024).

    SUBCASE("all-reduce of 16384 B, with its breakdown") {
        // m = 16384 / 4 = 4096, a step = 200 + 4 = 204. 2(4-1) = 6 steps = 1224;
        // endpoint (6 + 1) * 10 = 70; 3 reducing steps x 3 * floor(4096 / 1024) = 3 * 12 = 36.
        // 1224 + 70 + 36 = 1330.
        const CollectiveResult r =
            collective_time(net, sys, Unaware, CollectiveQuery{CollectiveKind::AllReduce, 16384, whole_network_group(net)});
        CHECK(r.time_ns == 1330);
        CHECK(r.chunks == 1);
        CHECK(r.chunk_bytes == 16384);
        REQUIRE(r.phases.size() == 1);
        const PhaseBreakdown& ph = r.phases[0];
        CHECK(ph.dimension == 0);
        CHECK(ph.npus == 4);
        CHECK(ph.steps == 6);
        CHECK(ph.bytes_per_step == 4096);
        CHECK(ph.latency_ns == 1200);  // 6 * 200
        CHECK(ph.bandwidth_ns == 24);  // 6 * 4
        CHECK(ph.endpoint_ns == 70);
        CHECK(ph.reduction_ns == 36);
        CHECK(ph.time_ns == 1330);
        CHECK(ph.wait_ns == 0);
    }
    SUBCASE("reduce-scatter of 16384 B") {
        // 3 steps of 4096: 3 * 204 = 612; endpoint 4 * 10 = 40; 3 reductions of 12 = 36. 688.
        CHECK(time_of(net, sys, Unaware, CollectiveKind::ReduceScatter, 16384) == 688);
    }
    SUBCASE("all-gather of 16384 B (the gathered output)") {
        // Each NPU's input: 16384 / 4 = 4096. 3 steps of 4096: 612 + 40, no reductions. 652.
        const CollectiveResult r =
            collective_time(net, sys, Unaware, CollectiveQuery{CollectiveKind::AllGather, 16384, whole_network_group(net)});
        CHECK(r.chunk_bytes == 4096);
        CHECK(r.time_ns == 652);
    }
    SUBCASE("all-to-all of 16384 B") {
        // 4 * 3 / 2 = 6 steps of 4096: 6 * 204 = 1224; endpoint 70. 1294.
        CHECK(time_of(net, sys, Unaware, CollectiveKind::AllToAll, 16384) == 1294);
    }
    SUBCASE("localBWAware and baseline agree on one dimension") {
        const SystemConfig base = make_system({kRing}, 1, 1, CollectiveOptimization::Baseline);
        CHECK(time_of(net, base, Unaware, CollectiveKind::AllReduce, 16384) == 1330);
    }
}

TEST_CASE("the worked example of SEMANTICS.md: Switch of 8 at 400 GB/s, 4 chunks, 2 at a time") {
    const Network net{{Dimension{Topology::Switch, 8, 400, 936.25}}};
    SystemConfig sys = make_system({kRing}, 4, 2);
    sys.local_mem_bw_gbps = 3350;
    // C = 1048576 / 4 = 262144, m = 262144 / 8 = 32768.
    // step = floor(2 * 936.25 + 32768 / 429.4967296) = floor(1872.5 + 76.294) = 1948.
    // chunk = 14 * 1948 + 15 * 10 + 7 * 3 * floor(32768 / 3350) = 27272 + 150 + 7 * 27 = 27611.
    // Two batches of two chunks: 2 * 27611 = 55222 (ASTRA-sim printed 55222).
    CHECK(time_of(net, sys, Unaware, CollectiveKind::AllReduce, 1048576) == 55222);
}

TEST_CASE("the congestion-aware backend") {
    SUBCASE("a Switch path pays latency and serialisation on both links") {
        // Ring all-reduce of 16384 on a Switch of 4: m = 4096, a step = 2 * floor(100 + 4) = 208.
        // 6 * 208 = 1248 + 70 + 36 = 1354 (unaware: 1330).
        CHECK(time_of(one_dim(Topology::Switch, 4), make_system({kRing}), Aware, CollectiveKind::AllReduce, 16384) ==
              1354);
    }
    SUBCASE("on one-hop links both backends agree") {
        // Ring of 4, neighbour 1 hop: floor(100 + 4) = 104 either way. 6 * 104 + 70 + 36 = 730.
        const Network ring4 = one_dim(Topology::Ring, 4);
        CHECK(time_of(ring4, make_system({kRing}), Aware, CollectiveKind::AllReduce, 16384) == 730);
        CHECK(time_of(ring4, make_system({kRing}), Unaware, CollectiveKind::AllReduce, 16384) == 730);
    }
    SUBCASE("direct queues its p-1 messages on the NPU's link") {
        // Reduce-scatter of 16384 on a Switch of 4: one step to 3 peers, 4096 B each.
        // unaware: floor(200 + 4) = 204 + 2 * 10 + 12 = 236.
        // aware:   2 * floor(100 + 4) + floor(2 * 4) = 216, + 20 + 12 = 248.
        const Network net = one_dim(Topology::Switch, 4);
        CHECK(time_of(net, make_system({kDirect}), Unaware, CollectiveKind::ReduceScatter, 16384) == 236);
        CHECK(time_of(net, make_system({kDirect}), Aware, CollectiveKind::ReduceScatter, 16384) == 248);
    }
    SUBCASE("two chunks entering together: the second finishes one serialisation later") {
        // 32768 in 2 chunks of 16384, both at once (active 2). Each chunk alone: 1354 (above);
        // the second waits for the first message's serialisation floor(4096 / 1024) = 4: 1358.
        const Network net = one_dim(Topology::Switch, 4);
        CHECK(time_of(net, make_system({kRing}, 2, 2), Aware, CollectiveKind::AllReduce, 32768) == 1358);
        // Stateless links: they run side by side, 1330.
        CHECK(time_of(net, make_system({kRing}, 2, 2), Unaware, CollectiveKind::AllReduce, 32768) == 1330);
    }
}

TEST_CASE("chunking and batching") {
    const Network net = one_dim(Topology::Switch, 4);
    // 65536 in 4 chunks of 16384, each chunk's all-reduce 1330 (see above).
    SUBCASE("2 at a time: 2 batches") {
        const CollectiveResult r = collective_time(net, make_system({kRing}, 4, 2), Unaware,
                                                   CollectiveQuery{CollectiveKind::AllReduce, 65536, whole_network_group(net)});
        CHECK(r.chunks == 4);
        CHECK(r.chunk_bytes == 16384);
        CHECK(r.time_ns == 2660);  // 2 * 1330
        // Chunks 2 and 3 wait 1330 each: 2 * 1330 / 4 = 665.
        CHECK(r.phases[0].wait_ns == doctest::Approx(665.0));
    }
    SUBCASE("1 at a time") {
        CHECK(time_of(net, make_system({kRing}, 4, 1), Unaware, CollectiveKind::AllReduce, 65536) == 5320);  // 4 * 1330
    }
    SUBCASE("all 4 at once") {
        CHECK(time_of(net, make_system({kRing}, 4, 4), Unaware, CollectiveKind::AllReduce, 65536) == 1330);
    }
    SUBCASE("3 chunks, 2 at a time: 2 batches") {
        // 49152 / 3 = 16384 per chunk: ceil(3 / 2) = 2 batches of 1330.
        CHECK(time_of(net, make_system({kRing}, 3, 2), Unaware, CollectiveKind::AllReduce, 49152) == 2660);
    }
    SUBCASE("a chunk smaller than the group is raised to the group size") {
        // 2 bytes, 1 split: chunk = max(2, 4) = 4, m = 1 byte.
        // step = floor(200 + 1/1024) = 200; 6 * 200 + 70 + 3 * 3 * floor(1/1024) = 1200 + 70 + 0 = 1270.
        const CollectiveResult r = collective_time(net, make_system({kRing}), Unaware,
                                                   CollectiveQuery{CollectiveKind::AllReduce, 2, whole_network_group(net)});
        CHECK(r.chunk_bytes == 4);
        CHECK(r.time_ns == 1270);
    }
}

TEST_CASE("halvingDoubling, direct and doubleBinaryTree on a Switch of 4, unaware") {
    const Network net = one_dim(Topology::Switch, 4);
    SUBCASE("halvingDoubling all-reduce of 16384") {
        // Halving: 8192 B (no reduction) floor(200 + 8) = 208; 4096 B floor(200 + 4) = 204, reduce 12.
        // Doubling: 4096 B 204; 8192 B 208. Links 824; endpoint 5 * 10 = 50; reductions 12. 886.
        CHECK(time_of(net, make_system({kHalvingDoubling}), Unaware, CollectiveKind::AllReduce, 16384) == 886);
    }
    SUBCASE("direct all-reduce of 16384") {
        // Two steps (reduce-scatter, all-gather) of 4096 B to 3 peers: 2 * 204 = 408;
        // endpoint 3 * 10 = 30; one reduction 12. 450.
        CHECK(time_of(net, make_system({kDirect}), Unaware, CollectiveKind::AllReduce, 16384) == 450);
    }
    SUBCASE("doubleBinaryTree all-reduce of 16384") {
        // The whole 16384 on each tree edge: T = floor(200 + 16) = 216, r = 3 * 16 = 48.
        // RootMax tree: top 3 over node 1 over leaves 0 and 2. Rank 0 (a leaf) sends at
        // ED; node 1 reduces both children (ED + r) and sends up; node 3 reduces and sends
        // down (exits at 3 ED + 2 T + 2 r = 558); node 1 reduces and sends to the leaves;
        // the leaf exits one ED after: 5 ED + 4 T + 3 r = 50 + 864 + 144 = 1058.
        const CollectiveResult r = collective_time(net, make_system({kDoubleBinaryTree}), Unaware,
                                                   CollectiveQuery{CollectiveKind::AllReduce, 16384, whole_network_group(net)});
        CHECK(r.time_ns == 1058);
        CHECK(r.ranks_min_ns == 558);
        CHECK(r.ranks_max_ns == 1058);
    }
}

TEST_CASE("two dimensions: FullyConnected 4 (50 ns) x Switch 4 (100 ns), ring, unaware") {
    const Network net = fc4_by_switch4();
    // Step costs: dim 0 floor(50 + m/1024), dim 1 floor(200 + m/1024).
    //   dim 0, m = 16384: 66.   dim 1, m = 4096: 204;  m = 16384: 216.

    SUBCASE("localBWAware all-reduce: reduce-scatter in, all-reduce out, all-gather back") {
        // RS dim 0 on 65536: 3 steps of 16384: 3 * 66 = 198 + 4 * 10 + 3 * 48 = 382.
        // AR dim 1 on 65536 / 4 = 16384: 6 steps of 4096: 6 * 204 = 1224 + 70 + 3 * 12 = 1330.
        // AG dim 0 on 65536: 3 steps of 16384: 198 + 40 = 238.
        // 382 + 1330 + 238 = 1950.
        const CollectiveResult r = collective_time(net, make_system({kRing, kRing}), Unaware,
                                                   CollectiveQuery{CollectiveKind::AllReduce, 65536, whole_network_group(net)});
        CHECK(r.time_ns == 1950);
        REQUIRE(r.phases.size() == 3);
        CHECK(r.phases[0].dimension == 0);
        CHECK(r.phases[0].kind == CollectiveKind::ReduceScatter);
        CHECK(r.phases[0].time_ns == 382);
        CHECK(r.phases[1].dimension == 1);
        CHECK(r.phases[1].kind == CollectiveKind::AllReduce);
        CHECK(r.phases[1].bytes_per_step == 4096);
        CHECK(r.phases[1].time_ns == 1330);
        CHECK(r.phases[2].dimension == 0);
        CHECK(r.phases[2].kind == CollectiveKind::AllGather);
        CHECK(r.phases[2].time_ns == 238);
    }
    SUBCASE("baseline all-reduce: a full all-reduce on each dimension") {
        // AR dim 0 on 65536: 6 * 66 = 396 + 70 + 3 * 48 = 610.
        // AR dim 1 on 65536: m = 16384, 6 * 216 = 1296 + 70 + 3 * 48 = 1510.
        // 610 + 1510 = 2120, slower than localBWAware's 1950.
        const SystemConfig sys = make_system({kRing, kRing}, 1, 1, CollectiveOptimization::Baseline);
        const CollectiveResult r =
            collective_time(net, sys, Unaware, CollectiveQuery{CollectiveKind::AllReduce, 65536, whole_network_group(net)});
        CHECK(r.time_ns == 2120);
        REQUIRE(r.phases.size() == 2);
        CHECK(r.phases[0].time_ns == 610);
        CHECK(r.phases[1].time_ns == 1510);
    }
    SUBCASE("two chunks pipeline through the phases (one slot per dimension)") {
        // localBWAware, 131072 in 2 chunks of 65536: phases 382 (q0), 1330 (q1), 238 (q0).
        // q0: c0 RS [0,382) c1 RS [382,764); q1: c0 [382,1712) c1 [1712,3042);
        // q0: c0 AG [1712,1950) c1 AG [3042,3280). 382 + 2 * 1330 + 238 = 3280.
        CHECK(time_of(net, make_system({kRing, kRing}, 2, 1), Unaware, CollectiveKind::AllReduce, 131072) == 3280);
        // baseline: 610 (q0), 1510 (q1): 610 + 2 * 1510 = 3630.
        CHECK(time_of(net, make_system({kRing, kRing}, 2, 1, CollectiveOptimization::Baseline), Unaware,
                      CollectiveKind::AllReduce, 131072) == 3630);
    }
    SUBCASE("reduce-scatter: innermost first, shrinking") {
        // RS dim 0 on 65536: 382 (above). RS dim 1 on 16384: 3 * 204 + 40 + 36 = 688. 1070.
        CHECK(time_of(net, make_system({kRing, kRing}), Unaware, CollectiveKind::ReduceScatter, 65536) == 1070);
    }
    SUBCASE("all-gather: outermost first, growing") {
        // Output 65536, input per NPU 65536 / 16 = 4096.
        // AG dim 1 on 4096 * 4 = 16384: 3 steps of 4096: 612 + 40 = 652.
        // AG dim 0 on 16384 * 4 = 65536: 3 steps of 16384: 198 + 40 = 238. 890.
        const CollectiveResult r = collective_time(net, make_system({kRing, kRing}), Unaware,
                                                   CollectiveQuery{CollectiveKind::AllGather, 65536, whole_network_group(net)});
        CHECK(r.time_ns == 890);
        REQUIRE(r.phases.size() == 2);
        CHECK(r.phases[0].dimension == 1);
        CHECK(r.phases[1].dimension == 0);
    }
    SUBCASE("all-to-all: the whole buffer on each dimension") {
        // dim 0: 6 steps of 16384: 6 * 66 + 70 = 466. dim 1: 6 * 216 + 70 = 1366. 1832.
        CHECK(time_of(net, make_system({kRing, kRing}), Unaware, CollectiveKind::AllToAll, 65536) == 1832);
    }
}

TEST_CASE("phase plans carry the right data per dimension") {
    // Group 4 x 2 x 8, chunk 65536.
    const CommGroup group{{4, 2, 8}};
    const SystemConfig sys = make_system({kRing, kRing, kRing});
    auto data = [&](CollectiveKind kind, const SystemConfig& s) {
        std::vector<std::pair<int, std::uint64_t>> out;
        for (const PlannedPhase& p : plan_phases(kind, group, s, 65536)) out.emplace_back(p.dimension, p.data_bytes);
        return out;
    };
    using V = std::vector<std::pair<int, std::uint64_t>>;
    // localBWAware all-reduce: RS d0 65536, RS d1 65536/4 = 16384, AR d2 16384/2 = 8192, AG d1 16384, AG d0 65536.
    CHECK(data(CollectiveKind::AllReduce, sys) == V{{0, 65536}, {1, 16384}, {2, 8192}, {1, 16384}, {0, 65536}});
    // baseline: the whole chunk on each dimension.
    CHECK(data(CollectiveKind::AllReduce, make_system({kRing, kRing, kRing}, 1, 1, CollectiveOptimization::Baseline)) ==
          V{{0, 65536}, {1, 65536}, {2, 65536}});
    CHECK(data(CollectiveKind::ReduceScatter, sys) == V{{0, 65536}, {1, 16384}, {2, 8192}});
    // all-gather, chunk = one NPU's input: d2 65536 * 8, d1 * 2, d0 * 4.
    CHECK(data(CollectiveKind::AllGather, sys) == V{{2, 524288}, {1, 1048576}, {0, 4194304}});
    CHECK(data(CollectiveKind::AllToAll, sys) == V{{0, 65536}, {1, 65536}, {2, 65536}});
    // A flat algorithm: one phase over all 64, on the innermost dimension's queue.
    const SystemConfig flat = make_system({AlgorithmChoice{AlgorithmKind::Ring, true}});
    const auto phases = plan_phases(CollectiveKind::AllGather, group, flat, 65536);
    REQUIRE(phases.size() == 1);
    CHECK(phases[0].npus == 64);
    CHECK(phases[0].data_bytes == 65536u * 64u);
}

TEST_CASE("send-recv: one message across the outermost spanned dimension, no chunks") {
    SUBCASE("Switch of 4") {
        // floor(2 * 100 + 65536 / 1024) = 264, + one endpoint delay 10 = 274.
        const Network net = one_dim(Topology::Switch, 4);
        const CollectiveResult r = collective_time(net, make_system({kRing}, 4, 2), Unaware,
                                                   CollectiveQuery{CollectiveKind::SendRecv, 65536, whole_network_group(net)});
        CHECK(r.time_ns == 274);
        CHECK(r.chunks == 1);
        // aware: 2 * floor(100 + 64) + 10 = 338.
        CHECK(time_of(net, make_system({kRing}), Aware, CollectiveKind::SendRecv, 65536) == 338);
    }
    SUBCASE("two dimensions: charged to the outer Switch") {
        // Same as above on dim 1: 274 (dim 0 would have been floor(50 + 64) + 10 = 124).
        CHECK(time_of(fc4_by_switch4(), make_system({kRing, kRing}), Unaware, CollectiveKind::SendRecv, 65536) == 274);
    }
}

TEST_CASE("subset groups: the first N NPUs") {
    const Network net = fc4_by_switch4();
    SUBCASE("8 of 16: all of dim 0, 2 of dim 1") {
        const CommGroup group = first_npus_group(net, 8, "--npus");
        CHECK(group.members == std::vector<int>{4, 2});
        // RS dim 0: 382. AR dim 1 on 2 NPUs, 16384: 2 steps of 8192, floor(200 + 8) = 208:
        // 416 + 3 * 10 + 1 reduction of 3 * 8 = 24 -> 470. AG dim 0: 238. 382 + 470 + 238 = 1090.
        CHECK(time_of(net, make_system({kRing, kRing}), Unaware, CollectiveKind::AllReduce, 65536, group) == 1090);
    }
    SUBCASE("2 of 16: part of dim 0 only") {
        const CommGroup group = first_npus_group(net, 2, "--npus");
        CHECK(group.members == std::vector<int>{2, 1});
        // One all-reduce on 2 NPUs of dim 0, 65536: 2 steps of 32768, floor(50 + 32) = 82:
        // 164 + 30 + 1 reduction of 3 * 32 = 96 -> 290.
        CHECK(time_of(net, make_system({kRing, kRing}), Unaware, CollectiveKind::AllReduce, 65536, group) == 290);
    }
    SUBCASE("a group of one NPU costs nothing") {
        CHECK(time_of(net, make_system({kRing, kRing}), Unaware, CollectiveKind::AllReduce, 65536,
                      first_npus_group(net, 1, "--npus")) == 0);
    }
    SUBCASE("groups that are not a block are refused") {
        CHECK_THROWS_AS(first_npus_group(net, 6, "--npus"), InputError);   // 6 >= 4 but not a multiple of 4
        CHECK_THROWS_AS(first_npus_group(net, 32, "--npus"), InputError);  // more than 16
    }
    SUBCASE("on a Ring, a partial group pays for the wrap-around") {
        const Network ring8 = one_dim(Topology::Ring, 8);
        // First 4 of a ring of 8, reduce-scatter of 16384: m = 4096, member 3 -> 0 is 3 hops:
        // floor(300 + 4) = 304; 3 * 304 + 40 + 3 * 12 = 912 + 40 + 36 = 988.
        CHECK(time_of(ring8, make_system({kRing}), Unaware, CollectiveKind::ReduceScatter, 16384,
                      first_npus_group(ring8, 4, "--npus")) == 988);
        // The whole ring of 8: m = 2048, floor(100 + 2) = 102; 7 * 102 + 80 + 7 * 3 * 2 = 714 + 80 + 42 = 836.
        CHECK(time_of(ring8, make_system({kRing}), Unaware, CollectiveKind::ReduceScatter, 16384) == 836);
    }
}

TEST_CASE("flat one* algorithms: one phase over the whole group") {
    const Network net = fc4_by_switch4();
    // 16 NPUs, all-reduce of 65536 in one chunk. A flat message is charged to the
    // first dimension in which the two NPUs differ.
    SUBCASE("oneRing: every neighbour differs in dim 0") {
        // m = 65536 / 16 = 4096; floor(50 + 4) = 54; 30 steps = 1620;
        // endpoint 31 * 10 = 310; 15 reductions of 12 = 180. 2110.
        const CollectiveResult r =
            collective_time(net, make_system({AlgorithmChoice{AlgorithmKind::Ring, true}}), Unaware,
                            CollectiveQuery{CollectiveKind::AllReduce, 65536, whole_network_group(net)});
        CHECK(r.time_ns == 2110);
        REQUIRE(r.phases.size() == 1);
        CHECK(r.phases[0].npus == 16);
        CHECK(r.phases[0].steps == 30);
    }
    SUBCASE("oneHalvingDoubling: partners 1 and 2 away on dim 0, 4 and 8 away on dim 1") {
        // Halving: 32768 @1 floor(50 + 32) = 82 (no reduction); 16384 @2 floor(50 + 16) = 66, reduce 48;
        //          8192 @4 floor(200 + 8) = 208, reduce 24; 4096 @8 floor(200 + 4) = 204, reduce 12.
        // Doubling mirrors it: 204 + 208 + 66 + 82.
        // Links 2 * 560 = 1120; endpoint 9 * 10 = 90; reductions 48 + 24 + 12 = 84. 1294.
        CHECK(time_of(net, make_system({AlgorithmChoice{AlgorithmKind::HalvingDoubling, true}}), Unaware,
                      CollectiveKind::AllReduce, 65536) == 1294);
        // Hierarchical halvingDoubling (localBWAware) for comparison: same links (1120), but
        // 11 endpoint delays (3 + 5 + 3 = 110) and the first halving of each reduce-scatter
        // skips its reduction: 48 (dim 0, 16384) + 12 (dim 1, 4096) = 60. 1290.
        CHECK(time_of(net, make_system({kHalvingDoubling, kHalvingDoubling}), Unaware, CollectiveKind::AllReduce,
                      65536) == 1290);
    }
    SUBCASE("oneDirect: a step is as slow as its slowest dimension") {
        // 2 steps of 4096 to 15 peers; dim 0 floor(50 + 4) = 54, dim 1 floor(200 + 4) = 204: 204 each.
        // 408 + 3 * 10 + 12 = 450.
        CHECK(time_of(net, make_system({AlgorithmChoice{AlgorithmKind::Direct, true}}), Unaware,
                      CollectiveKind::AllReduce, 65536) == 450);
    }
    SUBCASE("oneRing all-gather: the whole output assembled in one ring of 16") {
        // Input per NPU 65536 / 16 = 4096; 15 steps of 4096 on dim 0: 15 * 54 = 810 + 16 * 10 = 970.
        CHECK(time_of(net, make_system({AlgorithmChoice{AlgorithmKind::Ring, true}}), Unaware,
                      CollectiveKind::AllGather, 65536) == 970);
    }
}

TEST_CASE("a collective the system has no algorithm for raises InputError") {
    const Network net = one_dim(Topology::Switch, 4);
    SUBCASE("halvingDoubling all-to-all") {
        CHECK_THROWS_AS(time_of(net, make_system({kHalvingDoubling}), Unaware, CollectiveKind::AllToAll, 16384),
                        InputError);
        try {
            time_of(net, make_system({kHalvingDoubling}), Unaware, CollectiveKind::AllToAll, 16384);
        } catch (const InputError& e) {
            CHECK(e.where().key == "all-to-all-implementation[0]");  // the system's entry that cannot run it
        }
    }
    SUBCASE("doubleBinaryTree reduce-scatter") {
        CHECK_THROWS_AS(time_of(net, make_system({kDoubleBinaryTree}), Unaware, CollectiveKind::ReduceScatter, 16384),
                        InputError);
    }
    SUBCASE("flat oneHalvingDoubling all-to-all") {
        CHECK_THROWS_AS(time_of(fc4_by_switch4(), make_system({AlgorithmChoice{AlgorithmKind::HalvingDoubling, true}}),
                                Unaware, CollectiveKind::AllToAll, 65536),
                        InputError);
    }
}
