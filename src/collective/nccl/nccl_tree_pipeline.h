#pragma once
// The tree NCCL builds over nodes, and how an NVLS-tree all-reduce pipelines
// its data through it (NCCL 2.29).
//
// Tree (src/graph/trees.cc, ncclGetBtree): node 0 is the root; a node r whose
// lowest set bit is b hangs under (r ^ b) | (b << 1), or under r ^ b when that
// is not a node. ncclGetDtree's second tree mirrors (N even) or shifts (N odd)
// the first, so both have the same depth:
//   depth(N) = edges from the root to the deepest node
//            = 0, 1, 2, 2, 3 (N = 1..5), 3 on 8, 4 on 9..16: ceil(log2 N)
// (NCCL's latency model charges floor(log2 N) hops each way instead.)
//
// Chunk (src/enqueue.cc, calcCollChunking for NCCL_ALGO_NVLS_TREE, called per
// channel with that channel's bytes b): start at NCCL_NVLS_CHUNKSIZE (128 KiB),
// capped at 64 KiB from 4 nodes on (NCCL_NVLSTREE_MAX_CHUNKSIZE's default);
// with h = NVLS heads (concurrent ops): 128 KiB if b < 16 h chunk, 64 KiB if
// b < 4 h chunk, 32 KiB if b < h chunk (each only lowers the chunk).
//
// Pipeline (src/device/all_reduce.h, RunWorkColl<..., NCCL_ALGO_NVLS_TREE>):
// one loop of a channel is h chunks, one per head; head i reduces its chunk
// through NVLS, sends it up the tree through its NIC, and multicasts what comes
// back down. Every head runs every channel, so one loop of all channels is
// channels x h x chunk bytes. The first loop reaches the root after depth
// network hops and returns after depth more, and each hop holds one loop. On
// the way up nothing else crosses the NICs yet: a node sends only its own
// climb, so a hop moves at the up rate (the NICs' rate for the channels x
// heads sends, at most the node's NVLS rate; no tree load). On the way down
// the later loops climb beside it, and a hop moves at the NVLS-tree algorithm
// bandwidth, the NICs shared as in the steady state (nccl_tree_network_load):
//   network fill = depth(N) x min(S, loop) / up + depth(N) x min(S, loop) / algbw
// e.g. 10 nodes of 8, 16 channels, 8 heads, 64 KiB chunks (8 MiB a loop), up
// at the NVLS rate 272 GB/s, down at 192.7: 4 x 8388608 / 272 + 4 x 8388608
// / 192.7 = 123.4 + 174.1 = 297.5 us.
// The fill carries the first loop the whole way; the loops after it follow
// one behind the other at the streaming rate, so an all-reduce of S bytes
// takes fill + (S - min(S, loop)) / stream (a pipeline of k stages and L
// loops takes k + L - 1 stage times, not k + L).
#include <cstdint>

namespace dtcalc {

/// Depth of NCCL's binary tree over `nodes` (0 for one node).
int nccl_btree_depth(std::int64_t nodes);

/// NCCL's NVLS-tree chunk for a channel carrying `channel_bytes`, with
/// `heads` NVLS heads per node, on `nodes` nodes.
double nccl_nvls_tree_chunk_bytes(double channel_bytes, int heads, std::int64_t nodes);

/// Bytes of one NVLS-tree loop of every channel (channels x heads x chunk),
/// at most the all-reduce's `bytes`.
double nccl_nvls_tree_loop_bytes(double bytes, std::int64_t nodes, int channels, int heads);

/// The network pipeline fill above, in ns: `bytes` the all-reduce's size,
/// `up_gbps` the up rate, `algbw_gbps` the NVLS-tree algorithm bandwidth
/// (GB/s = bytes/ns).
double nccl_nvls_tree_network_fill_ns(double bytes, std::int64_t nodes, int channels, int heads, double up_gbps,
                                      double algbw_gbps);

}  // namespace dtcalc
