// The hardware catalogue as users meet it: errors that name the flag or the
// file and line (all of a file's key problems at once), `dtcalc list`,
// notes on constants borrowed from other hardware, the warning on an
// implausible network file, memory sizes with their unit, `dtcalc preset`.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/config_readers.h"
#include "config/hardware_catalogue.h"
#include "config/model_loader.h"
#include "config/preset.h"
#include "config/system_source.h"
#include "core/error.h"
#include "core/units.h"
#include "input_error.h"
#include "network/plausible_links.h"
#include "run_dtcalc.h"
#include "temp_file.h"

using namespace dtcalc;
using dtcalc::testing::error_of;
using dtcalc::testing::write_temp_file;

namespace {

const std::vector<std::string> kDirs{DTCALC_PRESETS_DIR};

// The error resolving a cluster of `gpu` and `nic` (nodes and GPUs per node as
// given) with the catalogue that holds `file` (.../<kind>/<name>.toml) searched first.
std::string resolve_error_with(const std::string& file, const std::string& gpu, const std::string& nic,
                               std::optional<long long> nodes, std::optional<long long> gpus_per_node) {
    SystemSource t;
    t.gpu = gpu;
    t.nic = nic;
    t.nodes = nodes;
    t.gpus_per_node = gpus_per_node;
    const std::string root = std::filesystem::path(file).parent_path().parent_path().string();
    return error_of([&] { resolve_system(t, {root, DTCALC_PRESETS_DIR}); });
}

// A NIC file `name` of `gbit` Gb/s in a catalogue of its own: the five
// descriptive lines, then `calibration` (its line 6 on).
std::string nic_file(const std::string& name, int gbit, const std::string& calibration) {
    return write_temp_file("catalogue-" + name + "/nics/" + name + ".toml",
                           "name = \"" + name + "\"\ndescription = \"x\"\nsources = [\"x\"]\nline-rate-gbit = " +
                               std::to_string(gbit) + "\nlatency-ns = 1000\n" + calibration);
}

}  // namespace

