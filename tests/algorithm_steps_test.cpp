// algorithm_steps(): the closed-form step schedule of each algorithm x
// collective on one dimension of p NPUs (p = 2, 4, 8), checked against the
// table in src/collective/algorithm_steps.h and SEMANTICS.md.
//
// Each schedule is rendered as one string, one entry per run of identical steps:
//     "<count>x<bytes>B d<peer distance> m<messages per step> <R if it reduces, else ->"
// separated by " | ". Every expected string is worked out by hand in the comment
// above it; D is the phase's data (data_bytes), p the number of NPUs.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "collective/algorithm_steps.h"

using namespace dtcalc;

namespace {

std::string describe(const AlgorithmSteps& steps) {
    std::string out;
    for (const StepRun& r : steps.runs) {
        if (!out.empty()) out += " | ";
        out += std::to_string(r.count) + "x" + std::to_string(r.message_bytes) + "B d" +
               std::to_string(r.peer_distance) + " m" + std::to_string(r.messages_per_step) +
               (r.reduces ? " R" : " -");
    }
    return out;
}

std::string schedule(CollectiveKind kind, AlgorithmKind algorithm, int p, std::uint64_t d) {
    return describe(algorithm_steps(kind, algorithm, p, d));
}

/// Local reductions one chunk pays in a phase: reducing steps, summed over runs.
int reducing_steps(const AlgorithmSteps& steps) {
    int n = 0;
    for (const StepRun& r : steps.runs)
        if (r.reduces) n += r.count;
    return n;
}

constexpr auto AR = CollectiveKind::AllReduce;
constexpr auto RS = CollectiveKind::ReduceScatter;
constexpr auto AG = CollectiveKind::AllGather;
constexpr auto A2A = CollectiveKind::AllToAll;

}  // namespace

TEST_CASE("ring: step counts, block-sized messages to the next neighbour") {
    SUBCASE("all-reduce: p-1 reducing steps then p-1 gathering steps of D/p") {
        // p=2, D=4096: 1 step of 4096/2 = 2048 reducing, then 1 of 2048 not.
        CHECK(schedule(AR, AlgorithmKind::Ring, 2, 4096) == "1x2048B d1 m1 R | 1x2048B d1 m1 -");
        // p=4, D=4096: 3 steps of 4096/4 = 1024 reducing, 3 of 1024 not; 2(p-1) = 6 in all.
        CHECK(schedule(AR, AlgorithmKind::Ring, 4, 4096) == "3x1024B d1 m1 R | 3x1024B d1 m1 -");
        // p=8, D=4096: 7 + 7 steps of 4096/8 = 512.
        CHECK(schedule(AR, AlgorithmKind::Ring, 8, 4096) == "7x512B d1 m1 R | 7x512B d1 m1 -");
        CHECK(algorithm_steps(AR, AlgorithmKind::Ring, 8, 4096).total_steps() == 14);  // 2(8-1)
    }
    SUBCASE("reduce-scatter: p-1 steps of D/p, every one reducing") {
        CHECK(schedule(RS, AlgorithmKind::Ring, 2, 4096) == "1x2048B d1 m1 R");  // 2-1 steps, 4096/2
        CHECK(schedule(RS, AlgorithmKind::Ring, 4, 4096) == "3x1024B d1 m1 R");  // 4-1 steps, 4096/4
        CHECK(schedule(RS, AlgorithmKind::Ring, 8, 4096) == "7x512B d1 m1 R");   // 8-1 steps, 4096/8
    }
    SUBCASE("all-gather: p-1 steps of D/p (D is the gathered output), none reducing") {
        CHECK(schedule(AG, AlgorithmKind::Ring, 2, 4096) == "1x2048B d1 m1 -");
        CHECK(schedule(AG, AlgorithmKind::Ring, 4, 4096) == "3x1024B d1 m1 -");
        CHECK(schedule(AG, AlgorithmKind::Ring, 8, 4096) == "7x512B d1 m1 -");
    }
    SUBCASE("all-to-all: p(p-1)/2 steps of D/p, one after another") {
        CHECK(schedule(A2A, AlgorithmKind::Ring, 2, 4096) == "1x2048B d1 m1 -");   // 2*1/2 = 1
        CHECK(schedule(A2A, AlgorithmKind::Ring, 4, 4096) == "6x1024B d1 m1 -");   // 4*3/2 = 6
        CHECK(schedule(A2A, AlgorithmKind::Ring, 8, 4096) == "28x512B d1 m1 -");   // 8*7/2 = 28
    }
}

