#pragma once
// A communicator of one rank. NCCL runs no algorithm there (src/enqueue.cc,
// taskAppend: nRanks == 1 calls ncclLaunchOneRank, src/device/onerank.cu):
// an all-reduce, all-gather or reduce-scatter whose output is a buffer apart
// from its input (nccl-tests' out-of-place column) is one device-to-device
// cudaMemcpyAsync of the buffer; in place it does nothing. The copy reads and
// writes every byte once in the GPU's memory:
//
//   time = copy-overhead-us + 2 x bytes / (local-mem-bw x copy-efficiency)
//
// (the [nccl] table's copy-efficiency and copy-overhead-us; local-mem-bw the
// GPU's HBM rate). A preset that states no copy-efficiency prices no copy.
// Send/recv and all-to-all of one rank go through NCCL's point-to-point path
// instead, not priced here.
#include <cstdint>

#include "collective/nccl/nccl_parameters.h"
#include "core/collective_kind.h"

namespace dtcalc {

/// Whether NCCL copies `kind`'s buffer with one rank when the call is out of place.
bool nccl_one_rank_copies(CollectiveKind kind);

/// The copy of `bytes` (the buffer as nccl-tests counts it) at `hbm_gbps`,
/// in ns; 0 for 0 bytes, or where `params` or `hbm_gbps` give no rate.
double nccl_one_rank_copy_ns(std::uint64_t bytes, double hbm_gbps, const NcclParameters& params);

}  // namespace dtcalc
