// A preset TOML (network, system knobs, [compute], [nccl]), then one
// collective priced on it with every backend.
#include "collective/collective_cost.h"
#include "config/preset.h"
#include "fuzz_target.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    try {
        const Preset preset = load_preset(fuzz::write_input(fuzz::as_text(data, size), "fuzz-preset.toml"), {});
        const TrainingDevice device = preset.training_device();
        (void)device;
        for (const NetworkBackend backend : {preset.backend, NetworkBackend::AstraUnaware}) {
            CollectiveQuery query;
            query.bytes = 1 << 20;
            query.group = whole_network_group(preset.network);
            const CollectiveResult result = collective_time(preset.network, preset.system, backend, query);
            fuzz::require_finite(result.time_ns, "all-reduce time");
        }
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
