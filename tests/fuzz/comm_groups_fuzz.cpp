// The comm-group JSON STAGE writes beside a Chakra trace
// ({"<id>": [rank, ...], ...}), for a 16-NPU system; every group it defines
// must be found again under its id, with ranks inside the system.
#include "chakra/comm_groups.h"
#include "fuzz_target.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    constexpr long long kNpus = 16;
    try {
        const chakra::CommGroupTable table =
            chakra::load_comm_groups(fuzz::write_input(fuzz::as_text(data, size), "fuzz-comm-groups.json"), kNpus);
        for (const auto& [id, ranks] : table.groups) {
            const auto found = table.find(id);
            if (!found) fuzz::finding("group not found by its own id", 0);
            for (const int rank : ranks)
                if (rank < 0 || rank >= kNpus) fuzz::finding("rank outside the system", rank);
        }
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