TEST_CASE("catalogue errors name the flag, or the file and line") {
    SystemSource s;
    s.gpu = "h300";
    CHECK(error_of([&] { resolve_system(s, kDirs); }).starts_with("gpu: no GPU named 'h300' (known: a100-40gb-sxm, "));
    s.gpu = "h100-sxm";
    s.gpus_per_node = 16;
    CHECK(error_of([&] { resolve_system(s, kDirs); }) ==
          "gpus_per_node: h100-sxm takes 1 to 8 GPUs per node (nvswitch), got 16");
    s.gpus_per_node.reset();
    s.nic = "ndr800";
    CHECK(error_of([&] { resolve_system(s, kDirs); }).starts_with("nic: no NIC named 'ndr800' (known: hdr200, ndr400,"));
    SystemSource mi;
    mi.gpu = "mi300x";
    mi.backend = "nccl";
    CHECK(error_of([&] { resolve_system(mi, kDirs); }).find("mi300x has no NCCL tables") != std::string::npos);
    SystemSource nic_only;
    nic_only.preset = "hgx-h100";
    nic_only.nic = "ndr400";
    CHECK(error_of([&] { resolve_system(nic_only, kDirs); }) ==
          "nic: describes a cluster from the catalogue: give --gpu too");
    SystemSource per_gpu = s;
    per_gpu.nic = "hdr200";
    per_gpu.nics_per_gpu = 2;
    per_gpu.nics_per_node = 8;
    CHECK(error_of([&] { resolve_system(per_gpu, kDirs); }) ==
          "nics_per_gpu: 2 NICs per GPU on a node of 8 GPUs need 16 NICs per node; it has 8");
    per_gpu.nics_per_gpu = 17;
    CHECK(error_of([&] { resolve_system(per_gpu, kDirs); }) == "nics_per_gpu: expected 1 to 16, got 17");
    nic_only.nic.clear();
    nic_only.nics_per_gpu = 2;
    CHECK(error_of([&] { resolve_system(nic_only, kDirs); }) ==
          "nics_per_gpu: describes a cluster from the catalogue: give --gpu too");
    SystemSource both;
    both.preset = "hgx-h100";
    both.gpu = "h200";
    CHECK(error_of([&] { resolve_system(both, kDirs); }).starts_with("gpu: give either a GPU"));
    SUBCASE("a composed preset: the error is at its key's line") {
        const std::string path = write_temp_file("composed-bad.toml",
                                                 "name = \"x\"\ndescription = \"x\"\nsources = [\"x\"]\nbackend = \"nccl\"\n"
                                                 "gpu = \"h100-sxm\"\ngpus-per-node = 9\n");
        CHECK(error_of([&] { load_preset(path, kDirs); }) ==
              path + ":6:17: gpus-per-node: h100-sxm takes 1 to 8 GPUs per node (nvswitch), got 9");
    }
    SUBCASE("a device file with a misspelt key") {
        const std::string dir = write_temp_file("catalogue/devices/typo.toml",
                                                "name = \"typo\"\ndescription = \"x\"\nsources = [\"x\"]\ntdp-watts = 1\n"
                                                "memory-type = \"x\"\n[compute]\npeak-tflops-bf16 = 1\n"
                                                "hbm-bandwidth-gbps = 1\nhbm-capacity-gib = 1\n[interconnect]\n"
                                                "fabric = \"nvswitch\"\nlinks-per-gpu = 1\nlink-bandwith-gbps = 1\n");
        const std::string message = resolve_error_with(dir, "typo", "ndr400", std::nullopt, 1);
        CHECK(message.find("link-bandwidth-gbps") != std::string::npos);
        CHECK(message.find("typo.toml") != std::string::npos);
    }
    SUBCASE("a NIC file with the payload rate but not the point-to-point constants") {
        const std::string dir = nic_file("half", 400, "payload-efficiency = 0.98\np2p-channel-bandwidth-gbps = 18\n");
        CHECK(resolve_error_with(dir, "h100-sxm", "half", 2, std::nullopt) ==
              dir + ": p2p-chunk-overhead-us: missing required key");
    }
    SUBCASE("a NIC file with a ring per-send cost out of its range") {
        const std::string dir = nic_file("slow", 400,
                                         "payload-efficiency = 0.98\n"
                                         "p2p-channel-bandwidth-gbps = 18\np2p-chunk-overhead-us = 1.3\n"
                                         "p2p-connection-start-us = 3\n"
                                         "alltoall-efficiency = 0.9\nring-channel-bandwidth-gbps = 22\n"
                                         "ring-slice-overhead-us = 5000\n");
        CHECK(resolve_error_with(dir, "h100-sxm", "slow", 2, std::nullopt) ==
              dir + ":12:26: ring-slice-overhead-us: expected 0 to 1000 us, got 5000");
    }
    SUBCASE("a NIC file that borrows its calibration and gives one rate of its own out of range") {
        const std::string dir = nic_file("own", 200, "calibration-assumed-from = \"ndr400\"\npayload-efficiency = 1.5\n");
        CHECK(resolve_error_with(dir, "a100-80gb-sxm", "own", 2, std::nullopt) ==
              dir + ":7:22: payload-efficiency: expected a fraction in (0, 1], got 1.5");
    }
}

TEST_CASE("a device on another generation's NCCL tables says so") {
    // A copy of b200.toml's NCCL facts (sm 100) that names the Hopper tables.
    const std::string file = write_temp_file(
        "catalogue-sm/devices/sm100-on-hopper.toml",
        "name = \"sm100-on-hopper\"\ndescription = \"x\"\nsources = [\"x\"]\ntdp-watts = 1000\nmemory-type = \"x\"\n"
        "[compute]\npeak-tflops-bf16 = 2250\nhbm-bandwidth-gbps = 8000\nhbm-capacity-gib = 180\n"
        "efficiency-assumed-from = \"h100-sxm\"\n"
        "[interconnect]\nfabric = \"nvswitch\"\nlinks-per-gpu = 18\nlink-bandwidth-gbps = 50.0\nlatency-ns = 936.25\n"
        "max-gpus-per-node = 8\npcie-gen = 5\npcie-lanes = 16\n"
        "[node]\nname = \"x\"\ngpus = 8\nnic = \"ndr400\"\nnics = 8\nhost-cpu = \"intel\"\n"
        "[nccl]\nsm = 100\nnvlink-bandwidth-per-link = 40.1\nnvls = true\ntables = \"hopper\"\n");
    SystemSource s;
    s.gpu = "sm100-on-hopper";
    const std::string root = std::filesystem::path(file).parent_path().parent_path().string();
    const ResolvedSystem r = resolve_system(s, {root, DTCALC_PRESETS_DIR});
    REQUIRE(r.system.nccl());
    const std::vector<std::string>& assumed = r.system.nccl()->assumed;
    CHECK(std::find(assumed.begin(), assumed.end(),
                    "NCCL's sm90 tables (hopper) for sm100-on-hopper (sm100)") != assumed.end());
}

