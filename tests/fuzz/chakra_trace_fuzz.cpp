// A Chakra execution trace (.et: length-delimited protobuf GlobalMetadata
// then Nodes), run the way `dtcalc astra` runs one: the same bytes as the
// trace of every rank of the 16-NPU sanity system (validation/chakra), memory
// tracking and the roofline on.
#include <sstream>

#include "chakra/astra_run.h"
#include "fuzz_target.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    static const chakra::AstraRunFiles files = [] {
        const std::string validation = std::string(DTCALC_SOURCE_DIR) + "/validation/chakra/";
        chakra::AstraRunFiles f;
        f.network = validation + "network_system_16.yml";
        f.system = validation + "system_system_16.json";
        f.workload = (fuzz::scratch_dir() / "fuzz-trace").string();
        f.threads = 1;
        return f;
    }();
    const std::string_view bytes = fuzz::as_text(data, size);
    for (int rank = 0; rank < 16; ++rank) fuzz::write_input(bytes, "fuzz-trace." + std::to_string(rank) + ".et");
    try {
        const chakra::AstraRun run = chakra::run_astra(files);
        fuzz::require_finite(run.schedule.wall_ns, "wall time");
        std::ostringstream text;
        write_astra_log(text, run.ranks, {});
        write_astra_csv(text, run.ranks);
        fuzz::require_finite_text(text.str(), fuzz::as_text(data, size));
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
