#pragma once
// ASTRA-sim's remote-memory configuration (the JSON given with
// --remote-memory-configuration): where MEM_LOAD / MEM_STORE nodes go.
//
//   {"memory-type": "NO_MEMORY_EXPANSION" | "PER_NPU_MEMORY_EXPANSION" |
//                   "PER_NODE_MEMORY_EXPANSION" | "MEMORY_POOL",
//    "remote-mem-latency": ns, "remote-mem-bw": GB/s,
//    "num-nodes": n, "num-npus-per-node": k}
//
// A transfer of B bytes to remote memory takes
//     remote-mem-latency + floor(B / (remote-mem-bw x 1e9) x 1e9) ns,
// ASTRA-sim's analytical remote memory (1 GB/s = 1e9 B/s here, not 2^30).
// The per-node and pool kinds share one port among k NPUs (the node's, or
// all of them) that serves transfers first come, first served; see
// chakra/node_timing.h for how dtcalc prices that.
#include <string>

namespace dtcalc::chakra {

enum class RemoteMemoryKind { None, PerNpu, PerNode, Pool };

struct RemoteMemory {
    RemoteMemoryKind kind = RemoteMemoryKind::None;
    double latency_ns = 0;
    double bandwidth_gbps = 0;
    int nodes = 0;
    int npus_per_node = 0;
};

/// "" means no file: NO_MEMORY_EXPANSION. Throws InputError naming the file
/// and key for an unknown memory type, a missing bandwidth for an expanding
/// kind, or an unknown key.
RemoteMemory load_remote_memory(const std::string& path);

}  // namespace dtcalc::chakra
