// Which runs of one measurement a fit trusts (calibrate/row_consensus.h).
// Expected sets are worked out by hand from the values in each case.
#include <doctest/doctest.h>

#include <vector>

#include "calibrate/row_consensus.h"

using namespace dtcalc;

TEST_CASE("row consensus: runs within 2x of each other all agree, however many") {
    // 2540 / 1280 = 1.98 < 2: one window holds all four.
    const RowConsensus r = row_consensus({1290, 1280, 1300, 2540}, 2.0);
    CHECK_FALSE(r.contradictory);
    CHECK(r.kept == std::vector<std::size_t>{0, 1, 2, 3});
    CHECK(r.outliers.empty());
}

TEST_CASE("row consensus: a run 2x or more from a majority that agrees is an outlier") {
    // 5000 / 1280 = 3.9: the window 1280-1300 holds 3 of 4 (> half), 5000 is out;
    // 640 sits at exactly half of 1280 (1280 / 640 = 2, not < 2): out too.
    const RowConsensus r = row_consensus({1290, 5000, 1280, 1300}, 2.0);
    CHECK_FALSE(r.contradictory);
    CHECK(r.kept == std::vector<std::size_t>{0, 2, 3});
    CHECK(r.outliers == std::vector<std::size_t>{1});
    const RowConsensus low = row_consensus({640, 1280, 1290, 1300, 1310}, 2.0);
    CHECK(low.kept == std::vector<std::size_t>{1, 2, 3, 4});
    CHECK(low.outliers == std::vector<std::size_t>{0});
}

TEST_CASE("row consensus: without a majority nothing says which run is right") {
    // Two runs 2.5x apart: each window holds 1 of 2 (not more than half).
    CHECK(row_consensus({182.87, 457.175}, 2.0).contradictory);
    // Two pairs against two, 3x apart: windows of 2 of 4.
    const RowConsensus r = row_consensus({100, 101, 300, 303}, 2.0);
    CHECK(r.contradictory);
    CHECK(r.kept.empty());
    CHECK(r.outliers.empty());
    // One run alone agrees with itself.
    CHECK(row_consensus({42}, 2.0).kept == std::vector<std::size_t>{0});
}

TEST_CASE("row consensus: among windows as large, the tighter one") {
    // Sorted 100, 150, 190, 290: windows [100, 150, 190] (1.9x) and
    // [150, 190, 290] (1.93x) both hold 3 of 4; the first is tighter, so 290 is out.
    const RowConsensus r = row_consensus({290, 190, 150, 100}, 2.0);
    CHECK(r.kept == std::vector<std::size_t>{1, 2, 3});
    CHECK(r.outliers == std::vector<std::size_t>{0});
}

TEST_CASE("median of a subset: the middle value, or the mean of the middle two") {
    const std::vector<double> v{5, 1, 9, 3};
    CHECK(median_of(v, {0, 1, 2}) == 5.0);     // 1, 5, 9
    CHECK(median_of(v, {0, 1, 2, 3}) == 4.0);  // 1, 3, 5, 9: (3 + 5) / 2
}
