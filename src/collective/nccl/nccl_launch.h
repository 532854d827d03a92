#pragma once
// The channels and threads NCCL launches one ring, tree or PAT collective
// with (src/enqueue.cc, topoGetAlgoInfo, NCCL 2.29): every channel the
// communicator has (nccl_topology.h), fewer for small messages so that each
// thread keeps a minimum of work:
//   threshold = 8 B per thread for LL and LL128, 64 B for Simple
//               (src/include/comm.h, NCCL_*_THREAD_THRESHOLD), times the ranks
//               for ring LL (src/graph/tuning.cc, ncclTopoTuneModel)
//   threads   = 512 for LL and Simple, 640 for LL128 (NCCL_*_MAX_NTHREADS)
//   while bytes < channels x threads x threshold and channels >= 2: one channel fewer
//   while bytes < channels x threads x threshold and threads % 128 == 0: half the threads
//   at least 3 warps; a tree and PAT then run all 640 threads of each channel.
// `bytes` is the collective's size as nccl-tests counts it (NCCL's nBytes:
// the larger of what a rank sends and receives). The launch's share of the
// full one (channels x threads over all channels x the most threads) is the
// share of the links' rate its lanes drive: each channel's threads move their
// lines in turn, so fewer of them move fewer bytes per step.
#include <cstdint>

#include "collective/nccl/nccl_parameters.h"

namespace dtcalc {

struct NcclLaunch {
    int channels = 1;
    int threads = 0;
    double share = 1.0;  ///< (channels x threads) / (all channels x the most threads), in (0, 1]
};

NcclLaunch nccl_launch(NcclAlgorithm algorithm, NcclProtocol protocol, double bytes, std::int64_t ranks,
                       int communicator_channels);

}  // namespace dtcalc
