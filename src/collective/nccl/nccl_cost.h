#pragma once
// The time dtcalc predicts for an all-reduce, all-gather or reduce-scatter run
// with a given NCCL algorithm and protocol (nccl_selection.h says which).
// S = size as nccl-tests counts it, n ranks, N nodes, times in ns:
//
//   ring:      latency + fill + S x bus_factor / bus
//              fill = first / (bus / channels), what one channel moves before
//              the next rank can pass it on (nccl_ring_fill_bytes): across
//              nodes with Simple, the first network send, a whole slice (the
//              proxy posts a slice as one send and the receiver sees it only
//              when all of it has arrived); otherwise one pipeline step,
//              min(S / (n x channels), step-bytes[p])
//   tree:      latency + S / tree algbw
//   nvls:      latency + (S + min(S, loop)) / rate(chunk): NCCL's chunk for
//              the size, a loop of channels x heads x chunk, each loop's cost
//              (heads x nvls-chunk-overhead-us), one loop of fill (nccl_nvls_pipeline.h)
//   nvls-tree: latency + fill + (S - loop) / stream (nccl_nvls_tree_rates: the
//              steady rate, at most NCCL's per-head figure),
//              fill = min(S, channels x heads x chunk) / node NVLS rate(chunk)
//                     (the NVLS pipeline inside each node, as on one node)
//                   + depth(N) x min(S, channels x heads x chunk) / up
//                   + depth(N) x min(S, channels x heads x chunk) / steady
//                     (one loop per tree hop, up with the NICs to itself, down
//                     beside the later loops: nccl_tree_pipeline.h)
//   pat:       latency + S (n-1)/n / pat bus
// (channels: nccl_topology.h; nothing is added per node count). A ring or a
// tree of few bytes runs on the channels and threads NCCL launches for its
// size (nccl_launch.h): channels above are those, and the bus or algorithm
// bandwidth is that of the launched lanes (nccl_bandwidth.h). Below a full
// launch's minimum (threads x 8 B, 64 B for Simple, x n for ring LL, per
// channel) each thread still moves its minimum, so the data's time stays that
// of one full launch's worth instead of shrinking with the size.
// Latencies: nccl_latency.h; bandwidths: nccl_bandwidth.h.
#include <cstdint>

#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_selection.h"
#include "collective/nccl/nccl_shape.h"
#include "core/collective_kind.h"

namespace dtcalc {

struct NcclCollectiveCost {
    int channels = 1;
    int steps = 0;                ///< sequential steps of one pass
    double bytes_per_step = 0;    ///< per channel
    double latency_ns = 0;
    double fill_ns = 0;
    double bandwidth_ns = 0;
    double time_ns() const { return latency_ns + fill_ns + bandwidth_ns; }
};

NcclCollectiveCost nccl_collective_cost(CollectiveKind kind, std::uint64_t bytes, NcclChoice choice,
                                        const NcclShape& shape, const NcclRates& rates, const NcclParameters& params);

}  // namespace dtcalc
