// run_chunk_pipeline(): equal chunks through per-dimension queues with a
// limited number of slots (ASTRA-sim's active-chunks-per-dimension). Every
// expected time is a hand-drawn schedule, written out next to the check as
// [start, end) intervals per chunk (c0, c1, ...) and queue (q0, q1).
#include <doctest/doctest.h>

#include <span>
#include <vector>

#include "collective/chunk_pipeline.h"

using namespace dtcalc;

TEST_CASE("one phase: chunks go in batches of `slots`") {
    const std::vector<PipelinePhase> one{{0, 100.0, 0.0}};

    SUBCASE("4 chunks, 2 slots: 2 batches") {
        // c0, c1 [0,100); c2, c3 wait for the slots, [100,200).
        const PipelineResult r = run_chunk_pipeline(one, 4, 2);
        CHECK(r.total_ns == 200);
        // Waits: 0 + 0 + 100 + 100 = 200 over 4 chunks.
        REQUIRE(r.mean_wait_ns.size() == 1);
        CHECK(r.mean_wait_ns[0] == 50);
    }
    SUBCASE("4 chunks, 1 slot: one after another") {
        // [0,100) [100,200) [200,300) [300,400).
        const PipelineResult r = run_chunk_pipeline(one, 4, 1);
        CHECK(r.total_ns == 400);
        CHECK(r.mean_wait_ns[0] == doctest::Approx((0 + 100 + 200 + 300) / 4.0));  // 150
    }
    SUBCASE("3 chunks, 2 slots: a partial last batch still costs a whole duration") {
        // c0, c1 [0,100); c2 [100,200). ceil(3/2) = 2 batches.
        const PipelineResult r = run_chunk_pipeline(one, 3, 2);
        CHECK(r.total_ns == 200);
        CHECK(r.mean_wait_ns[0] == doctest::Approx(100.0 / 3.0));  // only c2 waits, 100
    }
    SUBCASE("more slots than chunks: all at once") {
        CHECK(run_chunk_pipeline(one, 4, 8).total_ns == 100);
    }
    SUBCASE("slots below 1 count as 1") {
        CHECK(run_chunk_pipeline(one, 2, 0).total_ns == 200);
    }
}

TEST_CASE("no phases or no chunks take no time") {
    CHECK(run_chunk_pipeline({}, 4, 2).total_ns == 0);
    CHECK(run_chunk_pipeline({{0, 100.0, 0.0}}, 0, 2).total_ns == 0);
}

TEST_CASE("two dimensions pipeline: the flow-shop result") {
    // Identical jobs in a 2-stage flow shop with one machine per stage finish at
    // sum(durations) + (chunks - 1) * max(durations), whichever stage is slower.
    SUBCASE("slow phase first") {
        // q0: c0 [0,100) c1 [100,200) c2 [200,300)
        // q1: c0 [100,130) c1 [200,230) c2 [300,330)
        // 100 + 30 + 2 * 100 = 330.
        const PipelineResult r = run_chunk_pipeline({{0, 100.0, 0.0}, {1, 30.0, 0.0}}, 3, 1);
        CHECK(r.total_ns == 330);
        CHECK(r.mean_wait_ns[0] == doctest::Approx((0 + 100 + 200) / 3.0));  // waiting for q0
        CHECK(r.mean_wait_ns[1] == 0);                                       // q1 is always free
    }
    SUBCASE("slow phase second") {
        // q0: c0 [0,30) c1 [30,60) c2 [60,90)
        // q1: c0 [30,130) c1 [130,230) (ready at 60) c2 [230,330) (ready at 90)
        // 30 + 100 + 2 * 100 = 330.
        const PipelineResult r = run_chunk_pipeline({{0, 30.0, 0.0}, {1, 100.0, 0.0}}, 3, 1);
        CHECK(r.total_ns == 330);
        // Waits in q1: c1 130 - 60 = 70, c2 230 - 90 = 140; (0 + 70 + 140) / 3 = 70.
        CHECK(r.mean_wait_ns[1] == doctest::Approx(70.0));
    }
    SUBCASE("with 2 slots, batches of 2 flow through together") {
        // Closed form from chunk_pipeline.h, bottleneck first:
        // (ceil(4/2) - 1) * 100 + (100 + 30) = 230.
        // q0: c0,c1 [0,100) c2,c3 [100,200); q1: c0,c1 [100,130) c2,c3 [200,230).
        CHECK(run_chunk_pipeline({{0, 100.0, 0.0}, {1, 30.0, 0.0}}, 4, 2).total_ns == 230);
    }
    SUBCASE("three phases, five chunks, two slots: the closed form") {
        // (ceil(5/2) - 1) * 100 + (100 + 40 + 60) = 2 * 100 + 200 = 400.
        CHECK(run_chunk_pipeline({{0, 100.0, 0.0}, {1, 40.0, 0.0}, {2, 60.0, 0.0}}, 5, 2).total_ns == 400);
    }
    SUBCASE("the middle phase as bottleneck") {
        // q0 10, q1 100, q2 10, 3 chunks, 1 slot: 10 + 3 * 100 + 10 = 320.
        // q1: c0 [10,110) c1 [110,210) c2 [210,310); q2: c2 [310,320).
        CHECK(run_chunk_pipeline({{0, 10.0, 0.0}, {1, 100.0, 0.0}, {2, 10.0, 0.0}}, 3, 1).total_ns == 320);
    }
}

