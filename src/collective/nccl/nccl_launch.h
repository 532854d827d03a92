#pragma once
// The channels and threads NCCL launches one ring or tree collective with
// (src/enqueue.cc, topoGetAlgoInfo, NCCL 2.29): every channel the
// communicator runs (nccl_topology.h), fewer for a small message, so that
// each thread keeps a minimum of work:
//   threshold = 8 B per thread for LL and LL128, 64 B for Simple
//               (src/include/comm.h, NCCL_*_THREAD_THRESHOLD), times the
//               ranks for ring LL (src/graph/tuning.cc, ncclTopoTuneModel)
//   threads   = 512 for LL and Simple, 640 for LL128 (src/include/device.h,
//               NCCL_*_MAX_NTHREADS)
//   while bytes < channels x threads x threshold and channels >= 2: one channel fewer
//   then, while bytes < channels x threads x threshold and threads % 128 == 0:
//     half the threads (so LL128 stops at 320, LL and Simple at 64), at
//     least 3 warps (96); a ring's Simple kernel adds one warp that only
//     synchronises (it moves no data), and a tree runs all 640 threads of
//     each channel.
// `bytes` is NCCL's nBytes, the size as nccl-tests counts it.
//
// NCCL steps the channels one at a time; here they are taken continuous
// (bytes / (threads x threshold), within [1, all]), and so are the threads.
// The two differ by less than one channel, and the continuous launch keeps a
// collective's time from falling as its size grows: in the reduced range
// every launched thread moves the threshold's bytes, so the data's time
// stays that of one full launch's worth (see nccl_cost.h).
#include <cstdint>

#include "collective/nccl/nccl_parameters.h"

namespace dtcalc {

struct NcclLaunch {
    double channels = 1;       ///< launched channels, continuous, in [1, the communicator's]
    int nccl_channels = 1;     ///< NCCL's own integer count (nMaxChannels), which the continuous one follows
    double thread_share = 1;   ///< launched threads per channel / the protocol's most, in (0, 1]
    /// channels / the ones NCCL's rules give (NcclTopology::rule_channels):
    /// in (0, 1], above 1 only where NCCL_MIN_NCHANNELS (or NCCL_MIN_CTAS) runs more.
    double channel_share = 1;
    /// The share of the kernels' lanes that run: what scales the rate the
    /// GPU's threads drive (stores over NVLink, copies into the NIC's buffers).
    double share() const { return channel_share * thread_share; }
};

/// `communicator_channels`: the ring/tree channels the kernels run at full
/// size; `rule_channels`: the ones NCCL's rules give without
/// the channel settings (NCCL_MIN/MAX_NCHANNELS, NCCL_MIN/MAX_CTAS; 0: the same).
NcclLaunch nccl_launch(NcclAlgorithm algorithm, NcclProtocol protocol, double bytes, std::int64_t ranks,
                       int communicator_channels, int rule_channels = 0);

}  // namespace dtcalc
