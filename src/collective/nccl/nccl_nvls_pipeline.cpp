#include "collective/nccl/nccl_nvls_pipeline.h"

#include <algorithm>

namespace dtcalc {

double nccl_nvls_chunk_bytes(double channel_bytes, int heads) {
    const double ops = std::max(1, heads);
    double chunk = kNcclNvlsChunkBytes;
    if (channel_bytes < 64 * ops * chunk && chunk > 65536) chunk = 65536;
    if (channel_bytes < 8 * ops * chunk && chunk > 32768) chunk = 32768;
    if (channel_bytes < 2 * ops * chunk && chunk > 16384) chunk = 16384;
    return chunk;
}

double nccl_nvls_chunk_rate(double default_chunk_gbps, int channels, int heads, double chunk_bytes,
                            double chunk_overhead_ns) {
    if (!(default_chunk_gbps > 0)) return default_chunk_gbps;
    const double concurrent = static_cast<double>(std::max(1, channels)) * std::max(1, heads);
    const double loop = concurrent * chunk_bytes;
    const double default_loop = concurrent * kNcclNvlsChunkBytes;
    // A loop holds one chunk per head, each costing chunk_overhead_ns. Chunks
    // are only ever lowered from the default, so the added term is >= 0.
    const double loop_overhead_ns = std::max(1, heads) * chunk_overhead_ns;
    const double extra = std::max(0.0, loop_overhead_ns * (1.0 / loop - 1.0 / default_loop));
    return 1.0 / (1.0 / default_chunk_gbps + extra);
}

}  // namespace dtcalc
