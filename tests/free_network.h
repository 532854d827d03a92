#pragma once
// A system whose communication costs next to nothing, for tests that time the
// compute of a step by hand: one switch dimension of `npus` with an enormous
// bandwidth and no latency, ring everywhere, one split and one chunk, local
// copies free. The device is left for each test to set.
#include "compute/system.h"

namespace dtcalc::testing {

inline System free_switch_system(int npus) {
    System s;
    s.network.dimensions.push_back({Topology::Switch, npus, 1e12, 0});
    for (auto& list : s.config.implementation) list.assign(1, {AlgorithmKind::Ring, false});
    s.config.preferred_dataset_splits = 1;
    s.config.active_chunks_per_dimension = 1;
    s.config.local_mem_bw_gbps = 1e12;
    return s;
}

}  // namespace dtcalc::testing
