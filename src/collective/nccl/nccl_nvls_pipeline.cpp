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

double nccl_nvls_chunk_rate(double default_chunk_gbps, int channels, double chunk_bytes, double chunk_overhead_ns) {
    if (!(default_chunk_gbps > 0)) return default_chunk_gbps;
    // A loop of channels x heads chunks costs heads x chunk_overhead_ns, so per
    // byte the heads cancel (nccl_nvls_pipeline.h). Chunks are only ever
    // lowered from the default, so the added term is >= 0.
    const double lanes = std::max(1, channels);
    const double extra =
        std::max(0.0, chunk_overhead_ns * (1.0 / (lanes * chunk_bytes) - 1.0 / (lanes * kNcclNvlsChunkBytes)));
    return 1.0 / (1.0 / default_chunk_gbps + extra);
}

}  // namespace dtcalc
