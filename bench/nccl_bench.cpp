// The nccl backend's query speed: NCCL's selection over every enabled
// algorithm and protocol, then the chosen one's cost, per collective_time().
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "config/preset.h"
#include "network/cluster_shape.h"

namespace {

using namespace dtcalc;

const Preset& preset(const char* name) {
    static const std::vector<std::string> dirs{std::string(DTCALC_SOURCE_DIR) + "/presets"};
    static const Preset node = load_preset("hgx-h100", dirs);
    static const Preset cluster = load_preset("h100-ib-ndr400", dirs);
    return std::string(name) == "hgx-h100" ? node : cluster;
}

void query_sweep(benchmark::State& state, const Preset& p, const Network& network, CollectiveKind kind) {
    CollectiveQuery query{kind, 1, whole_network_group(network)};
    std::uint64_t size = 8;
    for (auto _ : state) {
        query.bytes = size;
        benchmark::DoNotOptimize(collective_time(network, p.system.config, p.system.backend, query).time_ns);
        size = size >= (16ull << 30) ? 8 : size * 4;
    }
    state.SetItemsProcessed(state.iterations());
}

// One HGX H100 node, all-reduce from 8 B to 16 GiB (ring, tree, NVLS in the running).
void BM_NcclAllReduce_8Gpu(benchmark::State& state) {
    const Preset& p = preset("hgx-h100");
    query_sweep(state, p, p.system.network, CollectiveKind::AllReduce);
}
BENCHMARK(BM_NcclAllReduce_8Gpu);

// 10 nodes x 8 GPUs, all-reduce (ring, tree, NVLS-tree in the running).
void BM_NcclAllReduce_80Gpu(benchmark::State& state) {
    const Preset& p = preset("h100-ib-ndr400");
    query_sweep(state, p, shape_cluster(p.system.network, 10, 8, p.system.node_gpus()), CollectiveKind::AllReduce);
}
BENCHMARK(BM_NcclAllReduce_80Gpu);

// 10 nodes x 8 GPUs, all-to-all (NCCL's point-to-point channel rule).
void BM_NcclAllToAll_80Gpu(benchmark::State& state) {
    const Preset& p = preset("h100-ib-ndr400");
    query_sweep(state, p, shape_cluster(p.system.network, 10, 8, p.system.node_gpus()), CollectiveKind::AllToAll);
}
BENCHMARK(BM_NcclAllToAll_80Gpu);

}  // namespace
