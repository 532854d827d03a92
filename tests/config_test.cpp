// Network YAML, system JSON and preset TOML: good files load, bad ones give an
// error that names the file, the line where the format has one, and the key.
#include <doctest/doctest.h>

#include "config/network_config.h"
#include "config/preset.h"
#include "config/system_config_reader.h"
#include "core/error.h"
#include "astra_system_text.h"
#include "temp_file.h"
#include "input_error.h"

using dtcalc::testing::error_of;

using namespace dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

const char* const kGoodSystem = dtcalc::testing::kAstraSystemJson;

}  // namespace

TEST_CASE("ASTRA-sim network YAML loads as it is") {
    const std::string path = write_temp_file("good.yml",
                                             "topology: [ FullyConnected, Switch ]\n"
                                             "npus_count: [ 8, 2 ]\n"
                                             "bandwidth: [ 128.5714, 25 ]  # GB/s\n"
                                             "latency: [ 20, 100 ]  # ns\n");
    const Network n = load_astra_network_yaml(path);
    REQUIRE(n.dimensions.size() == 2);
    CHECK(n.dimensions[0].topology == Topology::FullyConnected);
    CHECK(n.dimensions[1].npus == 2);
    CHECK(n.dimensions[0].bandwidth_gbps == doctest::Approx(128.5714));
    CHECK(n.dimensions[1].latency_ns == 100);
    CHECK(n.total_npus() == 16);
}

TEST_CASE("the shipped ASTRA-sim configs load") {
    const std::string dir = std::string(DTCALC_VALIDATION_DIR) + "/astrasim/configs/";
    CHECK(load_astra_network_yaml(dir + "net_Ring_Ring_Ring_4x4x4_61ed0e59.yml").total_npus() == 64);
    const SystemConfig s = load_astra_system_json(dir + "sys_direct-direct-direct_s4_a2_e10_localBWAware_0939fcc4.json", 3);
    CHECK(s.preferred_dataset_splits == 4);
    CHECK(s.active_chunks_per_dimension == 2);
    CHECK(s.endpoint_delay_ns == 10);
    CHECK(s.algorithms_for(CollectiveKind::AllReduce)[2].kind == AlgorithmKind::Direct);
    CHECK(s.collective_optimization == CollectiveOptimization::LocalBWAware);
}

