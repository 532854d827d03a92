// A preset TOML (network, system knobs, [compute], [nccl]), then one
// collective priced on it with every backend.
#include "collective/collective_cost.h"
#include "config/preset.h"
#include "fuzz_target.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    try {
        System system = load_preset(fuzz::write_input(fuzz::as_text(data, size), "fuzz-preset.toml"), {}).system;
        for (const NetworkBackend backend : {system.backend, NetworkBackend::AstraUnaware}) {
            system.backend = backend;
            CollectiveQuery query;
            query.bytes = 1 << 20;
            query.group = whole_network_group(system.network);
            const CollectiveResult result = collective_time(system, query);
            fuzz::require_finite(result.time_ns, "all-reduce time");
        }
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
