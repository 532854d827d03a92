#include "chakra/remote_memory.h"

#include "config/config_readers.h"
#include "core/units.h"

namespace dtcalc::chakra {

RemoteMemory load_remote_memory(const std::string& path) {
    RemoteMemory memory;
    if (path.empty()) return memory;
    const ConfigValue root = read_json_file(path);
    if (root.type != ConfigValue::Type::Table) fail_at(root, "expected a JSON object");
    ConfigTableReader reader(root);
    if (const ConfigValue* type = reader.optional("memory-type")) {
        const std::string& name = as_string(*type);
        if (name == "NO_MEMORY_EXPANSION") memory.kind = RemoteMemoryKind::None;
        else if (name == "PER_NPU_MEMORY_EXPANSION") memory.kind = RemoteMemoryKind::PerNpu;
        else if (name == "PER_NODE_MEMORY_EXPANSION") memory.kind = RemoteMemoryKind::PerNode;
        else if (name == "MEMORY_POOL") memory.kind = RemoteMemoryKind::Pool;
        else
            fail_at(*type, "expected NO_MEMORY_EXPANSION, PER_NPU_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION or "
                           "MEMORY_POOL, got '" + name + "'");
    }
    if (const ConfigValue* latency = reader.optional("remote-mem-latency")) {
        memory.latency_ns = as_non_negative_number(*latency);
        if (memory.latency_ns > kMaxLatencyNs)
            fail_at(*latency, number_out_of_range(memory.latency_ns, 0, kMaxLatencyNs, "ns (up to 1 s)"));
    }
    if (memory.kind != RemoteMemoryKind::None) {
        const ConfigValue& bandwidth = reader.required("remote-mem-bw");
        memory.bandwidth_gbps = as_positive_number(bandwidth);
        if (memory.bandwidth_gbps < kMinBandwidthGbps || memory.bandwidth_gbps > kMaxBandwidthGbps)
            fail_at(bandwidth, number_out_of_range(memory.bandwidth_gbps, kMinBandwidthGbps, kMaxBandwidthGbps,
                                                   "GB/s (1 kB/s to 1 ZB/s)"));
    } else {
        reader.ignore({"remote-mem-bw"});
    }
    if (memory.kind == RemoteMemoryKind::PerNode) {
        memory.nodes = reader.positive_integer("num-nodes");
        memory.npus_per_node = reader.positive_integer("num-npus-per-node");
    } else {
        reader.ignore({"num-nodes", "num-npus-per-node"});
    }
    reader.finish();
    return memory;
}

}  // namespace dtcalc::chakra
