// What a node's NICs carry in NCCL's double binary tree over the nodes
// (nccl_tree_network_load), against the tree written out from NCCL's source.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "collective/nccl/nccl_bandwidth.h"

using namespace dtcalc;

// NCCL's double binary tree (src/graph/trees.cc): ncclGetBtree numbers ranks
// 0..n-1 with 0 the root of a tree whose node r has parent and children found
// from r's lowest set bit; ncclGetDtree takes it as the first tree and, as the
// second, its mirror (n even) or its shift by one rank (n odd). Written out
// here from that description, each node's edges over both trees counted.
namespace {

struct BtreeNode {
    int up = -1;
    std::vector<int> down;
};

BtreeNode btree(int n, int r) {
    int bit = 1;
    for (; bit < n; bit <<= 1)
        if (bit & r) break;
    BtreeNode out;
    if (r == 0) {
        if (n > 1) out.down.push_back(bit >> 1);
        return out;
    }
    out.up = (r ^ bit) | (bit << 1);
    if (out.up >= n) out.up = r ^ bit;
    int low = bit >> 1;
    if (low == 0) return out;
    out.down.push_back(r - low);
    int d1 = r + low;
    while (d1 >= n) {
        d1 = low == 0 ? -1 : r + low;
        low >>= 1;
    }
    if (d1 >= 0) out.down.push_back(d1);
    return out;
}

int edges_in_both_trees(int n, int r) {
    const BtreeNode first = btree(n, r);
    const int other = n % 2 == 1 ? (r - 1 + n) % n : n - 1 - r;
    const BtreeNode second = btree(n, other);
    return (first.up >= 0) + static_cast<int>(first.down.size()) + (second.up >= 0) +
           static_cast<int>(second.down.size());
}

}  // namespace

TEST_CASE("the double binary tree's busiest node: what its NICs carry per direction, in units of the data") {
    // Each tree carries half the data, S/2 across each edge each way; the
    // busiest node's edges over both trees / 2 is its NICs' load.
    CHECK(nccl_tree_network_load(1) == 0);
    for (int n = 2; n <= 1024; ++n) {
        int busiest = 0;
        for (int r = 0; r < n; ++r) busiest = std::max(busiest, edges_in_both_trees(n, r));
        CAPTURE(n);
        CHECK(nccl_tree_network_load(n) == busiest / 2.0);
    }
    // By hand: two nodes, each tree one edge: 1. Three nodes, the first tree
    // 0 - 2 - 1 (2 has two edges), the second shifted by one: 1 - 0 - 2 (0 has
    // two): node 0 and 2 have three edges: 1.5. From four on, a node inner in
    // one tree (three edges) is a leaf in the other: 2.
    CHECK(nccl_tree_network_load(2) == 1.0);
    CHECK(nccl_tree_network_load(3) == 1.5);
    CHECK(nccl_tree_network_load(4) == 2.0);
    CHECK(nccl_tree_network_load(1000000) == 2.0);
}

TEST_CASE("the most children across the network a node of NCCL's trees reduces from") {
    // Counted on the trees written out above, both of them, every node.
    CHECK(nccl_tree_network_fan_in(1) == 0);
    for (int n = 2; n <= 1024; ++n) {
        std::size_t most = 0;
        for (int r = 0; r < n; ++r) {
            const int other = n % 2 == 1 ? (r - 1 + n) % n : n - 1 - r;
            most = std::max({most, btree(n, r).down.size(), btree(n, other).down.size()});
        }
        CAPTURE(n);
        CHECK(nccl_tree_network_fan_in(n) == static_cast<int>(most));
    }
    // By hand: two nodes, 0 - 1, one child; three, 0 - 2 - 1, a chain; four,
    // node 2 (lowest set bit 2) has children 2 - 1 = 1 and 2 + 1 = 3.
    CHECK(nccl_tree_network_fan_in(2) == 1);
    CHECK(nccl_tree_network_fan_in(3) == 1);
    CHECK(nccl_tree_network_fan_in(4) == 2);
}
