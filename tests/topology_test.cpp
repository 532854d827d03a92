#include <doctest/doctest.h>

#include <algorithm>

#include "collective/comm_group.h"
#include "core/error.h"
#include "network/network.h"

using namespace dtcalc;

TEST_CASE("hop counts follow ASTRA-sim's analytical model") {
    CHECK(hops_between(Topology::Switch, 8, 0, 5) == 2);           // src -> switch -> dst
    CHECK(hops_between(Topology::FullyConnected, 8, 0, 5) == 1);
    CHECK(hops_between(Topology::Ring, 8, 0, 5) == 3);              // 0 -> 7 -> 6 -> 5, the short way
    CHECK(hops_between(Topology::Ring, 8, 1, 3) == 2);
    CHECK(hops_between(Topology::Ring, 8, 3, 3) == 0);
    // A group of the first 4 members of an 8-ring: the wrap 3 -> 0 is 3 hops.
    CHECK(hops_at_distance(Topology::Ring, 8, 4, 1) == 3);
    // The whole 4-ring: neighbours 1 hop, the opposite member 2.
    CHECK(hops_at_distance(Topology::Ring, 4, 4, 1) == 1);
    CHECK(hops_at_distance(Topology::Ring, 4, 4, 2) == 2);
}

TEST_CASE("the farthest of the first k peers on a ring, by hand and against every distance") {
    // The whole 8-ring: peers 1..3 are at most 3 hops; any 4 or more reach the opposite member, 4 hops.
    CHECK(farthest_hops_within(Topology::Ring, 8, 8, 3) == 3);
    CHECK(farthest_hops_within(Topology::Ring, 8, 8, 7) == 4);
    // The first 6 members of a 10-ring, peers 1..5: straight 0 -> 5 is 5 hops; the wrap from member
    // 6 - d back to 0 is min(6 - d, 4 + d): 5 at d = 1. At most 5.
    CHECK(farthest_hops_within(Topology::Ring, 10, 6, 5) == 5);
    // The first 3 of a 10-ring, peers 1..2: straight at most 2; wrap 2 -> 0 (d = 1) is 2 hops. 2.
    CHECK(farthest_hops_within(Topology::Ring, 10, 3, 2) == 2);
    CHECK(farthest_hops_within(Topology::Ring, 10, 1, 5) == 0);  // nobody to send to
    // The constant-time form equals the largest hops_at_distance over 1..k, for every ring size,
    // group size and k up to 40.
    int compared = 0;
    for (int n = 1; n <= 40; ++n)
        for (int g = 1; g <= n; ++g)
            for (int k = 1; k <= g + 1; ++k) {
                int brute = 0;
                for (int d = 1; d <= std::min(k, g - 1); ++d) brute = std::max(brute, hops_at_distance(Topology::Ring, n, g, d));
                CAPTURE(n);
                CAPTURE(g);
                CAPTURE(k);
                CHECK(farthest_hops_within(Topology::Ring, n, g, k) == brute);
                ++compared;
            }
    CHECK(compared == 12300);  // sum over n of sum over g of (g + 1)
}

TEST_CASE("NPU ids map to coordinates with dimension 0 fastest") {
    Network n;
    n.dimensions = {{Topology::FullyConnected, 8, 100, 20}, {Topology::Switch, 2, 25, 100}, {Topology::Ring, 4, 10, 50}};
    CHECK(n.total_npus() == 64);
    CHECK(n.coordinates(13) == std::vector<int>{5, 1, 0});   // 13 = 5 + 8*1
    CHECK(n.coordinates(58) == std::vector<int>{2, 1, 3});   // 58 = 2 + 8*1 + 16*3
    CHECK(n.npu_at({2, 1, 3}) == 58);
    CHECK(n.charged_dimension(13, 5) == 1);                   // (5,1,0) vs (5,0,0)
    CHECK(n.charged_dimension(13, 14) == 0);
    CHECK(n.charged_dimension(2, 50) == 2);                   // (2,0,0) vs (2,0,3)
    CHECK(n.hops(2, 50) == 1);                                // ring 0 -> 3 is one hop back
    CHECK(n.hops(13, 5) == 2);                                // switch
}

TEST_CASE("groups of the first N NPUs") {
    Network n;
    n.dimensions = {{Topology::FullyConnected, 8, 100, 20}, {Topology::Switch, 2, 25, 100}};
    CHECK(first_npus_group(n, 4, "--npus").members == std::vector<int>{4, 1});
    CHECK(first_npus_group(n, 16, "--npus").members == std::vector<int>{8, 2});
    CHECK(first_npus_group(n, 4, "--npus").spanned_dimensions() == std::vector<int>{0});
    CHECK_THROWS_WITH_AS(first_npus_group(n, 32, "--npus"), "--npus: the group has 32 NPUs but the network has only 16",
                         InputError);
    CHECK_THROWS_WITH_AS(first_npus_group(n, 12, "--npus"),
                         "--npus: 12 NPUs do not form a block of the network's dimensions (a group must fill whole "
                         "inner dimensions; try a multiple of 8)",
                         InputError);
    CHECK_THROWS_AS(first_npus_group(n, 0, "--npus"), InputError);
}
