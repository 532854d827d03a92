#include "collective/nccl/nccl_tree_pipeline.h"

#include <algorithm>

#include "collective/nccl/nccl_nvls_pipeline.h"

namespace dtcalc {
namespace {

constexpr double kNvlsTreeMaxChunkBytes = 65536;   // NCCL_NVLSTREE_MAX_CHUNKSIZE -2: 64 KiB from 4 nodes
constexpr std::int64_t kNvlsTreeSmallChunkNodes = 4;

// ncclGetBtree's parent of `rank` among `nodes` (-1 for the root).
std::int64_t btree_parent(std::int64_t rank, std::int64_t nodes) {
    if (rank == 0) return -1;
    std::int64_t bit = 1;
    while (bit < nodes && !(bit & rank)) bit <<= 1;
    std::int64_t up = (rank ^ bit) | (bit << 1);
    if (up >= nodes) up = rank ^ bit;
    return up;
}

}  // namespace

int nccl_btree_depth(std::int64_t nodes) {
    // Node 1 climbs 1 -> 2 -> 4 -> ... -> the highest power of two below N -> 0,
    // the longest path to the root (every node's path, walked for N = 2..2999,
    // is no longer).
    int depth = 0;
    for (std::int64_t x = 1; x > 0 && x < nodes; x = btree_parent(x, nodes)) ++depth;
    return depth;
}

double nccl_nvls_tree_chunk_bytes(double channel_bytes, int heads, std::int64_t nodes) {
    const double ops = std::max(1, heads);
    double chunk = kNcclNvlsChunkBytes;
    if (nodes >= kNvlsTreeSmallChunkNodes) chunk = std::min(chunk, kNvlsTreeMaxChunkBytes);
    if (channel_bytes < 16 * ops * chunk && chunk > 131072) chunk = 131072;
    if (channel_bytes < 4 * ops * chunk && chunk > 65536) chunk = 65536;
    if (channel_bytes < 1 * ops * chunk && chunk > 32768) chunk = 32768;
    return chunk;
}

double nccl_nvls_tree_loop_bytes(double bytes, std::int64_t nodes, int channels, int heads) {
    const double c = std::max(1, channels);
    const double h = std::max(1, heads);
    return std::min(bytes, c * h * nccl_nvls_tree_chunk_bytes(bytes / c, heads, nodes));
}

double nccl_nvls_tree_network_fill_ns(double bytes, std::int64_t nodes, int channels, int heads, double up_gbps,
                                      double algbw_gbps) {
    if (nodes <= 1 || !(algbw_gbps > 0) || !(up_gbps > 0)) return 0;
    const double loop = nccl_nvls_tree_loop_bytes(bytes, nodes, channels, heads);
    const double depth = nccl_btree_depth(nodes);
    return depth * loop / up_gbps + depth * loop / algbw_gbps;
}

}  // namespace dtcalc
