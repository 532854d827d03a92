// The System value (compute/system.h): one network, its knobs, its backend and
// its device travel together, and collective_time(system, query) prices what
// the query asks on them. Expected values by hand (collective_cost_test.cpp's
// units) or from the presets' cited figures.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collective/comm_group.h"
#include "compute/system.h"
#include "config/preset.h"
#include "config/system_source.h"

using namespace dtcalc;

namespace {

const std::vector<std::string> kDirs{DTCALC_PRESETS_DIR};

// B = 953.67431640625 x 2^30 / 1e9 = 1024 B/ns exactly; local reductions at 1024 B/ns.
System switch_of_4(NetworkBackend backend) {
    System s;
    s.network = Network{{Dimension{Topology::Switch, 4, 953.67431640625, 100}}};
    for (auto& list : s.config.implementation) list = {AlgorithmChoice{AlgorithmKind::Ring, false}};
    s.config.preferred_dataset_splits = 1;
    s.config.active_chunks_per_dimension = 1;
    s.config.endpoint_delay_ns = 10;
    s.config.local_mem_bw_gbps = 1024;
    s.backend = backend;
    return s;
}

}  // namespace

TEST_CASE("collective_time(system, query): the system's backend prices the query") {
    // Ring all-reduce of 16384 B on a Switch of 4, one chunk: 6 steps of m = 4096 B.
    // Congestion-unaware: a step is floor(2 x 100 + 4096 / 1024) = 204; 6 x 204 = 1224,
    // + 7 endpoint delays of 10 = 70, + 3 reducing steps x 3 x floor(4096 / 1024) = 36: 1330.
    // Congestion-aware: each of the 2 links pays floor(100 + 4) = 104, a step 208: 1248 + 70 + 36 = 1354.
    for (const auto& [backend, expected] :
         {std::pair{NetworkBackend::AstraUnaware, 1330.0}, std::pair{NetworkBackend::AstraAware, 1354.0}}) {
        const System s = switch_of_4(backend);
        CHECK(collective_time(s, {CollectiveKind::AllReduce, 16384, whole_network_group(s.network), {}}).time_ns == expected);
    }
}

TEST_CASE("a forced NCCL algorithm is part of the query, not of the system") {
    const System h100 = load_preset("hgx-h100", kDirs).system;
    REQUIRE(h100.nccl() != nullptr);
    const CommGroup all = whole_network_group(h100.network);
    const std::uint64_t GiB = 1u << 30;
    // Forced ring (nccl_model_test.cpp): 8.4 + 14 x 3.4 = 56 us; fill 524288 / (360/24) ns;
    // 1073741824 x 14/8 / 360 ns of data.
    const CollectiveResult ring = collective_time(h100, {CollectiveKind::AllReduce, GiB, all, NcclForce::only(NcclAlgorithm::Ring, std::nullopt)});
    CHECK(std::string(ring.algorithm) == "ring/Simple");
    CHECK(ring.time_ns / 1000.0 == doctest::Approx(5310.5308).epsilon(1e-7));
    // The same system asked without a force: NCCL's own choice, nvls (its 1 GiB estimate
    // 25 us + S / 272 GB/s = 3972 us beats the ring's 5275 us; nccl_model_test.cpp).
    const CollectiveResult chosen = collective_time(h100, {CollectiveKind::AllReduce, GiB, all, {}});
    CHECK(std::string(chosen.nccl_algorithm) == "nvls");
}

TEST_CASE("a preset and a source give one System: network, knobs with the NCCL constants, backend, device") {
    const Preset preset = load_preset("hgx-h100", kDirs);
    const System& s = preset.system;
    CHECK(s.backend == NetworkBackend::Nccl);
    CHECK(s.network.total_npus() == 8);
    CHECK(s.network.dimensions[0].bandwidth_gbps == 450.0);  // 18 NVLinks x 25 GB/s
    REQUIRE(s.nccl() != nullptr);
    CHECK(s.nccl()->hardware.nvlinks_per_gpu == 18);
    CHECK(s.device.peak_tflops_bf16 == 989.4);  // the preset's [compute] table (H100 SXM datasheet)
    CHECK(s.device.name == "hgx-h100");

    SystemSource source;
    source.preset = "hgx-h100";
    const ResolvedSystem resolved = resolve_system(source, kDirs);
    CHECK(resolved.label == "preset hgx-h100");
    CHECK(resolved.system.backend == s.backend);
    CHECK(resolved.system.device.peak_tflops_bf16 == s.device.peak_tflops_bf16);
    CHECK(resolved.system.nccl() != nullptr);
}
