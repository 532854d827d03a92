// NCCL's tree over nodes and the NVLS-tree chunk and pipeline fill
// (nccl_tree_pipeline.h). Every expected value is worked out by hand from
// NCCL 2.29's source in the comment beside it.
#include <doctest/doctest.h>

#include <cstdint>

#include "collective/nccl/nccl_tree_pipeline.h"

using namespace dtcalc;

TEST_CASE("the depth of NCCL's binary tree over N nodes") {
    // ncclGetBtree: parent of r with lowest set bit b is (r ^ b) | (b << 1),
    // or r ^ b when that is >= N.
    CHECK(nccl_btree_depth(1) == 0);
    // 2 nodes: 1 -> (0 | 2 = 2 >= 2) -> 0: one edge.
    CHECK(nccl_btree_depth(2) == 1);
    // 3 nodes: 1 -> 2 -> (0 | 4 >= 3) -> 0: two edges.
    CHECK(nccl_btree_depth(3) == 2);
    // 4 nodes: 1 -> 2 -> 0 and 3 -> 2 -> 0.
    CHECK(nccl_btree_depth(4) == 2);
    // 5 nodes: 3 -> 2 -> 4 -> 0 (4's parent 8 >= 5 falls back to 0).
    CHECK(nccl_btree_depth(5) == 3);
    // 8 nodes: 1 -> 2 -> 4 -> 0.
    CHECK(nccl_btree_depth(8) == 3);
    // 10 nodes (the visible 10 x 8 runs): 1 -> 2 -> 4 -> 8 -> 0.
    CHECK(nccl_btree_depth(10) == 4);
    // 16 nodes: 15 -> 14 -> 12 -> 8 -> 0.
    CHECK(nccl_btree_depth(16) == 4);
    // 17 nodes: 1 -> 2 -> 4 -> 8 -> 16 -> 0.
    CHECK(nccl_btree_depth(17) == 5);
    // A binary tree over N nodes, one level per doubling: ceil(log2 N).
    for (std::int64_t n = 2; n <= 4096; ++n) {
        int ceil_log2 = 0;
        while ((std::int64_t{1} << ceil_log2) < n) ++ceil_log2;
        INFO("nodes " << n);
        CHECK(nccl_btree_depth(n) == ceil_log2);
    }
}

TEST_CASE("NCCL's NVLS-tree chunk per channel") {
    constexpr double KiB = 1024;
    constexpr double MiB = 1024 * KiB;
    // Two nodes, 8 heads: NCCL_NVLS_CHUNKSIZE 128 KiB while the channel's bytes
    // are >= 4 x 8 x 128 KiB = 4 MiB; below, 64 KiB; below 8 x 64 KiB = 512 KiB,
    // 32 KiB.
    CHECK(nccl_nvls_tree_chunk_bytes(64 * MiB, 8, 2) == 128 * KiB);
    CHECK(nccl_nvls_tree_chunk_bytes(4 * MiB, 8, 2) == 128 * KiB);
    CHECK(nccl_nvls_tree_chunk_bytes(4 * MiB - 1, 8, 2) == 64 * KiB);
    CHECK(nccl_nvls_tree_chunk_bytes(512 * KiB - 1, 8, 2) == 32 * KiB);
    // Four nodes and more: capped at 64 KiB (NCCL_NVLSTREE_MAX_CHUNKSIZE's
    // default); 32 KiB below 8 x 64 KiB = 512 KiB per channel.
    CHECK(nccl_nvls_tree_chunk_bytes(1024 * MiB, 8, 4) == 64 * KiB);
    CHECK(nccl_nvls_tree_chunk_bytes(2 * MiB, 8, 10) == 64 * KiB);
    CHECK(nccl_nvls_tree_chunk_bytes(512 * KiB, 8, 10) == 64 * KiB);
    CHECK(nccl_nvls_tree_chunk_bytes(512 * KiB - 1, 8, 10) == 32 * KiB);
    // Four heads (4 GPUs, one NIC each): 32 KiB below 4 x 64 KiB = 256 KiB.
    CHECK(nccl_nvls_tree_chunk_bytes(256 * KiB, 4, 10) == 64 * KiB);
    CHECK(nccl_nvls_tree_chunk_bytes(256 * KiB - 1, 4, 10) == 32 * KiB);
}

