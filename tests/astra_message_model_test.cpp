// ASTRA-sim's analytical backends message by message (collective/message_model.h):
// one hand-worked case per mechanism, then the representative rank against
// every rank.
//
// Common numbers: 400 GB/s is B = 400 x 2^30 / 1e9 = 429.4967296 B/ns;
// local-mem-bw 3350 GB/s, so a reduction of m bytes is 3 floor(m / 3350) ns.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <utility>

#include "collective/collective_cost.h"
#include "collective/double_binary_tree.h"
#include "collective/message_model.h"

using namespace dtcalc;

namespace {

MessageModelInput input(Topology topology, int npus, double latency, bool aware, CollectiveKind kind,
                        AlgorithmKind algorithm, std::uint64_t chunk, int chunks, int active) {
    MessageModelInput in;
    in.topology = topology;
    in.npus = npus;
    in.bandwidth_gbps = 400;
    in.latency_ns = latency;
    in.congestion_aware = aware;
    in.kind = kind;
    in.algorithm = algorithm;
    in.chunk_bytes = chunk;
    in.chunks = chunks;
    in.active = active;
    in.endpoint_delay_ns = 10;
    in.local_mem_bw_gbps = 3350;
    return in;
}

}  // namespace

TEST_CASE("aware ring: chunks in flight keep the link busy at every step") {
    // FullyConnected 8, ring all-reduce of 256 MiB, 4 chunks of 64 MiB, 2 in flight.
    // m = 64 MiB / 8 = 8388608 B: sigma = floor(8388608 / 429.4967296) = floor(19531.25) = 19531,
    // T = floor(936.25 + 19531.25) = 20467, r = 3 floor(8388608 / 3350) = 3 x 2504 = 7512.
    // A step's own work T + ED + r = 20467 + 10 + 7512 = 27989 <= 2 sigma = 39062: the link
    // to the next rank never idles. 4 chunks x 14 steps = 56 messages back to back: the
    // first leaves at ED, the last 55 sigma later, arrives T after that, then one ED:
    // 10 + 55 x 19531 + 20467 + 10 = 1094692 (what ASTRA-sim prints).
    auto in = input(Topology::FullyConnected, 8, 936.25, true, CollectiveKind::AllReduce, AlgorithmKind::Ring,
                    64ull << 20, 4, 2);
    const MessageModelResult r = run_message_model(in);
    CHECK(r.representative);
    CHECK(r.sys0_ns == 1094692);
    CHECK(r.min_ns == 1094692);
    CHECK(r.max_ns == 1094692);
}

TEST_CASE("aware direct on a FullyConnected: only the chunks queue on each pair's link") {
    // 8 NPUs, all-to-all of 1 MiB, 4 chunks of 256 KiB, 2 in flight; m = 32768 B:
    // sigma = floor(76.29) = 76, T = floor(936.25 + 76.29) = 1012. The 7 messages of a
    // chunk use 7 different links and leave together.
    // chunk 0: sends at 10, arrives 1022, exits 1032.  chunk 1: waits sigma on each
    // link, sends at 86, arrives 1098, exits 1108.  chunk 2 (starts 1032): sends 1042,
    // arrives 2054, exits 2064.  chunk 3 (starts 1108): sends 1118 (the link, busy
    // with chunk 2 from 1042, is free at 1042 + 76 = 1118), arrives 2130, exits 2140.
    auto in = input(Topology::FullyConnected, 8, 936.25, true, CollectiveKind::AllToAll, AlgorithmKind::Direct,
                    262144, 4, 2);
    CHECK(run_message_model(in).sys0_ns == 2140);
}

TEST_CASE("aware direct on a Switch: the messages serialise on the uplink and the downlink") {
    // Same case on a Switch: two hops, each sigma = 76 and T = 1012.
    // Chunks 0 and 1 put 14 messages on the uplink at 10: message k starts at
    // 10 + 76k and reaches the switch at 1022 + 76k; the downlink takes them back to
    // back and delivers message k at 2034 + 76k. Chunk 0 (k = 0..6) has all its pieces
    // at 2034 + 456 = 2490 and exits at 2500; chunk 1 (k = 7..13) at 3022, exits 3032.
    // Chunk 2 sends at 2510 (uplink idle), delivered 4534 + 76k, exits 4990 + 10 = 5000.
    // Chunk 3 sends at 3042, when chunk 2's 7 messages leave the uplink (2510 + 532);
    // its pieces reach the switch at 4054 + 76k as the downlink frees (3978 + 76),
    // arrive 5066 + 76k, the last at 5522: exit 5532 (what ASTRA-sim prints).
    auto in = input(Topology::Switch, 8, 936.25, true, CollectiveKind::AllToAll, AlgorithmKind::Direct, 262144, 4, 2);
    CHECK(run_message_model(in).sys0_ns == 5532);
}

