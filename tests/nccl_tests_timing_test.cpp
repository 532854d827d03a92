// What nccl-tests prints for sendrecv_perf across nodes (validate/nccl_tests_timing.h):
// the mean over ranks of each rank's own time over the timed operations. Every
// expected value is worked out by hand beside it.
#include <doctest/doctest.h>

#include "validate/nccl_tests_timing.h"

using namespace dtcalc;

TEST_CASE("sendrecv_perf: every rank on the network path prints the network transfer") {
    // 2 x 1 and 10 x 1: every transfer crosses nodes, every rank finishes
    // operation k at k x T.
    CHECK(nccl_tests_sendrecv_printed_ns(2, 1, 1000.0, 100.0, 20) == doctest::Approx(1000.0));
    CHECK(nccl_tests_sendrecv_printed_ns(10, 1, 1000.0, 100.0, 20) == doctest::Approx(1000.0));
    // 2 x 2: rank 0 receives from rank 3 and rank 1 sends to rank 2 over the
    // network, so both ranks of a node wait on it every operation: T again.
    CHECK(nccl_tests_sendrecv_printed_ns(2, 2, 1000.0, 100.0, 20) == doctest::Approx(1000.0));
    // One node: no network; the NVLink transfer.
    CHECK(nccl_tests_sendrecv_printed_ns(1, 8, 1000.0, 100.0, 20) == doctest::Approx(100.0));
}

TEST_CASE("sendrecv_perf: NVLink-only ranks run ahead of the network pairs") {
    // 2 x 4, T = 1000, t = 100, 20 operations. Ranks 0 and 3 (and 4 and 7) use
    // the network and finish operation k at kT. Rank 1 receives from rank 0,
    // whose operation k starts at (k-1)T, and sends to rank 2, which is never
    // later: it finishes at (k-1)T + t; rank 2 the same through rank 3. Mean
    // over the 8 ranks at k = 20: (4 x 20000 + 4 x 19100) / 8 = 19550, / 20 = 977.5.
    CHECK(nccl_tests_sendrecv_printed_ns(2, 4, 1000.0, 100.0, 20) == doctest::Approx(977.5));
    // 2 x 8: a rank d NVLink hops from the nearer network rank finishes at
    // (20 - d)T + d t; per node d = 0, 1, 2, 3, 3, 2, 1, 0, so the mean is
    // (148 T + 12 t) / 8 = 18.5 T + 1.5 t = 18650, / 20 = 932.5.
    CHECK(nccl_tests_sendrecv_printed_ns(2, 8, 1000.0, 100.0, 20) == doctest::Approx(932.5));
    // Ten nodes of 8: every node is the same chain, so the same 932.5.
    CHECK(nccl_tests_sendrecv_printed_ns(10, 8, 1000.0, 100.0, 20) == doctest::Approx(932.5));
    // Fewer operations, a larger share: 2 x 4 with 5 operations:
    // (4 x 5000 + 4 x 4100) / 8 / 5 = 910.
    CHECK(nccl_tests_sendrecv_printed_ns(2, 4, 1000.0, 100.0, 5) == doctest::Approx(910.0));
    // Only 2 operations on 2 x 8: rank d = 1 finishes at T + t = 1100, ranks
    // d = 2, 3 have not been reached by the network by then: 2t = 200 (every
    // operation of theirs waits only on NVLink). Per node: 2 x 2000 + 2 x 1100
    // + 4 x 200 = 7000; mean 875, / 2 = 437.5.
    CHECK(nccl_tests_sendrecv_printed_ns(2, 8, 1000.0, 100.0, 2) == doctest::Approx(437.5));
}

TEST_CASE("sendrecv_perf: long runs settle to one operation per network transfer") {
    // After the first G operations every rank finishes one operation per T;
    // the mean over a node of 8 is then K T - (0+1+2+3+3+2+1+0)(T - t)/8 =
    // K T - 1.5 (T - t). K = 1000: 1000000 - 1350 = 998650, / 1000 = 998.65.
    CHECK(nccl_tests_sendrecv_printed_ns(2, 8, 1000.0, 100.0, 1000) == doctest::Approx(998.65));
    // A trillion operations take no longer to price than twenty.
    CHECK(nccl_tests_sendrecv_printed_ns(64, 8, 1000.0, 100.0, 1000000000000LL) == doctest::Approx(1000.0));
}