TEST_CASE("an NVLS-tree loop: channels x heads x chunk, at most the message") {
    constexpr double MiB = 1024.0 * 1024;
    // 10 nodes, 16 channels, 8 heads, 32 MiB: 2 MiB per channel, 64 KiB
    // chunks: 16 x 8 x 64 KiB = 8 MiB.
    CHECK(nccl_nvls_tree_loop_bytes(32 * MiB, 10, 16, 8) == 8 * MiB);
    // 2 nodes, 1 GiB: 128 KiB chunks: 16 MiB.
    CHECK(nccl_nvls_tree_loop_bytes(1024 * MiB, 2, 16, 8) == 16 * MiB);
    // 2 nodes, 4 MiB: 256 KiB per channel, under 4 x 8 x 128 KiB = 4 MiB
    // (64 KiB chunks) and under 8 x 64 KiB = 512 KiB (32 KiB chunks):
    // 16 x 8 x 32 KiB = 4 MiB, the whole message.
    CHECK(nccl_nvls_tree_loop_bytes(4 * MiB, 2, 16, 8) == 4 * MiB);
    // 1 MiB on 16 nodes: a 4 MiB loop of 32 KiB chunks, cut to the message.
    CHECK(nccl_nvls_tree_loop_bytes(1 * MiB, 16, 16, 8) == 1 * MiB);
}

TEST_CASE("the NVLS-tree network fill: one loop per hop, up at the up rate and down at the steady one") {
    // 10 nodes, 16 channels, 8 heads, 32 MiB: 2 MiB per channel, 64 KiB chunks,
    // a loop of 16 x 8 x 64 KiB = 8 MiB; depth 4: 4 hops up x 8388608 B / 272
    // GB/s = 123361.9 ns and 4 down x 8388608 / 182.2 = 184162.7 ns: 307524.6 ns.
    CHECK(nccl_nvls_tree_network_fill_ns(32.0 * 1024 * 1024, 10, 16, 8, 272.0, 182.2) ==
          doctest::Approx(307524.6).epsilon(1e-6));
    // The same at 1 GiB: the loop is still 8 MiB, the fill the same.
    CHECK(nccl_nvls_tree_network_fill_ns(1024.0 * 1024 * 1024, 10, 16, 8, 272.0, 182.2) ==
          doctest::Approx(307524.6).epsilon(1e-6));
    // 2 nodes, 1 GiB: 128 KiB chunks, a 16 MiB loop, depth 1, both ways at 272:
    // 2 x 16777216 / 272 = 123361.9 ns.
    CHECK(nccl_nvls_tree_network_fill_ns(1024.0 * 1024 * 1024, 2, 16, 8, 272.0, 272.0) ==
          doctest::Approx(123361.9).epsilon(1e-6));
    // A message smaller than one loop fills with itself: 1 MiB on 16 nodes
    // (64 KiB per channel, 32 KiB chunks, 4 MiB loop), depth 4: 4 x 1048576 /
    // 200 + 4 x 1048576 / 100 = 20971.5 + 41943.0 = 62914.6 ns.
    CHECK(nccl_nvls_tree_network_fill_ns(1024.0 * 1024, 16, 16, 8, 200.0, 100.0) ==
          doctest::Approx(62914.56).epsilon(1e-6));
    // One node: no tree.
    CHECK(nccl_nvls_tree_network_fill_ns(1024.0 * 1024, 1, 16, 8, 100.0, 100.0) == 0.0);
}
