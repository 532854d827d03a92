#pragma once
// How NVLS streams an all-reduce inside one node (NCCL 2.29): NCCL's chunk,
// a fixed cost per chunk, and one loop of fill.
//
// Chunk (src/enqueue.cc, calcCollChunking for NCCL_ALGO_NVLS, called per
// channel with that channel's bytes b): start at NCCL_NVLS_CHUNKSIZE (128 KiB);
// with h = NVLS heads (concurrent ops; one per GPU on one node):
//   64 KiB if b < 64 h chunk, 32 KiB if b < 8 h chunk, 16 KiB if b < 2 h chunk
//   (each only lowers the chunk). On 8 GPUs with 16 channels: 16 KiB below
//   8 MiB, 32 KiB below 64 MiB, 64 KiB below 1 GiB, 128 KiB from 1 GiB.
// (Across nodes NCCL caps NVLS's chunk at 32 KiB when its NVLS bandwidth is
// below 150 GB/s; dtcalc runs NVLS alone on one node only, as NCCL 2.29 does
// without CollNet, and NVLS-tree has its own rule: nccl_tree_pipeline.h.)
//
// Loop (src/device/all_reduce.h, RunWorkColl<..., NCCL_ALGO_NVLS>): one loop
// of every channel is channels x heads x chunk bytes; in each, every channel's
// scatter warps send one chunk to each head, the head reduces its chunk
// through the switch, and the gather warps take each head's result back, each
// chunk behind its own wait on the peer's flag and post of its own. That costs
// every chunk the same time c, whatever its size, so a loop costs heads x c
// besides its bytes, and smaller chunks stream slower:
//   1 / rate(chunk) = 1 / rate(128 KiB) + heads x c x (1 / loop(chunk) - 1 / loop(128 KiB))
//                   = 1 / rate(128 KiB) + c x (1 / (channels x chunk) - 1 / (channels x 128 KiB))
// with rate(128 KiB) NCCL's own NVLS rate (nvlsEfficiency x NVLink x n/(n+1),
// nccl_bandwidth.h: NCCL's tuning describes its default chunk) and c the
// calibrated nvls-chunk-overhead-us. On 4 GPUs (4 heads) a loop of 64 KiB
// chunks costs half what it does on 8.
// Fill: the scatter and the reduce-gather are two stages, so the first loop
// crosses both before the loops stream: an all-reduce of S bytes takes
//   latency + (S + min(S, loop)) / rate(chunk).
// e.g. 8 GPUs, 32 MiB, 16 channels: b = 2 MiB < 8 x 8 x 64 KiB, so 32 KiB
// chunks, a 4 MiB loop; with rate(128 KiB) = 272 GB/s and c = 0.33 us (a
// loop of 8 heads: 2.64 us):
// 1 / rate = 1/272 + 2640 x (1/4194304 - 1/16777216) ns/B -> 241.05 GB/s, and
// 25 us + (33554432 + 4194304) / 241.05 = 181.6 us (measured: 182.9 us).
#include <cstdint>

namespace dtcalc {

/// NCCL_NVLS_CHUNKSIZE's default (src/transport/nvls.cc).
inline constexpr double kNcclNvlsChunkBytes = 131072;

/// NCCL's NVLS chunk for a channel carrying `channel_bytes` with `heads`
/// NVLS heads (one node).
double nccl_nvls_chunk_bytes(double channel_bytes, int heads);

/// The rate (GB/s) NVLS streams at over `channels` with `chunk_bytes` chunks,
/// from its rate at NCCL's default chunk and the cost of each chunk,
/// `chunk_overhead_ns` (the heads, one chunk each per loop, cancel per byte).
double nccl_nvls_chunk_rate(double default_chunk_gbps, int channels, double chunk_bytes, double chunk_overhead_ns);

}  // namespace dtcalc
