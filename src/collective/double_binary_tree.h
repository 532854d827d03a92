#pragma once
// ASTRA-sim's two binary trees over p = 2^h ranks (DoubleBinaryTreeAllReduce,
// BinaryTree): in-order labels of a perfect binary tree of height h, 1-based,
// where label k has ctz(k) levels below it, its children are k -/+ 2^(ctz-1)
// and its parent k +/- 2^ctz. Tree 0 (RootMax): the subtree holds ids 0..p-2
// and the top is p-1, its left child the subtree's root. Tree 1 (RootMin): the
// top is 0, the subtree ids 1..p-1, its right child the subtree's root.
#include <array>
#include <vector>

namespace dtcalc {

struct TreeLinks {
    int parent = -1, left = -1, right = -1;  ///< -1: none
};

struct DoubleBinaryTrees {
    std::array<std::vector<TreeLinks>, 2> tree;  ///< [tree][rank]
};

/// Both trees over `p` ranks; `p` is a power of two, at least 2.
DoubleBinaryTrees double_binary_trees(int p);

}  // namespace dtcalc