TEST_CASE("direct: one step to all p-1 peers at once, the farthest p-1 positions away") {
    SUBCASE("reduce-scatter: 1 reducing step, p-1 messages of D/p") {
        CHECK(schedule(RS, AlgorithmKind::Direct, 2, 4096) == "1x2048B d1 m1 R");  // 1 peer, 4096/2
        CHECK(schedule(RS, AlgorithmKind::Direct, 4, 4096) == "1x1024B d3 m3 R");  // 3 peers, 4096/4
        CHECK(schedule(RS, AlgorithmKind::Direct, 8, 4096) == "1x512B d7 m7 R");   // 7 peers, 4096/8
    }
    SUBCASE("all-gather: 1 step, p-1 messages of D/p") {
        CHECK(schedule(AG, AlgorithmKind::Direct, 2, 4096) == "1x2048B d1 m1 -");
        CHECK(schedule(AG, AlgorithmKind::Direct, 4, 4096) == "1x1024B d3 m3 -");
        CHECK(schedule(AG, AlgorithmKind::Direct, 8, 4096) == "1x512B d7 m7 -");
    }
    SUBCASE("all-reduce: the reduce-scatter step then the all-gather step") {
        CHECK(schedule(AR, AlgorithmKind::Direct, 2, 4096) == "1x2048B d1 m1 R | 1x2048B d1 m1 -");
        CHECK(schedule(AR, AlgorithmKind::Direct, 4, 4096) == "1x1024B d3 m3 R | 1x1024B d3 m3 -");
        CHECK(schedule(AR, AlgorithmKind::Direct, 8, 4096) == "1x512B d7 m7 R | 1x512B d7 m7 -");
        CHECK(algorithm_steps(AR, AlgorithmKind::Direct, 8, 4096).total_steps() == 2);
    }
    SUBCASE("all-to-all: 1 step, p-1 messages of D/p") {
        CHECK(schedule(A2A, AlgorithmKind::Direct, 2, 4096) == "1x2048B d1 m1 -");
        CHECK(schedule(A2A, AlgorithmKind::Direct, 4, 4096) == "1x1024B d3 m3 -");
        CHECK(schedule(A2A, AlgorithmKind::Direct, 8, 4096) == "1x512B d7 m7 -");
    }
}

TEST_CASE("halvingDoubling: log2 p steps, partner 2^s away, halves shrinking then growing") {
    SUBCASE("reduce-scatter: D/2, D/4, ... D/p; the first step does not reduce") {
        // p=2: one step of 4096/2 = 2048 to the partner 2^0 = 1 away, and it is
        // the first step, so no reduction at all.
        CHECK(schedule(RS, AlgorithmKind::HalvingDoubling, 2, 4096) == "1x2048B d1 m1 -");
        // p=4: log2 4 = 2 steps: 4096/2 = 2048 at distance 1 (no reduction),
        // 4096/4 = 1024 at distance 2 (reduces).
        CHECK(schedule(RS, AlgorithmKind::HalvingDoubling, 4, 4096) == "1x2048B d1 m1 - | 1x1024B d2 m1 R");
        // p=8: 3 steps: 2048 @1 (-), 1024 @2 (R), 512 @4 (R).
        CHECK(schedule(RS, AlgorithmKind::HalvingDoubling, 8, 4096) ==
              "1x2048B d1 m1 - | 1x1024B d2 m1 R | 1x512B d4 m1 R");
    }
    SUBCASE("all-gather: the mirror image, D/p first, none reducing") {
        CHECK(schedule(AG, AlgorithmKind::HalvingDoubling, 2, 4096) == "1x2048B d1 m1 -");
        // p=4: 4096/4 = 1024 @2, then 4096/2 = 2048 @1.
        CHECK(schedule(AG, AlgorithmKind::HalvingDoubling, 4, 4096) == "1x1024B d2 m1 - | 1x2048B d1 m1 -");
        // p=8: 512 @4, 1024 @2, 2048 @1.
        CHECK(schedule(AG, AlgorithmKind::HalvingDoubling, 8, 4096) ==
              "1x512B d4 m1 - | 1x1024B d2 m1 - | 1x2048B d1 m1 -");
    }
    SUBCASE("all-reduce: reduce-scatter then all-gather, 2 log2 p steps") {
        CHECK(schedule(AR, AlgorithmKind::HalvingDoubling, 2, 4096) == "1x2048B d1 m1 - | 1x2048B d1 m1 -");
        CHECK(schedule(AR, AlgorithmKind::HalvingDoubling, 4, 4096) ==
              "1x2048B d1 m1 - | 1x1024B d2 m1 R | 1x1024B d2 m1 - | 1x2048B d1 m1 -");
        const AlgorithmSteps p8 = algorithm_steps(AR, AlgorithmKind::HalvingDoubling, 8, 4096);
        CHECK(p8.total_steps() == 6);     // 2 * log2 8
        CHECK(reducing_steps(p8) == 2);   // log2 8 - 1: the first halving step skips its reduction
        CHECK(describe(p8) ==
              "1x2048B d1 m1 - | 1x1024B d2 m1 R | 1x512B d4 m1 R | 1x512B d4 m1 - | 1x1024B d2 m1 - | 1x2048B d1 m1 -");
    }
    SUBCASE("all-to-all does not exist") {
        CHECK_FALSE(supports(A2A, AlgorithmKind::HalvingDoubling));
        CHECK_THROWS_AS(algorithm_steps(A2A, AlgorithmKind::HalvingDoubling, 4, 4096), std::invalid_argument);
    }
}

