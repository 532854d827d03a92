#pragma once
// nccl-tests' bus bandwidth: how much of a collective's algorithm bandwidth
// each NPU's links carry, so numbers for different collectives compare.
#include "core/collective_kind.h"

namespace dtcalc {

/// nccl-tests' busbw / algbw: 2(n-1)/n all-reduce; (n-1)/n reduce-scatter,
/// all-gather and all-to-all; 1 send/recv.
double bus_bandwidth_factor(CollectiveKind kind, long long npus);

}  // namespace dtcalc