TEST_CASE("a NIC that borrows its calibration keeps the rates it gives itself") {
    // hdr200 borrows ndr400's seven calibrated rates but gives its own payload
    // fraction, 0.930 (presets/nics/hdr200.toml): the composed NCCL constants
    // carry 0.930 and ndr400's six others.
    SystemSource hdr;
    hdr.gpu = "a100-80gb-sxm";
    hdr.nic = "hdr200";
    hdr.nodes = 2;
    const ResolvedSystem a = resolve_system(hdr, kDirs);
    SystemSource ndr = hdr;
    ndr.nic = "ndr400";
    const ResolvedSystem b = resolve_system(ndr, kDirs);
    REQUIRE(a.system.nccl());
    REQUIRE(b.system.nccl());
    CHECK(a.system.nccl()->network_p2p_efficiency == 0.930);
    CHECK(b.system.nccl()->network_p2p_efficiency == 0.983);
    CHECK(a.system.nccl()->p2p_network_connection_start_us == b.system.nccl()->p2p_network_connection_start_us);
    CHECK(a.system.nccl()->network_alltoall_efficiency == b.system.nccl()->network_alltoall_efficiency);
    CHECK(a.system.nccl()->ring_network_channel_bandwidth == b.system.nccl()->ring_network_channel_bandwidth);
}

TEST_CASE("dtcalc list gpus, nics and frameworks") {
    const auto gpus = dtcalc::testing::run_dtcalc("list gpus");
    REQUIRE(gpus.exit_code == 0);
    for (const char* name : {"a100-40gb-sxm", "a100-80gb-sxm", "h100-sxm", "h100-pcie", "h100-nvl", "h200", "b200", "mi300x"})
        CHECK(gpus.out.find(std::string("  ") + name + " ") != std::string::npos);
    CHECK(gpus.out.find("assumed from h100-sxm") != std::string::npos);
    const auto nics = dtcalc::testing::run_dtcalc("list nics");
    REQUIRE(nics.exit_code == 0);
    for (const char* name : {"hdr200", "ndr400", "xdr800", "roce400"}) CHECK(nics.out.find(name) != std::string::npos);
    const auto frameworks = dtcalc::testing::run_dtcalc("list frameworks");
    CHECK(frameworks.exit_code == 0);
    for (const char* name : {"megatron-core", "nemo", "torchtitan"})
        CHECK(frameworks.out.find(std::string("  ") + name + " ") != std::string::npos);
    const auto bad = dtcalc::testing::run_dtcalc("list gpu");
    CHECK(bad.exit_code == 2);
    CHECK(bad.out == "dtcalc: error: WHAT: expected models, presets, gpus, nics, frameworks or all, got 'gpu'\n");
}

TEST_CASE("reports say when a device's efficiencies are borrowed") {
    const auto table = dtcalc::testing::run_dtcalc("predict --model llama2-7b --gpu h200 --tp 8 --gbs 64");
    REQUIRE(table.exit_code == 0);
    CHECK(table.out.find("efficiency assumed from h100-sxm, unvalidated") != std::string::npos);
    const auto json = dtcalc::testing::run_dtcalc("predict --model llama2-7b --gpu h200 --tp 8 --gbs 64 --format json");
    CHECK(json.out.find("\"efficiency_note\": \"efficiency assumed from h100-sxm, unvalidated\"") != std::string::npos);
    const auto own = dtcalc::testing::run_dtcalc("predict --model llama2-7b --gpu h100-sxm --tp 8 --gbs 64");
    CHECK(own.out.find("efficiency assumed") == std::string::npos);
    const auto sweep = dtcalc::testing::run_dtcalc("sweep --model llama2-7b --gpu h200,h100-sxm --tp 8 --gbs 64");
    REQUIRE(sweep.exit_code == 0);
    CHECK(sweep.out.find("note: gpu h200, 1 node x 8: efficiency assumed from h100-sxm, unvalidated") != std::string::npos);
    CHECK(sweep.out.find("gpu h100-sxm, 1 node x 8: efficiency") == std::string::npos);
}