TEST_CASE("a dimension visited twice shares its slots") {
    // Reduce-scatter up on q0 (100), all-reduce on q1 (50), all-gather down on q0 (100).
    const std::vector<PipelinePhase> up_and_down{{0, 100.0, 0.0}, {1, 50.0, 0.0}, {0, 100.0, 0.0}};

    SUBCASE("one chunk: just the sum") {
        CHECK(run_chunk_pipeline(up_and_down, 1, 1).total_ns == 250);  // 100 + 50 + 100
    }
    SUBCASE("two chunks, one slot") {
        // q0: c0 RS [0,100) c1 RS [100,200) c0 AG [200,300) c1 AG [300,400)
        // q1: c0 AR [100,150)              c1 AR [200,250)
        // c0's all-gather is ready at 150 but q0 is busy with c1's reduce-scatter
        // until 200. Lower bound: q0 alone has 2 chunks x 2 visits x 100 = 400 of work.
        const PipelineResult r = run_chunk_pipeline(up_and_down, 2, 1);
        CHECK(r.total_ns == 400);
        // Waits: RS c1 100; AR none; AG c0 200-150 = 50, c1 300-250 = 50.
        CHECK(r.mean_wait_ns[0] == doctest::Approx(50.0));
        CHECK(r.mean_wait_ns[1] == 0);
        CHECK(r.mean_wait_ns[2] == doctest::Approx(50.0));
    }
    SUBCASE("four chunks, two slots: pairs move together, as two chunks on one slot") {
        // q0: c0,c1 RS [0,100) c2,c3 RS [100,200); q1: c0,c1 [100,150) c2,c3 [200,250);
        // c0,c1 AG ready at 150 but both q0 slots are busy until 200: [200,300);
        // c2,c3 AG [300,400).
        CHECK(run_chunk_pipeline(up_and_down, 4, 2).total_ns == 400);
    }
    SUBCASE("three chunks, two slots: the slot left free by the odd chunk is used") {
        // q0 slot A: c0 RS [0,100) c2 RS [100,200) c1 AG [200,300)
        // q0 slot B: c1 RS [0,100) c0 AG [150,250) c2 AG [250,350)
        // q1: c0,c1 AR [100,150), c2 AR [200,250).
        CHECK(run_chunk_pipeline(up_and_down, 3, 2).total_ns == 350);
    }
    SUBCASE("the same phases on separate queues finish earlier") {
        // q0: c0 [0,100) c1 [100,200); q1: c0 [100,150) c1 [200,250);
        // q2: c0 [150,250) c1 [250,350).
        CHECK(run_chunk_pipeline({{0, 100.0, 0.0}, {1, 50.0, 0.0}, {2, 100.0, 0.0}}, 2, 1).total_ns == 350);
    }
}

