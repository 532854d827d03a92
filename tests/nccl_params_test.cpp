// The [nccl] table of presets: the shipped presets load with the constants
// they state, and bad tables give errors naming file, line and key.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "collective/nccl/nccl_parameters.h"
#include "config/preset.h"
#include "core/error.h"
#include "temp_file.h"

using namespace dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

const std::vector<std::string> kDirs{DTCALC_PRESETS_DIR};

std::string read_preset_text(const std::string& name) {
    // The expanded form (every table stated) of the shipped preset.
    std::ifstream in(std::string(DTCALC_PRESETS_DIR) + "/../tests/fixtures/expanded-presets/" + name + ".toml");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The preset with the first line starting with `key` replaced by `line`;
// returns the path and the 1-based line number of the replacement.
std::pair<std::string, int> edited_preset(const std::string& file_name, const std::string& key,
                                          const std::string& line) {
    std::istringstream in(read_preset_text("hgx-h100"));
    std::string out, current;
    int number = 0, at = 0;
    while (std::getline(in, current)) {
        ++number;
        if (at == 0 && current.rfind(key, 0) == 0) {
            at = number;
            out += line + "\n";
        } else {
            out += current + "\n";
        }
    }
    REQUIRE(at > 0);
    return {write_temp_file(file_name, out), at};
}

std::string error_of(const std::string& path) {
    try {
        load_preset(path, kDirs);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("the four NCCL presets load, with the nccl backend and their stated constants") {
    for (const char* name : {"hgx-h100", "h100-ib-ndr400", "dgx-a100", "a100-ib-hdr200"}) {
        const Preset p = load_preset(name, kDirs);
        INFO(name);
        CHECK(p.system.backend == NetworkBackend::Nccl);
        REQUIRE(p.system.nccl());
        CHECK(p.has_compute_table);
    }
    const Preset h100 = load_preset("hgx-h100", kDirs);
    CHECK(h100.system.network.dimensions[0].bandwidth_gbps == 450.0);  // 18 links x 25 GB/s
    CHECK(h100.system.nccl()->nvls);
    CHECK(h100.system.nccl()->nvls_efficiency == 0.85);
    CHECK(h100.system.nccl()->hardware.sm == 90);
    CHECK(h100.system.nccl()->hardware.nvlinks_per_gpu == 18);
    CHECK(h100.system.nccl()->hardware.nvlink_link_gbps == 20.6);  // SM90_NVLINK_BW
    CHECK(h100.system.nccl()->hardware.nics_per_node == 8);
    CHECK(h100.system.nccl()->hardware.pcie_gbps() == 48.0);       // Gen5 x16: 16 x 240 / 80
    CHECK(h100.system.nccl()->hardware.net_overhead_us() == 1.0);  // Intel host
    CHECK(h100.system.nccl()->nvls_channels == 16);
    CHECK(h100.system.nccl()->step_bytes[2] == 524288.0);  // 4 MiB Simple buffer / 8 steps
    CHECK(h100.system.nccl()->base_latency_us[static_cast<int>(NcclAlgorithm::Ring)][0] == 6.6);
    CHECK(h100.system.nccl()->tree_correction[2][11] == 0.5);
    CHECK(h100.system.device.peak_tflops_bf16 == 989.4);
    const Preset a100 = load_preset("dgx-a100", kDirs);
    CHECK_FALSE(a100.system.nccl()->nvls);
    CHECK(a100.system.network.dimensions[0].bandwidth_gbps == 300.0);  // 12 links x 25 GB/s
    CHECK(a100.system.nccl()->ll_max_bus_bandwidth[0] == 87.7);
    CHECK(a100.system.nccl()->hardware.sm == 80);
    CHECK(a100.system.nccl()->hardware.nvlinks_per_gpu == 12);
    CHECK(a100.system.nccl()->hardware.nvlink_link_gbps == 20.0);  // SM80_NVLINK_BW
    CHECK(a100.system.nccl()->hardware.pcie_gbps() == 24.0);       // Gen4 x16
    CHECK(a100.system.nccl()->hardware.net_overhead_us() == 2.0);  // AMD EPYC host
    CHECK(a100.system.nccl()->ll128_max_bandwidth_per_channel == NcclPerNodeBucket{20.0, 20.0, 20.0});  // Ampere perChMaxRingLL128Bws
}

TEST_CASE("the multi-node presets share their node's NCCL constants") {
    auto same = [](const NcclParameters& a, const NcclParameters& b) {
        CHECK(a.hardware.sm == b.hardware.sm);
        CHECK(a.hardware.nvlinks_per_gpu == b.hardware.nvlinks_per_gpu);
        CHECK(a.hardware.nvlink_link_gbps == b.hardware.nvlink_link_gbps);
        CHECK(a.hardware.nics_per_node == b.hardware.nics_per_node);
        CHECK(a.hardware.gpus_per_nic == b.hardware.gpus_per_nic);
        CHECK(a.hardware.pcie_gen == b.hardware.pcie_gen);
        CHECK(a.hardware.cpu == b.hardware.cpu);
        CHECK(a.nvls == b.nvls);
        CHECK(a.nvls_channels == b.nvls_channels);
        CHECK(a.nvls_efficiency == b.nvls_efficiency);
        CHECK(a.alltoall_nvlink_efficiency == b.alltoall_nvlink_efficiency);
        CHECK(a.network_p2p_efficiency == b.network_p2p_efficiency);
        CHECK(a.p2p_network_channel_bandwidth == b.p2p_network_channel_bandwidth);
        CHECK(a.step_bytes == b.step_bytes);
        CHECK(a.nvls_chunk_overhead_us == b.nvls_chunk_overhead_us);
        CHECK(a.tree_correction == b.tree_correction);
        CHECK(a.base_latency_us == b.base_latency_us);
        CHECK(a.nvlink_latency_us == b.nvlink_latency_us);
        CHECK(a.network_latency_us == b.network_latency_us);
        CHECK(a.p2p_per_channel_net_bandwidth == b.p2p_per_channel_net_bandwidth);
    };
    same(*load_preset("hgx-h100", kDirs).system.nccl(), *load_preset("h100-ib-ndr400", kDirs).system.nccl());
    same(*load_preset("dgx-a100", kDirs).system.nccl(), *load_preset("a100-ib-hdr200", kDirs).system.nccl());
}

TEST_CASE("bad [nccl] tables name file, line and key") {
    SUBCASE("an efficiency above 1") {
        const auto [path, line] =
            edited_preset("nccl_eff.toml", "network-p2p-efficiency", "network-p2p-efficiency = 1.5");
        CHECK(error_of(path) == path + ":" + std::to_string(line) +
                                    ":26: nccl.network-p2p-efficiency: expected a fraction in (0, 1], got 1.5");
    }
    SUBCASE("a list of the wrong length") {
        const auto [path, line] = edited_preset("nccl_list.toml", "step-bytes", "step-bytes = [32768, 576000]");
        CHECK(error_of(path) ==
              path + ":" + std::to_string(line) + ":14: nccl.protocol.step-bytes: expected a list of 3 numbers");
    }
    SUBCASE("the NVLS fill of earlier presets names its replacement") {
        const auto [path, line] = edited_preset("nccl_fill.toml", "step-bytes",
                                                "step-bytes = [32768, 576000, 524288]\nnvls-pipeline-bytes = 712900");
        CHECK(error_of(path) == path + ":" + std::to_string(line + 1) +
                                    ":23: nccl.protocol.nvls-pipeline-bytes: nvls-pipeline-bytes was replaced by "
                                    "[nccl] nvls-chunk-overhead-us (us per NVLS chunk; presets/nccl/hopper.toml has 0.33)");
    }
    SUBCASE("the NVLS cost per loop of earlier presets names its replacement") {
        // "nvls-loop-overhead-us = " is 24 characters: the value is at column 25.
        const auto [path, line] =
            edited_preset("nccl_loop.toml", "nvls-chunk-overhead-us", "nvls-loop-overhead-us = 2.64");
        CHECK(error_of(path) == path + ":" + std::to_string(line) +
                                    ":25: nccl.nvls-loop-overhead-us: nvls-loop-overhead-us (us per NVLS loop of 8 "
                                    "heads) was replaced by nvls-chunk-overhead-us (us per head's chunk, the loop's "
                                    "cost / heads; presets/nccl/hopper.toml has 0.33)");
    }
    SUBCASE("too many channels") {
        const auto [path, line] = edited_preset("nccl_ch.toml", "nvls-channels", "nvls-channels = 128");
        CHECK(error_of(path) == path + ":" + std::to_string(line) +
                                    ":17: nccl.nvls-channels: NCCL runs at most 64 channels, got 128");
    }
    SUBCASE("NVLS channels for one node and several, as a list of the wrong length") {
        const auto [path, line] = edited_preset("nccl_ch2.toml", "nvls-channels", "nvls-channels = [24, 32, 32]");
        CHECK(error_of(path) == path + ":" + std::to_string(line) +
                                    ":17: nccl.nvls-channels: expected a number, or a list of 2 (one node, several nodes)");
    }
    SUBCASE("a per-node-bucket figure as a list of the wrong length") {
        const auto [path, line] = edited_preset("nccl_ll128.toml", "ll128-max-bandwidth-per-channel",
                                                "ll128-max-bandwidth-per-channel = [34.5, 34.6]");
        CHECK(error_of(path) == path + ":" + std::to_string(line) +
                                    ":35: nccl.protocol.ll128-max-bandwidth-per-channel: expected a number, or a list "
                                    "of 3 (one node, two nodes, more)");
    }
    SUBCASE("an unknown host CPU vendor") {
        const auto [path, line] = edited_preset("nccl_cpu.toml", "cpu-vendor", "cpu-vendor = \"power\"");
        CHECK(error_of(path) == path + ":" + std::to_string(line) +
                                    ":14: nccl.hardware.cpu-vendor: expected intel, amd or arm, got 'power'");
    }
    SUBCASE("a compute capability NCCL has no tables for") {
        const auto [path, line] = edited_preset("nccl_sm.toml", "sm = 90", "sm = 9");
        CHECK(error_of(path) ==
              path + ":" + std::to_string(line) +
                  ":6: nccl.hardware.sm: expected a compute capability x 10 (80 Ampere, 90 Hopper, 100 Blackwell)");
    }
    SUBCASE("an unknown key") {
        const auto [path, line] = edited_preset("nccl_key.toml", "nvls-efficiency", "nvls-eficiency = 0.85");
        const std::string message = error_of(path);
        CHECK(message.find(path) == 0);
        CHECK(message.find("nvls-efficiency") != std::string::npos);
    }
    SUBCASE("NVLS on without an efficiency") {
        const auto [path, line] = edited_preset("nccl_nvls.toml", "nvls-efficiency", "nvls-efficiency = 0.0");
        CHECK(error_of(path) ==
              path + ":" + std::to_string(line) + ":19: nccl.nvls-efficiency: must be > 0 when nvls = true");
    }
    SUBCASE("one rank's copy: a share above 1, and one key without the other") {
        const auto [path, line] = edited_preset("nccl_copy.toml", "copy-efficiency", "copy-efficiency = 1.2");
        CHECK(error_of(path) ==
              path + ":" + std::to_string(line) + ":19: nccl.copy-efficiency: expected a fraction in (0, 1], got 1.2");
        const auto [lone, lone_line] = edited_preset("nccl_copy2.toml", "copy-overhead-us", "");
        CHECK(error_of(lone) == lone + ":" + std::to_string(lone_line - 1) +
                                    ":19: nccl.copy-efficiency: copy-efficiency needs copy-overhead-us beside it (a "
                                    "copy's fixed cost)");
    }
    SUBCASE("backend nccl without an [nccl] table") {
        std::string text = read_preset_text("hgx-h100");
        text = text.substr(0, text.find("# -----"));  // everything before [nccl]
        const std::string path = write_temp_file("nccl_missing.toml", text);
        int line = 1;
        for (std::size_t i = 0; i < text.find("backend = "); ++i) line += text[i] == '\n';
        CHECK(error_of(path) ==
              path + ":" + std::to_string(line) + ":11: backend: backend 'nccl' needs an [nccl] table in the preset");
    }
}

TEST_CASE("algorithm and protocol names parse like NCCL_ALGO and NCCL_PROTO") {
    CHECK(parse_nccl_algorithm("Ring") == NcclAlgorithm::Ring);
    CHECK(parse_nccl_algorithm("NVLSTree") == NcclAlgorithm::NvlsTree);
    CHECK(parse_nccl_algorithm("nvls-tree") == NcclAlgorithm::NvlsTree);
    CHECK(parse_nccl_algorithm("PAT") == NcclAlgorithm::Pat);
    CHECK_FALSE(parse_nccl_algorithm("collnet"));
    CHECK(parse_nccl_protocol("LL128") == NcclProtocol::LL128);
    CHECK(parse_nccl_protocol("simple") == NcclProtocol::Simple);
    CHECK_FALSE(parse_nccl_protocol("LL64"));
    CHECK(nccl_choice_name(NcclAlgorithm::NvlsTree, NcclProtocol::Simple) == "nvls-tree/Simple");
}
