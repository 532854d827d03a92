// Sweep throughput, in configurations per second (items_per_second), with the
// rows formatted as CSV and thrown away:
//   Lab      seed 004 Part 3 (examples/lab-dse): 112 points, pp 1, 8 to 512
//            micro-batches per data-parallel rank
//   LabWide  the same two cases x pp 1 2 4 x mbs 1 2 4 x recompute none,
//            selective, full x bandwidth_scale 0.5 1 2, dp x tp x pp x cp = 64:
//            3,456 points
//   Cluster  GPT-3 175B on 1,024 H100s (nccl backend) at gbs 1,536: tp x pp x
//            mbs x recompute x sequence parallelism x ZeRO: 1,008 points
// and the lab sweep end to end (reading the spec, loading models and presets).
// Arg: worker threads.
#include <benchmark/benchmark.h>

#include <string>

#include "config/config_readers.h"
#include "config/system_source.h"
#include "sweep/sweep.h"

namespace {

using namespace dtcalc;

const std::string kLab = std::string(DTCALC_SOURCE_DIR) + "/examples/lab-dse/lab-dse.toml";
const std::string kLabDir = std::string(DTCALC_SOURCE_DIR) + "/examples/lab-dse";

std::vector<std::string> presets() { return {std::string(DTCALC_SOURCE_DIR) + "/presets"}; }
std::vector<std::string> models() { return {std::string(DTCALC_SOURCE_DIR) + "/models"}; }

SweepSpec spec_from(const std::string& toml) { return read_sweep_spec(parse_toml_text(toml, "bench"), kLabDir); }

const char* kLabWide = R"(
gbs = 512
seq = 1024
dp = "1..64"
tp = "1..64"
cp = "1..64"
pp = [1, 2, 4]
mbs = [1, 2, 4]
recompute = ["none", "selective", "full"]
bandwidth_scale = [0.5, 1, 2]
[constraints]
npus = 64
memory_limit = "80GiB"
[[case]]
model = "llama70b-lab.toml"
preset = "lab-system1"
[[case]]
model = "gpt3-175b"
preset = "lab-system2"
)";

const char* kCluster = R"(
model = "gpt3-175b"
preset = "h100-ib-ndr400"
nodes = 128
gpus_per_node = 8
gbs = 1536
tp = [1, 2, 4, 8]
pp = [1, 2, 4, 8, 16, 32, 64]
mbs = [1, 2, 4]
recompute = ["none", "selective", "full"]
sequence_parallel = [false, true]
zero = [0, 1]
[constraints]
npus = 1024
rules = ["sequence_parallel == 0 || tp > 1"]
)";

void run(benchmark::State& state, const Sweep& sweep) {
    SweepSettings settings;
    settings.threads = static_cast<int>(state.range(0));
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        const SweepReport report = sweep.run(settings, [&](std::string_view s) { bytes += s.size(); });
        benchmark::DoNotOptimize(report.records.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * sweep.space().size()));
    state.counters["points"] = static_cast<double>(sweep.space().size());
    benchmark::DoNotOptimize(bytes);
}

void BM_SweepLab(benchmark::State& state) {
    const Sweep sweep(read_sweep_spec(read_toml_file(kLab), kLabDir), presets(), models());
    run(state, sweep);
}
BENCHMARK(BM_SweepLab)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_SweepLabWide(benchmark::State& state) {
    const Sweep sweep(spec_from(kLabWide), presets(), models());
    run(state, sweep);
}
BENCHMARK(BM_SweepLabWide)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_SweepCluster(benchmark::State& state) {
    const Sweep sweep(spec_from(kCluster), presets(), models());
    run(state, sweep);
}
BENCHMARK(BM_SweepCluster)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// Reading the spec and loading the models and presets too.
void BM_SweepLabEndToEnd(benchmark::State& state) {
    SweepSettings settings;
    settings.threads = static_cast<int>(state.range(0));
    for (auto _ : state) {
        const Sweep sweep(read_sweep_spec(read_toml_file(kLab), kLabDir), presets(), models());
        const SweepReport report = sweep.run(settings, [](std::string_view) {});
        benchmark::DoNotOptimize(report.records.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 112));
}
BENCHMARK(BM_SweepLabEndToEnd)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
