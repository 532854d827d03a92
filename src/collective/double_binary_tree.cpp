#include "collective/double_binary_tree.h"

#include <bit>
#include <cstddef>

namespace dtcalc {

DoubleBinaryTrees double_binary_trees(int p) {
    DoubleBinaryTrees out;
    const int h = std::countr_zero(static_cast<unsigned>(p));  // p = 2^h
    for (int t = 0; t < 2; ++t) {
        std::vector<TreeLinks>& tree = out.tree[static_cast<std::size_t>(t)];
        tree.assign(static_cast<std::size_t>(p), TreeLinks{});
        const int base = t == 0 ? -1 : 0;  // id = label + base
        const int top = t == 0 ? p - 1 : 0;
        const int sub_root = (1 << (h - 1)) + base;
        for (int k = 1; k < p; ++k) {
            TreeLinks& node = tree[static_cast<std::size_t>(k + base)];
            const int z = std::countr_zero(static_cast<unsigned>(k));
            if (z > 0) {
                node.left = k - (1 << (z - 1)) + base;
                node.right = k + (1 << (z - 1)) + base;
            }
            if (z == h - 1) {
                node.parent = top;
            } else {
                const bool right_child = ((k >> (z + 1)) & 1) != 0;
                node.parent = (right_child ? k - (1 << z) : k + (1 << z)) + base;
            }
        }
        if (t == 0) tree[static_cast<std::size_t>(top)].left = sub_root;
        else tree[static_cast<std::size_t>(top)].right = sub_root;
    }
    return out;
}

}  // namespace dtcalc
