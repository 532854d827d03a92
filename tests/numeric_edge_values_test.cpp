// Collective times at the edges of the inputs (1 B, 1e-3 GB/s, latency 0,
// 1,048,576 NPUs) against values worked out by hand; the comments show how.
#include <doctest/doctest.h>

#include <cstdint>

#include "collective/collective_cost.h"
#include "collective/comm_group.h"
#include "core/units.h"
#include "network/network.h"
#include "numeric_edge_helpers.h"

using namespace dtcalc;
using dtcalc::testing::kPiB;
using dtcalc::testing::make_system;

namespace {
constexpr int kMillion = 1 << 20;  // 1,048,576 NPUs
}  // namespace

TEST_CASE("numeric edge: hand-computed times at the edges") {
    // B = GB/s x 2^30 / 1e9 bytes per ns (ASTRA-sim's GB). Local reductions
    // at local-mem-bw 1e12 GB/s: 3 x floor(bytes / 1e12).
    auto ring_all_reduce = [](int npus, double bandwidth, NetworkBackend backend, std::uint64_t bytes, double latency = 0) {
        const Network network{{{Topology::Ring, npus, bandwidth, latency}}};
        return collective_time(network, make_system({AlgorithmKind::Ring, false}, 1, 0), backend,
                               {CollectiveKind::AllReduce, bytes, whole_network_group(network)});
    };

    SUBCASE("ring all-reduce of 1 B on 2 NPUs, latency 0, endpoint delay 0") {
        // The chunk is raised to the group size: max(1 B / 1 split, 2) = 2 B,
        // so each NPU's block is 2 / 2 = 1 B. Ring all-reduce on 2 NPUs:
        // 2(p - 1) = 2 steps of 1 B, one hop each.
        // At 1e-3 GB/s: B = 1e-3 x 1.073741824 = 0.001073741824 B/ns, and one
        // step is floor(0 x 1 + 1 / 0.001073741824) = floor(931.32...) = 931 ns.
        // Reduction after the first step: 3 x floor(1 / 1e12) = 0.
        // Endpoint: (2 + 1) x 0 = 0. One chunk, so the total is 2 x 931 = 1862 ns.
        for (NetworkBackend backend : {NetworkBackend::AstraUnaware, NetworkBackend::AstraAware}) {
            // The aware backend charges hops x floor(latency + 1 / B) = 931 per step too.
            const CollectiveResult r = ring_all_reduce(2, 1e-3, backend, 1);
            CHECK(r.chunk_bytes == 2);
            REQUIRE(r.phases.size() == 1);
            CHECK(r.phases[0].steps == 2);
            CHECK(r.phases[0].bytes_per_step == 1);
            CHECK(r.time_ns == 1862);
        }
        // At 1e6 GB/s a byte takes 1 / 1073741.824 = 9.3e-7 ns; floor(9.3e-7) = 0:
        // with no latency and no endpoint delay the collective takes 0 ns (ASTRA-sim floors each step).
        CHECK(ring_all_reduce(2, 1e6, NetworkBackend::AstraUnaware, 1).time_ns == 0);
    }

    SUBCASE("ring all-reduce of 1 PiB on 3 NPUs at 1e6 GB/s, latency 0") {
        // Chunk 2^50 B; block floor(2^50 / 3) = 375,299,968,947,541 B.
        // B = 1e6 x 2^30 / 1e9 = 2^30 / 1000 B/ns, so a step serialises
        // 375,299,968,947,541 x 1000 / 2^30 = 349,525,333.33 ns, floor 349,525,333.
        // 2(3 - 1) = 4 steps, one hop each: 1,398,101,332 ns. The first p - 1 = 2
        // steps reduce: 3 x floor(375,299,968,947,541 / 1e12) = 3 x 375 = 1125 ns
        // each. Total 1,398,101,332 + 2,250 = 1,398,103,582 ns.
        CHECK(ring_all_reduce(3, 1e6, NetworkBackend::AstraUnaware, kPiB, 0).time_ns == 1398103582.0);
    }

    SUBCASE("ring all-reduce of 1 PiB on 1,048,576 NPUs at 1e-3 GB/s") {
        // Block 2^50 / 2^20 = 2^30 B. B = 1e-3 x 2^30 / 1e9 B/ns, so a step
        // serialises 2^30 / B = 1e12 ns. With latency 0.5 ns (one hop) a step
        // is floor(0.5 + 1e12) = 1e12 ns (the half keeps the floor clear of
        // rounding). 2(2^20 - 1) = 2,097,150 steps; reductions
        // 3 x floor(2^30 / 1e12) = 0. Total 2,097,150 x 1e12 = 2.09715e18 ns (66 years).
        const CollectiveResult r = ring_all_reduce(kMillion, 1e-3, NetworkBackend::AstraUnaware, kPiB, 0.5);
        CHECK(r.phases.at(0).steps == 2097150);
        CHECK(r.time_ns == 2097150.0 * 1e12);
    }

    SUBCASE("all-gather of 1 B on 1,048,576 NPUs on a switch, latency 1 s (the largest accepted)") {
        // Each NPU's input: max(1 / 2^20 / 1, 1) = 1 B (raised to a byte); the
        // ring all-gather then works on 2^20 B, 1 B per message, p - 1 =
        // 1,048,575 steps of 2 hops (NPU, switch, NPU): floor(2 x 1e9 + 1 / B).
        // At 1e6 GB/s, 1 / B < 1e-6 ns, so a step is 2e9 ns:
        // 1,048,575 x 2e9 = 2.09715e15 ns, plus endpoint delays (1,048,576 x 0).
        const Network network{{{Topology::Switch, kMillion, 1e6, kMaxLatencyNs}}};
        const CollectiveResult r = collective_time(network, make_system({AlgorithmKind::Ring, false}, 1, 0),
                                                   NetworkBackend::AstraUnaware,
                                                   {CollectiveKind::AllGather, 1, whole_network_group(network)});
        CHECK(r.time_ns == 1048575.0 * 2e9);
    }
}