TEST_CASE("congestion-aware stagger: chunks entering together queue on the link once") {
    SUBCASE("the second of two chunks entering together finishes one serialisation later") {
        // Both enter q0 at 0 (2 slots); c1 waits for c0's first serialisation (10):
        // c0 [0,100), c1 [10,110).
        const PipelineResult r = run_chunk_pipeline({{0, 100.0, 10.0}}, 2, 2);
        CHECK(r.total_ns == 110);
        CHECK(r.mean_wait_ns[0] == doctest::Approx(5.0));  // (0 + 10) / 2
    }
    SUBCASE("without serialisation they finish together") {
        CHECK(run_chunk_pipeline({{0, 100.0, 0.0}}, 2, 2).total_ns == 100);
    }
    SUBCASE("three chunks entering together: each one serialisation behind the last") {
        // c0 [0,100) c1 [10,110) c2 [20,120).
        CHECK(run_chunk_pipeline({{0, 100.0, 10.0}}, 3, 3).total_ns == 120);
    }
    SUBCASE("a chunk entering later than one serialisation is not delayed") {
        // Phase 0 (serialisation 30) staggers the pair: c0 [0,100), c1 [30,130).
        // Phase 1 (serialisation 10): c0 enters at 100, c1 at 130 >= 100 + 10, so
        // no wait: c0 [100,200), c1 [130,230).
        const PipelineResult r = run_chunk_pipeline({{0, 100.0, 30.0}, {1, 100.0, 10.0}}, 2, 2);
        CHECK(r.total_ns == 230);
        CHECK(r.mean_wait_ns[1] == 0);
    }
    SUBCASE("a chunk entering before the previous one's serialisation ends waits for the rest") {
        // As above, but phase 1 serialises for 40: c1 enters at 130 < 100 + 40 and
        // waits 10 more: c1 [140,240).
        const PipelineResult r = run_chunk_pipeline({{0, 100.0, 30.0}, {1, 100.0, 40.0}}, 2, 2);
        CHECK(r.total_ns == 240);
        CHECK(r.mean_wait_ns[1] == doctest::Approx(5.0));  // (0 + 10) / 2
    }
    SUBCASE("a chunk that waited for a slot is not delayed again") {
        // 1 slot: c0 [0,100), c1 enters at 100 >= 0 + 10: [100,200).
        CHECK(run_chunk_pipeline({{0, 100.0, 10.0}}, 2, 1).total_ns == 200);
    }
}

TEST_CASE("first come, first served: a shorter phase can make the whole take longer") {
    // Five phases, reduce-scatter in over q0 and q1, all-reduce on q2, all-gather
    // back over q1 and q0; two chunks, one slot per queue. Shortening the q2 phase
    // from 2 to 1 brings c0's all-gather to q1 at the same time as c1's
    // reduce-scatter; the tie goes to the lower chunk, c1 waits, and the end moves
    // from 10 to 11 (Graham's list-scheduling anomaly; a property of serving slots
    // in arrival order, not an arithmetic slip).
    SUBCASE("q2 phase 2 long: 10") {
        // q0: c0 [0,2) c1 [2,4); q1: c0 RS [2,3); q2: c0 [3,5);
        // q1: c1 RS [4,5); at 5, c0 AG (q1) and c1 (q2) both ready, different queues:
        // q1: c0 AG [5,7); q2: c1 [5,7); q0: c0 AG [7,8); q1: c1 AG [7,9); q0: c1 AG [9,10).
        CHECK(run_chunk_pipeline({{0, 2.0, 0.0}, {1, 1.0, 0.0}, {2, 2.0, 0.0}, {1, 2.0, 0.0}, {0, 1.0, 0.0}}, 2, 1)
                  .total_ns == 10);
    }
    SUBCASE("q2 phase 1 long: 11") {
        // q0: c0 [0,2) c1 [2,4); q1: c0 RS [2,3); q2: c0 [3,4);
        // at 4, c0 AG and c1 RS both want q1: c0 first, [4,6); c1 RS [6,7);
        // q0: c0 AG [6,7); q2: c1 [7,8); q1: c1 AG [8,10); q0: c1 AG [10,11).
        CHECK(run_chunk_pipeline({{0, 2.0, 0.0}, {1, 1.0, 0.0}, {2, 1.0, 0.0}, {1, 2.0, 0.0}, {0, 1.0, 0.0}}, 2, 1)
                  .total_ns == 11);
    }
}

TEST_CASE("the allocation-free overload gives the same total and waits") {
    // The revisited-dimension case above: 400 in all, mean waits 50, 0, 50.
    const std::vector<PipelinePhase> phases{{0, 100.0, 0.0}, {1, 50.0, 0.0}, {0, 100.0, 0.0}};
    std::vector<double> waits(phases.size(), -1.0);
    CHECK(run_chunk_pipeline(std::span<const PipelinePhase>(phases), 2, 1, std::span<double>(waits)) == 400);
    CHECK(waits == std::vector<double>{50.0, 0.0, 50.0});
}
