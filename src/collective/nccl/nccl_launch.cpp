#include "collective/nccl/nccl_launch.h"

#include <algorithm>
#include <cmath>

namespace dtcalc {
namespace {

// NCCL: src/include/comm.h NCCL_LL_THREAD_THRESHOLD, NCCL_LL128_THREAD_THRESHOLD,
// NCCL_SIMPLE_THREAD_THRESHOLD (bytes per thread), indexed [LL, LL128, Simple].
constexpr double kThreadThreshold[] = {8, 8, 64};
// NCCL: src/include/device.h NCCL_LL_MAX_NTHREADS, NCCL_LL128_MAX_NTHREADS,
// NCCL_SIMPLE_MAX_NTHREADS.
constexpr double kMaxThreads[] = {512, 640, 512};
// NCCL (topoGetAlgoInfo): halving stops once the threads are not a multiple
// of 128; at least 3 warps run.
constexpr double kWarp = 32;
constexpr double kMinThreads = 3 * kWarp;

double fewest_threads(double most) {
    double nt = most;
    while (std::fmod(nt, 128.0) == 0 && nt > 0) nt /= 2;
    return std::max(nt, kMinThreads);
}

}  // namespace

NcclLaunch nccl_launch(NcclAlgorithm algorithm, NcclProtocol protocol, double bytes, std::int64_t ranks,
                       int communicator_channels, int rule_channels) {
    NcclLaunch out;
    if (algorithm != NcclAlgorithm::Ring && algorithm != NcclAlgorithm::Tree) return out;
    const auto p = static_cast<std::size_t>(protocol);
    const double all = std::max(1, communicator_channels);
    const double most = kMaxThreads[p];
    double threshold = kThreadThreshold[p];
    if (algorithm == NcclAlgorithm::Ring && protocol == NcclProtocol::LL) threshold *= static_cast<double>(ranks);
    const double per_channel = most * threshold;  // bytes one full channel's threads need
    const double b = std::max(0.0, bytes);

    out.channels = std::clamp(b / per_channel, 1.0, all);
    out.nccl_channels = static_cast<int>(std::clamp(std::floor(b / per_channel), 1.0, all));
    out.channel_share = out.channels / (rule_channels > 0 ? rule_channels : all);
    // A tree runs all of each channel's threads whatever the size.
    if (algorithm == NcclAlgorithm::Ring && b < per_channel)
        out.thread_share = std::max(b / threshold, fewest_threads(most)) / most;
    return out;
}

}  // namespace dtcalc
