#include "collective/nccl/nccl_one_rank.h"

namespace dtcalc {

bool nccl_one_rank_copies(CollectiveKind kind) {
    return kind == CollectiveKind::AllReduce || kind == CollectiveKind::AllGather ||
           kind == CollectiveKind::ReduceScatter;
}

double nccl_one_rank_copy_ns(std::uint64_t bytes, double hbm_gbps, const NcclParameters& params) {
    if (bytes == 0 || !(params.copy_efficiency > 0) || !(hbm_gbps > 0)) return 0;
    constexpr double kNsPerUs = 1000;
    // Read once and written once: 2 bytes of memory traffic per byte; GB/s = B/ns.
    return params.copy_overhead_us * kNsPerUs + 2.0 * static_cast<double>(bytes) / (hbm_gbps * params.copy_efficiency);
}

}  // namespace dtcalc