TEST_CASE("aware halvingDoubling: consecutive chunks meet on the distance-1 link") {
    // FullyConnected 4, reduce-scatter, 2 chunks of 1 MiB, both in flight.
    // Step 0: 524288 B to the rank 1 away: sigma0 = floor(1220.70) = 1220,
    // T0 = floor(936.25 + 1220.70) = 2156. Step 1: 262144 B to the rank 2 away:
    // sigma1 = 610, T1 = floor(936.25 + 610.35) = 1546. The first receipt reduces
    // 262144 B: r = 3 floor(78.25) = 234; the last one only pays ED.
    // chunk 0: sends at 10, receives 2166, sends step 1 at 2166 + 10 + 234 = 2410,
    //          receives 3956, exits 3966.
    // chunk 1: waits for the distance-1 link until 10 + 1220 = 1230, receives 3386,
    //          sends at 3630 (that link free since 3020), receives 5176, exits 5186.
    auto in = input(Topology::FullyConnected, 4, 936.25, true, CollectiveKind::ReduceScatter,
                    AlgorithmKind::HalvingDoubling, 1 << 20, 2, 2);
    CHECK(run_message_model(in).sys0_ns == 5186);
}

TEST_CASE("doubleBinaryTree: the whole chunk on every edge, roots finish first") {
    // FullyConnected 4, unaware, one chunk of 1 MiB: T = floor(936.25 + 2441.41) = 3377,
    // r = 3 floor(1048576 / 3350) = 3 x 313 = 939, ED = 10.
    // RootMax tree: top node 3 with one child 1 over leaves 0 and 2.
    //   leaves send at ED, node 1 has both at ED + T, sends up at 2ED + T + r;
    //   node 3 has it at 2ED + 2T + r, sends down and exits at 3ED + 2T + 2r = 8662;
    //   node 1 has it at 3ED + 3T + 2r, sends to both leaves and exits at
    //   4ED + 3T + 3r = 12988; the leaves have it at 4ED + 4T + 3r, exit at
    //   5ED + 4T + 3r = 16375.
    auto one = input(Topology::FullyConnected, 4, 936.25, false, CollectiveKind::AllReduce,
                     AlgorithmKind::DoubleBinaryTree, 1 << 20, 1, 1);
    const MessageModelResult r1 = run_message_model(one);
    CHECK_FALSE(r1.representative);
    CHECK(r1.sys0_ns == 16375);
    CHECK(r1.min_ns == 8662);
    CHECK(r1.max_ns == 16375);
    // Two chunks at once: chunk 1 runs on the RootMin tree (top node 0, child 2 over
    // leaves 1 and 3), so every rank is a leaf in one of the two trees and all
    // finish at 16375.
    auto two = one;
    two.chunks = 2;
    two.active = 2;
    const MessageModelResult r2 = run_message_model(two);
    CHECK(r2.sys0_ns == 16375);
    CHECK(r2.min_ns == 16375);
}

TEST_CASE("direct all-reduce on an unaware Ring: all-gather sends released per completed bundle") {
    // Ring 4, latency 100, one chunk of 1 MiB: m = 262144, m/B = 610.35,
    // 1 hop T1 = floor(100 + 610.35) = 710, 2 hops T2 = 810, r = 234, ED = 10.
    // Pieces from ranks 1 and 3 arrive at ED + T1 = 720, from rank 2 at 820; bundles
    // end at 720 + 244 = 964 (twice) and 1064. At 964 all three pieces are in, so the
    // all-gather sends to 1 and 2 go at 964, the one to 3 at 1064. By symmetry rank 0
    // receives: from 3 (its first send) at 964 + 710, from 2 (its second) at
    // 964 + 810 = 1774, from 1 (its third) at 1064 + 710 = 1774; exit at 1784.
    // The per-phase closed form, ED + 2 (T2 + ED) + r = 1884, misses the early release.
    auto in = input(Topology::Ring, 4, 100, false, CollectiveKind::AllReduce, AlgorithmKind::Direct, 1 << 20, 1, 1);
    CHECK(run_message_model(in).sys0_ns == 1784);

    Network network;
    network.dimensions.push_back({Topology::Ring, 4, 400, 100});
    SystemConfig system;
    for (auto& list : system.implementation) list.push_back({AlgorithmKind::Direct, false});
    system.endpoint_delay_ns = 10;
    system.local_mem_bw_gbps = 3350;
    const CollectiveResult c = collective_time(network, system, NetworkBackend::AstraUnaware,
                                               {CollectiveKind::AllReduce, 1 << 20, whole_network_group(network)});
    CHECK(c.time_ns == 1784);
    CHECK(c.method == "one rank's event pass");
}

