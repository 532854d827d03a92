// ASTRA-sim's system JSON (implementations, splits, chunks, endpoint delay,
// optimisation, roofline keys) for a 2-D network, then every collective of a
// 1 MiB buffer priced with it on both ASTRA-sim backends.
#include "collective/collective_cost.h"
#include "config/system_config_reader.h"
#include "fuzz_target.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    Network network;
    network.dimensions.resize(2);
    network.dimensions[0].npus = 8;
    network.dimensions[0].bandwidth_gbps = 100;
    network.dimensions[0].latency_ns = 20;
    network.dimensions[1].npus = 4;
    network.dimensions[1].bandwidth_gbps = 25;
    network.dimensions[1].latency_ns = 500;
    try {
        const SystemConfig system =
            load_astra_system_json(fuzz::write_input(fuzz::as_text(data, size), "fuzz-system.json"), 2);
        for (const NetworkBackend backend : {NetworkBackend::AstraUnaware, NetworkBackend::AstraAware}) {
            for (int k = 0; k < kGroupCollectiveKinds; ++k) {
                CollectiveQuery query;
                query.kind = static_cast<CollectiveKind>(k);
                query.bytes = 1 << 20;
                query.group = whole_network_group(network);
                try {  // a system may list an algorithm one collective cannot use, and still serve the others
                    fuzz::require_finite(collective_time(network, system, backend, query).time_ns, "collective time");
                } catch (const InputError& e) {
                    fuzz::rejected(e);
                }
            }
        }
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