TEST_CASE("a file's key problems are reported all at once") {
    // Two misspelt keys and an unknown one: one message lists the three, each at its line.
    const std::string path = write_temp_file("three-problems.toml",
                                             "name = \"p\"\n"
                                             "description = \"p\"\n"
                                             "sources = [\"s\"]\n"
                                             "backend = \"astra-unaware\"\n"
                                             "[network]\n"
                                             "topology = [\"Ring\"]\n"
                                             "npus_count = [8]\n"
                                             "bandwith = [50.0]\n"
                                             "latencey = [500.0]\n"
                                             "[system]\n"
                                             "scheduling-policy = \"LIFO\"\n"
                                             "endpoint-delay = 10\n"
                                             "active-chunks-per-dimension = 1\n"
                                             "preferred-dataset-splits = 4\n"
                                             "all-reduce-implementation = [\"ring\"]\n"
                                             "all-gather-implementation = [\"ring\"]\n"
                                             "reduce-scatter-implementation = [\"ring\"]\n"
                                             "all-to-all-implementation = [\"ring\"]\n"
                                             "collective-optimization = \"baseline\"\n"
                                             "local-mem-bw = 50\n"
                                             "colour = \"blue\"\n");
    CHECK(error_of([&] { load_preset(path, {}); }) ==
          path + ": 3 problems: network.bandwidth: missing required key (is 'bandwith' on line 8 a misspelling?); "
                 "network.latency: missing required key (is 'latencey' on line 9 a misspelling?); "
                 "line 21: system.colour: unknown key");
    SUBCASE("one problem reads as before") {
        const std::string one = write_temp_file("one-problem.toml",
                                                "name = \"m\"\ndescription = \"m\"\nsources = [\"s\"]\nkind = \"transformer\"\n"
                                                "layers = 2\nhiden = 64\nffn_hidden = 256\nheads = 4\ngated_mlp = false\n"
                                                "vocab = 100\nseq = 8\n");
        CHECK(error_of([&] { load_model(one, {}); }) == one + ": hidden: missing required key (is 'hiden' on line 6 a misspelling?)");
    }
    SUBCASE("a model: a misspelt key and a bad value after it") {
        const std::string model = write_temp_file("model-problems.toml",
                                                  "name = \"m\"\ndescription = \"m\"\nsources = [\"s\"]\nkind = \"transformer\"\n"
                                                  "layer = 2\nhidden = 64\nffn_hidden = 256\nheads = 4\ngated_mlp = false\n"
                                                  "vocab = 100\nseq = -5\n");
        CHECK(error_of([&] { load_model(model, {}); }) ==
              model + ": 2 problems: layers: missing required key (is 'layer' on line 5 a misspelling?); line 11: seq: "
                      "expected a positive integer, got -5");
    }
}

TEST_CASE("a network file outside the usual range for its topology: one warning line on stderr, after the result") {
    // Ranges (network/plausible_links.h): 1-1,000 GB/s per link, 10 ns-10 us per hop (50 ns for a switch).
    const std::string net = write_temp_file("implausible.yml", "topology: [ Ring ]\nnpus_count: [ 16 ]\n"
                                                               "bandwidth: [ 50000 ]\nlatency: [ 1 ]\n");
    const std::string sys = write_temp_file("implausible.json",
                                            "{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": 10, "
                                            "\"active-chunks-per-dimension\": 1, \"preferred-dataset-splits\": 4, "
                                            "\"all-reduce-implementation\": [\"ring\"], \"all-gather-implementation\": [\"ring\"], "
                                            "\"reduce-scatter-implementation\": [\"ring\"], \"all-to-all-implementation\": [\"ring\"], "
                                            "\"collective-optimization\": \"baseline\", \"local-mem-bw\": 50}");
    const auto r = dtcalc::testing::run_dtcalc("collective all-reduce --size 1MiB --format csv --network " + net +
                                               " --system " + sys);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("dtcalc: warning: " + net + ": dimension 0 (Ring): bandwidth 50000 GB/s per link is outside the "
                     "usual 1 to 1000 GB/s for a direct link (GB/s per direction, not Gb/s?)\n") != std::string::npos);
    CHECK(r.out.find("dtcalc: warning: " + net + ": dimension 0 (Ring): latency 1 ns per hop is outside the usual 10 ns "
                     "to 10 us for a direct link (ns per hop, not us?)\n") != std::string::npos);
    // stdout holds the result alone.
    const auto out = dtcalc::testing::run_dtcalc("collective all-reduce --size 1MiB --format csv --network " + net +
                                                 " --system " + sys, false);
    CHECK(out.out.find("warning") == std::string::npos);
    // ASTRA-sim's validated HGX-H100 network (400 GB/s, 936.25 ns) is inside the ranges.
    Network ok;
    ok.dimensions.push_back({Topology::Switch, 8, 400.0, 936.25});
    CHECK(implausible_links(ok).empty());
    Network slow;
    slow.dimensions.push_back({Topology::Switch, 8, 0.5, 20.0});
    CHECK(implausible_links(slow).size() == 2);
}