TEST_CASE("network YAML errors name file, line and key") {
    SUBCASE("unknown key, with a suggestion") {
        const std::string path = write_temp_file("typo.yml",
                                                 "topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 400 ]\n"
                                                 "latency: [ 10 ]\nlatencey: [ 5 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(path); }) ==
              path + ":5:11: latencey: unknown key (did you mean 'latency'?)");
    }
    SUBCASE("wrong type") {
        const std::string path = write_temp_file("type.yml",
                                                 "topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ fast ]\nlatency: [ 10 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(path); }) ==
              path + ":3:14: bandwidth[0]: expected a number, got \"fast\"");
    }
    SUBCASE("lists of different lengths") {
        const std::string path = write_temp_file("len.yml",
                                                 "topology: [ Switch, Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 1, 2 ]\nlatency: [ 1, 2 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(path); }) ==
              path + ":2:15: npus_count: has 1 entries but 'topology' has 2 (one per dimension)");
    }
    SUBCASE("non-positive bandwidth and size") {
        const std::string bw = write_temp_file("bw.yml",
                                               "topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ -50 ]\nlatency: [ 10 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(bw); }) == bw + ":3:14: bandwidth[0]: must be > 0 (got -50)");
        const std::string npus = write_temp_file("npus.yml",
                                                 "topology: [ Switch ]\nnpus_count: [ 0 ]\nbandwidth: [ 5 ]\nlatency: [ 10 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(npus); }) ==
              npus + ":2:15: npus_count[0]: expected a positive integer, got 0");
    }
    SUBCASE("unknown topology") {
        const std::string path = write_temp_file("topo.yml",
                                                 "topology: [ Hypercube ]\nnpus_count: [ 8 ]\nbandwidth: [ 5 ]\nlatency: [ 10 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(path); }) ==
              path + ":1:13: topology[0]: unknown topology 'Hypercube' (expected Ring, Switch or FullyConnected)");
    }
    SUBCASE("missing key") {
        const std::string path = write_temp_file("missing.yml", "topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 5 ]\n");
        CHECK(error_of([&] { load_astra_network_yaml(path); }) == path + ": latency: missing required key");
    }
    SUBCASE("empty, truncated and binary files") {
        const std::string empty = write_temp_file("empty.yml", "");
        CHECK(error_of([&] { load_astra_network_yaml(empty); }) == empty + ": file is empty");
        const std::string truncated = write_temp_file("trunc.yml", "topology: [ Switch, Ri");
        CHECK(error_of([&] { load_astra_network_yaml(truncated); }).starts_with(truncated + ":1:"));
        const std::string binary = write_temp_file("bin.yml", std::string("topo\0\x01\x02", 7));
        CHECK(error_of([&] { load_astra_network_yaml(binary); }) == binary + ":1: binary data (NUL byte) in a text file");
        CHECK(error_of([&] { load_astra_network_yaml("/nonexistent/net.yml"); }) ==
              "/nonexistent/net.yml: cannot open file");
    }
}

TEST_CASE("system JSON errors name file, line and key") {
    SUBCASE("a good file loads") {
        const SystemConfig s = load_astra_system_json(write_temp_file("good.json", kGoodSystem), 2);
        CHECK(s.local_mem_bw_gbps == 3350);
        CHECK(s.scheduling_policy == SchedulingPolicy::LIFO);
    }
    SUBCASE("implementation list length must match the network") {
        const std::string path = write_temp_file("dims.json", kGoodSystem);
        CHECK(error_of([&] { load_astra_system_json(path, 3); }) ==
              path + ":6: all-reduce-implementation: has 2 entries but the network has 3 dimensions");
    }
    SUBCASE("unknown algorithm") {
        std::string text = kGoodSystem;
        text.replace(text.find("\"direct\"]"), 9, "\"tree\"]");
        const std::string path = write_temp_file("algo.json", text);
        CHECK(error_of([&] { load_astra_system_json(path, 2); }) ==
              path + ":6: all-reduce-implementation[1]: unknown algorithm 'tree' (expected ring, direct, "
                     "halvingDoubling, doubleBinaryTree, or a one* flat variant)");
    }
    SUBCASE("unknown key") {
        std::string text = kGoodSystem;
        text.replace(text.find("\"boost-mode\""), 12, "\"boost-mod\"");
        const std::string path = write_temp_file("key.json", text);
        CHECK(error_of([&] { load_astra_system_json(path, 2); }) ==
              path + ":12: boost-mod: unknown key (did you mean 'boost-mode'?)");
    }
    SUBCASE("wrong type and bad value") {
        std::string text = kGoodSystem;
        text.replace(text.find("\"endpoint-delay\": 10"), 20, "\"endpoint-delay\": \"10\"");
        const std::string path = write_temp_file("type.json", text);
        CHECK(error_of([&] { load_astra_system_json(path, 2); }) ==
              path + ":3: endpoint-delay: expected a number, got \"10\"");
        std::string splits = kGoodSystem;
        splits.replace(splits.find("\"preferred-dataset-splits\": 4"), 29, "\"preferred-dataset-splits\": 0");
        const std::string path2 = write_temp_file("splits.json", splits);
        CHECK(error_of([&] { load_astra_system_json(path2, 2); }) ==
              path2 + ":5: preferred-dataset-splits: expected a positive integer, got 0");
    }
    SUBCASE("unmodelled scheduling variants are refused") {
        std::string text = kGoodSystem;
        text.replace(text.find("\"boost-mode\": 0"), 15, "\"intra-dimension-scheduling\": \"SCF\"");
        const std::string path = write_temp_file("scf.json", text);
        CHECK(error_of([&] { load_astra_system_json(path, 2); }) ==
              path + ":12: intra-dimension-scheduling: only FIFO is modelled (got 'SCF')");
    }
    SUBCASE("malformed, truncated, empty, binary") {
        const std::string trunc = write_temp_file("trunc.json", "{\n  \"endpoint-delay\": 10,\n");
        CHECK(error_of([&] { load_astra_system_json(trunc, 1); }).starts_with(trunc + ":3: invalid JSON"));
        const std::string empty = write_temp_file("empty.json", "  \n");
        CHECK(error_of([&] { load_astra_system_json(empty, 1); }) == empty + ": file is empty");
        const std::string binary = write_temp_file("bin.json", std::string("{\"a\0\":1}", 8));
        CHECK(error_of([&] { load_astra_system_json(binary, 1); }) == binary + ":1: binary data (NUL byte) in a text file");
        const std::string array = write_temp_file("array.json", "[1, 2]");
        CHECK(error_of([&] { load_astra_system_json(array, 1); }) == array + ": expected a table of keys, got a list");
    }
}

TEST_CASE("presets load by name, and every shipped preset is valid") {
    const std::vector<std::string> dirs{DTCALC_PRESETS_DIR};
    const Preset hgx = load_preset("astrasim-hgx-h100-validated", dirs);
    CHECK(hgx.system.backend == NetworkBackend::AstraAware);
    CHECK(hgx.system.network.total_npus() == 8);
    CHECK(hgx.system.network.dimensions[0].latency_ns == 936.25);
    CHECK(hgx.system.config.local_mem_bw_gbps == 3350);
    const auto names = list_presets(dirs);
    CHECK(names.size() >= 5);
    for (const std::string& name : names) {
        CAPTURE(name);
        const Preset p = load_preset(name, dirs);
        CHECK(p.name == name);
        CHECK(!p.sources.empty());
    }
    CHECK(error_of([&] { load_preset("no-such-preset", dirs); }).starts_with("preset: no preset named 'no-such-preset' (known: "));
}

TEST_CASE("a preset's System: its device is the [compute] table's, or the roofline of peak-perf and local-mem-bw") {
    const std::vector<std::string> dirs{DTCALC_PRESETS_DIR};
    // lab-system1.toml has no [compute] table: peak-perf = 450 TFLOP/s and
    // local-mem-bw = 3000 GB/s at full efficiency (ASTRA-sim's roofline).
    const Preset lab = load_preset("lab-system1", dirs);
    CHECK_FALSE(lab.has_compute_table);
    CHECK(lab.system.device.peak_tflops_bf16 == 450);
    CHECK(lab.system.device.hbm_gbps == 3000);
    CHECK(lab.system.device.name == "lab-system1");
    CHECK(lab.system.nccl() == nullptr);
    // hgx-h100 is composed of the catalogue's h100-sxm, whose [compute] table gives
    // the dense BF16 peak 989.4 TFLOP/s (H100 SXM datasheet) and NCCL's constants.
    const Preset hgx = load_preset("hgx-h100", dirs);
    CHECK(hgx.has_compute_table);
    CHECK(hgx.system.device.peak_tflops_bf16 == 989.4);
    CHECK(hgx.system.device.name == "hgx-h100");
    CHECK(hgx.system.nccl() != nullptr);
}

TEST_CASE("shipped GPU presets: GEMM plateaus from each device's own benchmark point") {
    const std::vector<std::string> dirs{DTCALC_PRESETS_DIR};
    // H100 BF16 0.803 at 2048 x 2048 x 13312: 128 x 256, 256 x 128 and 128 x 128 tiles
    // all fill 128 of 132 SMs (or 256 of 264): waves 32 / 33; the K fill with
    // gemm-k-overhead 272 is 13312 / 13584: plateau 0.803 x 33 / 32 x 13584 / 13312 = 0.8450139.
    // FP8 0.709 at 1024 x 9216: 128 x 128 tiles, 576 in 5 waves of 132: 48 / 55 (the
    // 128 x 256 and 256 x 128 tiles give 288 / 396 = 8 / 11); fp8's K overhead is 272 x
    // 1978.9 / 989.4 = 544.03 elements: 0.709 x 55 / 48 x 14880.03 / 14336 = 0.8432249.
    for (const char* name : {"h100-ib-ndr400", "hgx-h100"}) {
        CAPTURE(name);
        const TrainingDevice d = load_preset(name, dirs).system.device;
        CHECK(d.gemm_shape.tiling.sms == 132);
        CHECK(d.gemm_shape.plateau == doctest::Approx(0.803 * 33 / 32 * 13584 / 13312));
        CHECK(d.fp8_gemm_shape.plateau == doctest::Approx(0.709 * 55 / 48 * (14336 + 272 * 1978.9 / 989.4) / 14336));
    }
    // A100 BF16 0.869 at 1024 x 10240 on 108 SMs: 320 tiles of 128 x 256 in 3 waves (324):
    // 0.869 x 324 / 320 = 0.8798625.
    for (const char* name : {"a100-ib-hdr200", "dgx-a100"}) {
        CAPTURE(name);
        const TrainingDevice d = load_preset(name, dirs).system.device;
        CHECK(d.gemm_shape.tiling.sms == 108);
        CHECK(d.gemm_shape.plateau == doctest::Approx(0.869 * 324 / 320));
        CHECK_FALSE(d.fp8_gemm_shape.given());
    }
}

TEST_CASE("preset TOML errors carry line and column") {
    const std::string path = write_temp_file("bad.toml",
                                             "name = \"x\"\ndescription = \"d\"\nsources = [\"s\"]\nbackend = \"astra-unaware\"\n"
                                             "[network]\ntopology = [\"Switch\"]\nnpus_count = [8]\nbandwidth = [0]\nlatency = [1]\n");
    CHECK(error_of([&] { load_preset(path, {}); }) == path + ":8:14: network.bandwidth[0]: must be > 0 (got 0)");
    const std::string syntax = write_temp_file("syntax.toml", "name = \n");
    CHECK(error_of([&] { load_preset(syntax, {}); }).starts_with(syntax + ":1:"));
}
