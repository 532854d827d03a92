// A Chakra execution trace (.et: length-delimited protobuf GlobalMetadata
// then Nodes), run the way `dtcalc astra` runs one: the same bytes as the
// trace of both ranks of a 2-NPU system, memory tracking on.
#include <sstream>

#include "chakra/astra_run.h"
#include "fuzz_target.h"

namespace {

const char kNetwork[] = "topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n";
const char kSystem[] = R"({
  "scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
  "preferred-dataset-splits": 4,
  "all-reduce-implementation": ["ring"], "all-gather-implementation": ["ring"],
  "reduce-scatter-implementation": ["ring"], "all-to-all-implementation": ["ring"],
  "collective-optimization": "baseline", "local-mem-bw": 1600,
  "track-local-mem": 1, "roofline-enabled": 1, "peak-perf": 900
})";

}  // namespace

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    static const chakra::AstraRunFiles files = [] {
        chakra::AstraRunFiles f;
        f.network = fuzz::write_input(kNetwork, "fuzz-network-2.yml");
        f.system = fuzz::write_input(kSystem, "fuzz-system-2.json");
        f.workload = (fuzz::scratch_dir() / "fuzz-trace").string();
        f.threads = 1;
        return f;
    }();
    const std::string_view bytes = fuzz::as_text(data, size);
    fuzz::write_input(bytes, "fuzz-trace.0.et");
    fuzz::write_input(bytes, "fuzz-trace.1.et");
    try {
        const chakra::AstraRun run = chakra::run_astra(files);
        fuzz::require_finite(run.schedule.wall_ns, "wall time");
        std::ostringstream text;
        write_astra_log(text, run.ranks, {});
        write_astra_csv(text, run.ranks);
        fuzz::require_finite_text(text.str());
    } catch (const InputError&) {
    }
    return 0;
}
