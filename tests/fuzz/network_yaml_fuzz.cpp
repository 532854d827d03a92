// ASTRA-sim's network YAML (topology, npus_count, bandwidth, latency; meshes
// and tori), then collectives over the whole network with ring on every
// dimension, on both ASTRA-sim backends.
#include "collective/collective_cost.h"
#include "config/network_config.h"
#include "fuzz_target.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    try {
        const Network network = load_astra_network_yaml(fuzz::write_input(fuzz::as_text(data, size), "fuzz-network.yml"));
        SystemConfig system;
        for (auto& per_dimension : system.implementation)
            per_dimension.assign(network.dimensions.size(), AlgorithmChoice{AlgorithmKind::Ring, false});
        system.preferred_dataset_splits = 4;
        system.endpoint_delay_ns = 10;
        system.local_mem_bw_gbps = 1000;
        for (const NetworkBackend backend : {NetworkBackend::AstraUnaware, NetworkBackend::AstraAware}) {
            for (const CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::AllToAll}) {
                CollectiveQuery query;
                query.kind = kind;
                query.bytes = 1 << 20;
                query.group = whole_network_group(network);
                fuzz::require_finite(collective_time(network, system, backend, query).time_ns, "collective time");
            }
        }
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
