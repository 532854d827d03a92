// Covered length of busy intervals, worked by hand.
#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "core/interval_union.h"

using dtcalc::covered_length;
using Intervals = std::vector<std::pair<double, double>>;

TEST_CASE("covered length: overlaps count once, gaps not at all") {
    CHECK(covered_length(Intervals{}) == 0);
    CHECK(covered_length(Intervals{{2, 5}}) == 3);
    CHECK(covered_length(Intervals{{0, 4}, {1, 2}, {3, 6}}) == 6);   // [0, 6]
    CHECK(covered_length(Intervals{{0, 1}, {1, 3}}) == 3);           // touching: [0, 3]
    CHECK(covered_length(Intervals{{0, 1}, {2, 3}, {2.5, 7}}) == 6);  // [0, 1] and [2, 7]: 1 + 5
    CHECK(covered_length(Intervals{{5, 5}, {5, 9}}) == 4);           // an empty interval adds nothing
}
