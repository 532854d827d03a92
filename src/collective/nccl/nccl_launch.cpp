#include "collective/nccl/nccl_launch.h"

#include <algorithm>

namespace dtcalc {
namespace {

// NCCL: src/include/comm.h NCCL_LL_THREAD_THRESHOLD, NCCL_LL128_THREAD_THRESHOLD,
// NCCL_SIMPLE_THREAD_THRESHOLD (bytes per thread), indexed [LL, LL128, Simple].
constexpr double kThreadThreshold[] = {8, 8, 64};
// NCCL: src/include/device.h NCCL_LL_MAX_NTHREADS, NCCL_LL128_MAX_NTHREADS,
// NCCL_SIMPLE_MAX_NTHREADS; NCCL_MAX_NTHREADS for trees and PAT.
constexpr int kMaxThreads[] = {512, 640, 512};
constexpr int kAllThreads = 640;
constexpr int kWarp = 32;

}  // namespace

NcclLaunch nccl_launch(NcclAlgorithm algorithm, NcclProtocol protocol, double bytes, std::int64_t ranks,
                       int communicator_channels) {
    const auto p = static_cast<std::size_t>(protocol);
    const int full_channels = std::max(1, communicator_channels);
    const int full_threads = kMaxThreads[p];
    double threshold = kThreadThreshold[p];
    if (algorithm == NcclAlgorithm::Ring && protocol == NcclProtocol::LL) threshold *= static_cast<double>(ranks);
    int nc = full_channels;
    int nt = full_threads;
    while (bytes < nc * static_cast<double>(nt) * threshold && nc >= 2) --nc;
    while (bytes < nc * static_cast<double>(nt) * threshold && nt % 128 == 0) nt /= 2;
    nt = std::max(nt, 3 * kWarp);
    NcclLaunch out;
    out.channels = nc;
    if (algorithm == NcclAlgorithm::Tree || algorithm == NcclAlgorithm::Pat) {
        out.threads = kAllThreads;
        out.share = static_cast<double>(nc) / full_channels;
    } else {
        out.threads = nt;
        out.share = static_cast<double>(nc) * nt / (static_cast<double>(full_channels) * full_threads);
    }
    return out;
}

}  // namespace dtcalc