TEST_CASE("memory sizes need their unit; 80GB is 10^9 bytes and shows as GiB") {
    CHECK(parse_memory_size("80GiB") == 80ULL << 30);
    CHECK(parse_memory_size("80GB") == 80'000'000'000ULL);
    CHECK(parse_memory_size("512 MiB") == 512ULL << 20);
    CHECK(parse_memory_size("4096B") == 4096);
    CHECK_FALSE(parse_memory_size("80"));
    CHECK_FALSE(parse_memory_size("80G"));
    CHECK(memory_size_expectation("80") ==
          "a memory size with its unit: 80GiB (80 x 2^30 bytes) or 80GB (80 x 10^9 bytes)");
    // 80 x 10^9 / 2^30 = 74.505... GiB.
    const auto r = dtcalc::testing::run_dtcalc("predict --model llama2-7b --preset hgx-h100 --tp 8 --gbs 8 --memory-limit 80GB");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("yes (fits 74.51 GiB)") != std::string::npos);
}

TEST_CASE("collective on the nccl backend notes the constants taken from other hardware") {
    const auto a100 = dtcalc::testing::run_dtcalc("collective all-reduce --size 1MiB --preset a100-ib-hdr200 --format csv");
    REQUIRE(a100.exit_code == 0);
    // hdr200.toml: calibration-assumed-from = "ndr400"; ampere.toml: assumed alltoall-nvlink-efficiency.
    CHECK(a100.out.find("dtcalc: note: nccl backend: NIC payload rates of hdr200 from ndr400 (all but payload-efficiency), unvalidated\n") !=
          std::string::npos);
    CHECK(a100.out.find("dtcalc: note: nccl backend: alltoall-nvlink-efficiency from the H100 fit, unvalidated\n") !=
          std::string::npos);
    // b200.toml: NCCL's sm100 tables (blackwell.toml), with three rates of the H100 fit.
    const auto b200 = dtcalc::testing::run_dtcalc("collective all-reduce --size 1MiB --gpu b200 --format csv");
    REQUIRE(b200.exit_code == 0);
    CHECK(b200.out.find("dtcalc: note: nccl backend: nvls-chunk-overhead-us from the H100 fit, unvalidated\n") !=
          std::string::npos);
    CHECK(b200.out.find("tables") == std::string::npos);
    // The calibrated H100/NDR cluster has nothing to note; nor has another backend.
    const auto h100 = dtcalc::testing::run_dtcalc("collective all-reduce --size 1MiB --preset h100-ib-ndr400 --format csv");
    CHECK(h100.out.find("note") == std::string::npos);
    const auto astra = dtcalc::testing::run_dtcalc(
        "collective all-reduce --size 1MiB --preset a100-ib-hdr200 --backend astra-aware --format csv");
    CHECK(astra.out.find("note") == std::string::npos);
}

TEST_CASE("dtcalc preset: what it needs") {
    using dtcalc::testing::run_dtcalc;
    CHECK(run_dtcalc("preset").out ==
          "dtcalc: error: NAME: missing: give a preset NAME, or a cluster (--gpu and its flags)\n");
    CHECK(run_dtcalc("preset hgx-h100 --gpu h200").out ==
          "dtcalc: error: --gpu: give either a preset or a cluster from the catalogue, not both\n");
    const auto bad = run_dtcalc("preset hgx-h100 --write /nonexistent-dir/x.toml");
    CHECK(bad.exit_code == 2);
    CHECK(bad.out == "dtcalc: error: --write: cannot write '/nonexistent-dir/x.toml'\n");
    // Printed without --write: the file's text, which names the preset.
    const auto printed = run_dtcalc("preset dgx-a100", false);
    REQUIRE(printed.exit_code == 0);
    CHECK(printed.out.find("name = \"dgx-a100\"\n") != std::string::npos);
    CHECK(printed.out.find("[nccl.hardware]\n") != std::string::npos);
}