TEST_CASE("one representative rank gives what every rank gives") {
    // The ring algorithm on the aware backend runs as a recurrence without an
    // event list; direct and halvingDoubling as one rank's event pass: both
    // against every rank's event pass, with chunks meeting at every step.
    int compared = 0;
    for (auto [chunks, active] : {std::pair{5, 2}, std::pair{7, 3}, std::pair{4, 1}})
    for (Topology topology : {Topology::Ring, Topology::Switch, Topology::FullyConnected}) {
        for (AlgorithmKind algorithm : {AlgorithmKind::Ring, AlgorithmKind::Direct, AlgorithmKind::HalvingDoubling}) {
            for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                        CollectiveKind::AllGather, CollectiveKind::AllToAll}) {
                for (int npus : {2, 4, 6, 8}) {
                    for (bool aware : {true, false}) {
                        for (std::uint64_t chunk : {std::uint64_t{4096}, std::uint64_t{1} << 22}) {
                            auto in = input(topology, npus, 936.25, aware, kind, algorithm, chunk, chunks, active);
                            if (!message_model_supports(in) || !message_model_is_representative(in)) continue;
                            auto all = in;
                            all.all_ranks = true;
                            const MessageModelResult one = run_message_model(in);
                            const MessageModelResult every = run_message_model(all);
                            INFO(static_cast<int>(topology) << " " << static_cast<int>(algorithm) << " "
                                                            << static_cast<int>(kind) << " p=" << npus
                                                            << " aware=" << aware << " chunk=" << chunk
                                                            << " chunks=" << chunks << " active=" << active);
                            CHECK(one.sys0_ns == every.sys0_ns);
                            CHECK(every.min_ns == every.max_ns);
                            auto pass = in;
                            pass.event_pass = true;
                            CHECK(run_message_model(pass).sys0_ns == one.sys0_ns);
                            ++compared;
                        }
                    }
                }
            }
        }
    }
    CHECK(compared > 300);
}

TEST_CASE("ASTRA-sim's two binary trees over 4 ranks, worked out from its in-order labels") {
    // p = 4, h = 2; label k (1..3) has ctz(k) levels below it.
    // Tree 0 (RootMax, id = k - 1, top 3): k=1 (id 0) is a leaf whose parent is
    // k + 1 = 2 (id 1); k=2 (id 1) has children k -/+ 1 (ids 0, 2) and, being
    // the subtree's root, the top 3 as parent; k=3 (id 2) is a right child, parent
    // k - 1 = 2 (id 1); the top's left child is the subtree root, id 1.
    // Tree 1 (RootMin, id = k, top 0): k=1 -> parent 2, k=2 -> children 1, 3 and
    // parent 0, k=3 -> parent 2; the top's right child is id 2.
    const DoubleBinaryTrees t = double_binary_trees(4);
    auto links = [&](int tree, int rank) {
        const TreeLinks& l = t.tree[static_cast<std::size_t>(tree)][static_cast<std::size_t>(rank)];
        return std::array<int, 3>{l.parent, l.left, l.right};
    };
    CHECK(links(0, 0) == std::array<int, 3>{1, -1, -1});
    CHECK(links(0, 1) == std::array<int, 3>{3, 0, 2});
    CHECK(links(0, 2) == std::array<int, 3>{1, -1, -1});
    CHECK(links(0, 3) == std::array<int, 3>{-1, 1, -1});
    CHECK(links(1, 0) == std::array<int, 3>{-1, -1, 2});
    CHECK(links(1, 1) == std::array<int, 3>{2, -1, -1});
    CHECK(links(1, 2) == std::array<int, 3>{0, 1, 3});
    CHECK(links(1, 3) == std::array<int, 3>{2, -1, -1});
}