TEST_CASE("doubleBinaryTree: all-reduce only, the whole chunk up and down floor(log2 p) levels") {
    SUBCASE("all-reduce: 2 floor(log2 p) steps of D, every one reducing") {
        // p=2: floor(log2 2) = 1 level up, 1 down, 4096 bytes each.
        CHECK(schedule(AR, AlgorithmKind::DoubleBinaryTree, 2, 4096) == "1x4096B d1 m1 R | 1x4096B d1 m1 R");
        // p=4: floor(log2 4) = 2.
        CHECK(schedule(AR, AlgorithmKind::DoubleBinaryTree, 4, 4096) == "2x4096B d1 m1 R | 2x4096B d1 m1 R");
        // p=8: floor(log2 8) = 3; 6 steps, 6 reductions.
        const AlgorithmSteps p8 = algorithm_steps(AR, AlgorithmKind::DoubleBinaryTree, 8, 4096);
        CHECK(describe(p8) == "3x4096B d1 m1 R | 3x4096B d1 m1 R");
        CHECK(p8.total_steps() == 6);
        CHECK(reducing_steps(p8) == 6);
    }
    SUBCASE("reduce-scatter, all-gather and all-to-all do not exist") {
        for (CollectiveKind kind : {RS, AG, A2A}) {
            CAPTURE(collective_kind_name(kind));
            CHECK_FALSE(supports(kind, AlgorithmKind::DoubleBinaryTree));
            CHECK_THROWS_AS(algorithm_steps(kind, AlgorithmKind::DoubleBinaryTree, 4, 4096), std::invalid_argument);
        }
    }
}

TEST_CASE("supports: every other algorithm x collective exists") {
    for (AlgorithmKind algorithm : {AlgorithmKind::Ring, AlgorithmKind::Direct})
        for (CollectiveKind kind : {AR, RS, AG, A2A}) CHECK(supports(kind, algorithm));
    for (CollectiveKind kind : {AR, RS, AG}) CHECK(supports(kind, AlgorithmKind::HalvingDoubling));
    CHECK(supports(AR, AlgorithmKind::DoubleBinaryTree));
}

TEST_CASE("reductions per chunk, summed over a phase") {
    // ring all-reduce: the p-1 reduce-scatter steps; ring reduce-scatter: all p-1.
    CHECK(reducing_steps(algorithm_steps(AR, AlgorithmKind::Ring, 8, 4096)) == 7);
    CHECK(reducing_steps(algorithm_steps(RS, AlgorithmKind::Ring, 8, 4096)) == 7);
    // direct: the one reduce-scatter step.
    CHECK(reducing_steps(algorithm_steps(AR, AlgorithmKind::Direct, 8, 4096)) == 1);
    // halvingDoubling reduce-scatter on 8: steps 2 and 3 of 3.
    CHECK(reducing_steps(algorithm_steps(RS, AlgorithmKind::HalvingDoubling, 8, 4096)) == 2);
    // gathers never reduce.
    for (AlgorithmKind algorithm : {AlgorithmKind::Ring, AlgorithmKind::Direct, AlgorithmKind::HalvingDoubling})
        CHECK(reducing_steps(algorithm_steps(AG, algorithm, 8, 4096)) == 0);
    CHECK(reducing_steps(algorithm_steps(A2A, AlgorithmKind::Ring, 8, 4096)) == 0);
}

TEST_CASE("block sizes are floored when D is not a multiple of p") {
    // ring on 4, D = 4098: 4098 / 4 = 1024.5, floored to 1024.
    CHECK(schedule(RS, AlgorithmKind::Ring, 4, 4098) == "3x1024B d1 m1 R");
    // halvingDoubling on 4, D = 4098: 4098/2 = 2049, then 2049/2 = 1024.5 -> 1024.
    CHECK(schedule(RS, AlgorithmKind::HalvingDoubling, 4, 4098) == "1x2049B d1 m1 - | 1x1024B d2 m1 R");
}

TEST_CASE("a group of one NPU has nothing to do") {
    for (AlgorithmKind algorithm : {AlgorithmKind::Ring, AlgorithmKind::Direct, AlgorithmKind::HalvingDoubling}) {
        const AlgorithmSteps steps = algorithm_steps(AR, algorithm, 1, 4096);
        CHECK(steps.runs.size() == 0);
        CHECK(steps.total_steps() == 0);
    }
}
