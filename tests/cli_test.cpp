// The dtcalc binary end to end: output shapes, exit codes, error messages.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

#include "run_dtcalc.h"
#include "temp_file.h"

using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;

namespace {

const std::string kPreset = std::string("--preset ") + DTCALC_PRESETS_DIR + "/astrasim-hgx-h100-validated.toml";

}  // namespace

TEST_CASE("collective prints ASTRA-sim's figure for the HGX-H100 example") {
    const Run r = run_dtcalc("collective all-reduce --size 1MiB " + kPreset + " --units cycles --format csv");
    CHECK(r.exit_code == 0);
    // 57,426 cycles: ASTRA-sim's congestion-aware result quoted in seed 002.
    CHECK(r.out.find("all-reduce,1048576,8,astra-aware,4,262144,57426,") != std::string::npos);
}

TEST_CASE("collective JSON has the documented keys, one object per size") {
    const Run r = run_dtcalc("collective all-gather --size 1KiB:4KiB " + kPreset + " --format json");
    REQUIRE(r.exit_code == 0);
    const auto doc = nlohmann::json::parse(r.out);
    REQUIRE(doc.is_array());
    REQUIRE(doc.size() == 3);
    for (const char* key : {"collective", "size_bytes", "npus", "backend", "time_us", "algbw_GBps", "busbw_GBps", "phases"})
        CHECK(doc[0].contains(key));
    CHECK(doc[0]["collective"] == "all-gather");
    CHECK(doc[2]["size_bytes"] == 4096);
    CHECK(doc[0]["npus"] == 8);
    // busbw = algbw x (n-1)/n for all-gather
    CHECK(doc[1]["busbw_GBps"].get<double>() == doctest::Approx(doc[1]["algbw_GBps"].get<double>() * 7.0 / 8.0));
}

TEST_CASE("collective --backend nccl shows NICs in use, channels, algorithm and protocol for 1, 2, 4, 8 GPUs per node") {
    // nccl_model_test.cpp derives the channels: NCCL's search on NDR nodes finds
    // 1, 2, 4 channels at 48 GB/s for 1, 2, 4 GPUs (doubled to 24 GB/s each) and
    // 8 at 48 for 8 GPUs; the postset runs each twice.
    const std::string preset = std::string("--preset ") + DTCALC_PRESETS_DIR + "/h100-ib-ndr400.toml";
    const std::array<std::array<int, 3>, 4> shapes{{{1, 1, 4}, {2, 2, 8}, {4, 4, 16}, {8, 8, 16}}};
    for (const auto& [gpus, nics, channels] : shapes) {
        INFO(gpus << " GPUs per node");
        const Run json = run_dtcalc("collective all-reduce --backend nccl --size 8:8GiB:x1024 " + preset +
                                    " --nodes 2 --gpus-per-node " + std::to_string(gpus) + " --format json");
        REQUIRE(json.exit_code == 0);
        const auto doc = nlohmann::json::parse(json.out);
        REQUIRE(doc.size() == 4);
        for (const auto& row : doc) {
            CHECK(row["nics"] == nics);
            CHECK(row["channels"] == channels);
            CHECK(row.contains("algorithm"));
            CHECK(row.contains("protocol"));
        }
        CHECK(doc[0]["protocol"] == "LL");         // 8 B: latency, LL
        CHECK(doc[3]["protocol"] == "Simple");     // 8 GiB: bandwidth, Simple
        const Run table = run_dtcalc("collective all-reduce --backend nccl --size 8 " + preset + " --nodes 2 " +
                                     "--gpus-per-node " + std::to_string(gpus));
        REQUIRE(table.exit_code == 0);
        CHECK(table.out.find("nics  channels  algorithm  protocol") != std::string::npos);
    }
}

TEST_CASE("--gpus-per-node picks some of a preset node's GPUs, never more than it holds") {
    // h100-ib-ndr400's and hgx-h100's nodes are HGX H100 baseboards of 8 GPUs:
    // 16 per node is other hardware, an error (exit 2) on every command that
    // reshapes; an abstract lab network's inner dimension still takes any size.
    const std::string ib = std::string("--preset ") + DTCALC_PRESETS_DIR + "/h100-ib-ndr400.toml";
    const std::string expected = "dtcalc: error: --gpus-per-node: expected 1 to 8, got 16: this system's nodes hold 8 "
                                 "GPUs (a larger node is other hardware: describe it with a preset of its own)\n";
    for (const std::string& command :
         {"collective all-reduce --size 1GiB " + ib + " --nodes 2 --gpus-per-node 16",
          "collective all-reduce --size 1GiB " + ib + " --nodes 1..4 --gpus-per-node 16",
          std::string("collective all-reduce --size 1GiB --preset hgx-h100 --gpus-per-node 16"),
          "preset " + ib + " --gpus-per-node 16",
          "predict --model llama2-7b " + ib + " --nodes 2 --gpus-per-node 16"}) {
        INFO(command);
        const Run run = run_dtcalc(command);  // stdout and stderr: the error and nothing else
        CHECK(run.exit_code == 2);
        CHECK(run.out == expected);
    }
    CHECK(run_dtcalc("collective all-reduce --size 1GiB " + ib + " --nodes 2 --gpus-per-node 8").exit_code == 0);
    CHECK(run_dtcalc("collective all-reduce --size 1GiB --preset lab-system1 --gpus-per-node 16").exit_code == 0);
}

TEST_CASE("collective on one NPU: NCCL's copy priced where the tables give its rate, else 0 us and why") {
    // One rank: NCCL moves nothing between GPUs (src/enqueue.cc, taskAppend ->
    // ncclLaunchOneRank): out of place, as nccl-tests' first column times it,
    // a device copy. H100: 5.4 us + 2 x 1 MiB / (3,350 x 0.904 GB/s) = 5,400 +
    // 692.5 ns = 6.0925 us (presets/nccl/hopper.toml).
    const std::string preset = std::string("--preset ") + DTCALC_PRESETS_DIR + "/h100-ib-ndr400.toml";
    const Run one = run_dtcalc("collective all-reduce --backend nccl --size 1MiB " + preset +
                               " --nodes 1 --gpus-per-node 1 --format json");
    REQUIRE(one.exit_code == 0);
    const auto doc = nlohmann::json::parse(one.out.substr(0, one.out.find("dtcalc:")));
    CHECK(doc[0]["time_us"].get<double>() == doctest::Approx(6.0925).epsilon(1e-4));
    CHECK(doc[0]["nics"] == 0);
    CHECK(doc[0]["channels"] == 0);
    CHECK(doc[0]["algorithm"] == "copy");
    CHECK(doc[0]["protocol"] == "none");
    CHECK(one.out.find("on 1 NPU") == std::string::npos);
    // All-to-all: NCCL's point-to-point kernel copies a rank's share to itself, not priced.
    const Run a2a = run_dtcalc("collective all-to-all --backend nccl --size 1MiB " + preset +
                               " --nodes 1 --gpus-per-node 1 --format json");
    REQUIRE(a2a.exit_code == 0);
    CHECK(a2a.out.find("\"time_us\": 0") != std::string::npos);
    CHECK(a2a.out.find("\"algorithm\": \"none\"") != std::string::npos);
    CHECK(a2a.out.find("dtcalc: note: all-to-all on 1 NPU: nothing moves between NPUs, so 0 us (NCCL sends a rank's "
                       "share to itself in its point-to-point kernel; that copy is not priced)") != std::string::npos);
    CHECK(a2a.out.find("NCCL discards an empty collective") == std::string::npos);
    // B200: NCCL's Blackwell tables here state no copy rate.
    const Run b200 = run_dtcalc("collective all-reduce --size 1MiB --gpu b200 --nodes 1 --gpus-per-node 1");
    REQUIRE(b200.exit_code == 0);
    CHECK(b200.out.find("this preset's [nccl] table states no copy-efficiency to price it") != std::string::npos);
    // A100 80GB: 5.4 us + 2 x 1,048,576 B / (2,039 x 0.843 B/ns) = 5.4 + 1.2200 = 6.620 us.
    const Run a100 = run_dtcalc("collective all-reduce --size 1MiB --gpu a100-80gb-sxm --nodes 1 --gpus-per-node 1");
    REQUIRE(a100.exit_code == 0);
    CHECK(a100.out.find("6.620") != std::string::npos);
    CHECK(a100.out.find("one rank's copy-overhead-us from the H100 fit, unvalidated") != std::string::npos);
    // Two ranks: no such note.
    const Run two = run_dtcalc("collective all-reduce --backend nccl --size 1MiB " + preset +
                               " --nodes 1 --gpus-per-node 2");
    REQUIRE(two.exit_code == 0);
    CHECK(two.out.find("on 1 NPU") == std::string::npos);
    // 0 bytes on 8 ranks: NCCL discards the call.
    const Run empty = run_dtcalc("collective all-gather --backend nccl --size 0 " + preset +
                                 " --nodes 1 --gpus-per-node 8");
    REQUIRE(empty.exit_code == 0);
    CHECK(empty.out.find("NCCL discards an empty collective") != std::string::npos);
    CHECK(empty.out.find("on 1 NPU") == std::string::npos);
}

TEST_CASE("collective --tuning prints NCCL's own table, as NCCL printed it for 2 x 8 H200") {
    // NCCL 2.30.4 on 2 x 8 H200 over InfiniBand printed, for AllReduce
    // (tests/data/nccl_2.30.4_tuning_h200.csv): Tree 25.2/16.6, 48.5/124.8,
    // 92.4/140.8; Ring 40.0/20.8, 75.2/156.6, 131.6/204.8; NVLSTree Simple
    // 66.8/246.2; NVLS and PAT off.
    const Run r = run_dtcalc("collective all-reduce --gpu h200 --nodes 2 --gpus-per-node 8 --size 1MiB --tuning");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("NCCL's tuning for all-reduce on 16 GPUs (2 nodes x 8)") != std::string::npos);
    CHECK(r.out.find("ring          40.0/   20.8    75.2/  156.6   131.6/  204.8") != std::string::npos);
    CHECK(r.out.find("tree          25.2/   16.6    48.5/  124.8    92.4/  140.8") != std::string::npos);
    CHECK(r.out.find("nvls                     -               -               -") != std::string::npos);
    CHECK(r.out.find("nvls-tree                -               -    66.8/  246.2") != std::string::npos);
    // --algo turns pairs off as NCCL_ALGO does.
    const Run ring = run_dtcalc("collective all-reduce --gpu h200 --nodes 2 --gpus-per-node 8 --size 1MiB --tuning "
                                "--algo ring");
    REQUIRE(ring.exit_code == 0);
    CHECK(ring.out.find("tree                     -               -               -") != std::string::npos);
    // Table only; the nccl backend only.
    const Run csv = run_dtcalc("collective all-reduce --gpu h200 --nodes 2 --size 1MiB --tuning --format csv");
    CHECK(csv.exit_code == 2);
    CHECK(csv.out.find("--tuning: is shown with --format table only") != std::string::npos);
    const Run astra = run_dtcalc("collective all-reduce --size 1MiB --tuning " + kPreset);
    CHECK(astra.exit_code == 2);
    CHECK(astra.out.find("--tuning: shows the nccl backend's NCCL tuning; this system uses astra-aware") !=
          std::string::npos);
}

TEST_CASE("collective JSON gives the earliest and latest rank where ranks finish apart") {
    const std::string configs = std::string(DTCALC_VALIDATION_DIR) + "/astrasim/configs/";
    const std::string files = " --network " + configs + "net_Switch_8_09d07a3c.yml --system " + configs;
    // reference_runs_2.csv R0832: sys[0] 39,522 cycles, ranks 39,522 .. 43,244.
    const Run tree = run_dtcalc("collective all-reduce --size 1MiB --backend astra-aware --format json" + files +
                                "sys_doubleBinaryTree_s4_a2_e10_localBWAware_04b9c67c.json");
    REQUIRE(tree.exit_code == 0);
    const auto t = nlohmann::json::parse(tree.out)[0];
    CHECK(t["time_ns"] == 39522);
    CHECK(t["ranks_min_us"].get<double>() == doctest::Approx(39.522));
    CHECK(t["ranks_max_us"].get<double>() == doctest::Approx(43.244));
    // A ring: every rank finishes together, no such keys.
    const Run ring = run_dtcalc("collective all-reduce --size 1MiB --backend astra-aware --format json" + files +
                                "sys_ring_s4_a2_e10_localBWAware_1e59c592.json");
    REQUIRE(ring.exit_code == 0);
    CHECK_FALSE(nlohmann::json::parse(ring.out)[0].contains("ranks_min_us"));
}

TEST_CASE("bad input exits 2 with one clear line") {
    SUBCASE("unknown collective") {
        const Run r = run_dtcalc("collective all-sum --size 1MiB " + kPreset);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: KIND: expected all-reduce, reduce-scatter, all-gather, all-to-all or send-recv, got 'all-sum'\n");
    }
    SUBCASE("bad size") {
        const Run r = run_dtcalc("collective all-reduce --size 1MiBs " + kPreset);
        CHECK(r.exit_code == 2);
        CHECK(r.out.find("--size: expected a size like") != std::string::npos);
    }
    SUBCASE("more NPUs than the network has") {
        const Run r = run_dtcalc("collective all-reduce --size 1MiB --npus 16 " + kPreset);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: --npus: the group has 16 NPUs but the network has only 8\n");
    }
    SUBCASE("unknown preset") {
        const Run r = run_dtcalc("collective all-reduce --size 1MiB --preset nope");
        CHECK(r.exit_code == 2);
        CHECK(r.out.starts_with("dtcalc: error: --preset: no preset named 'nope'"));
    }
    SUBCASE("network without system") {
        const std::string net = dtcalc::testing::write_temp_file("cli.yml",
                                                                 "topology: [Switch]\nnpus_count: [8]\nbandwidth: [400]\nlatency: [10]\n");
        const Run r = run_dtcalc("collective all-reduce --size 1MiB --network " + net);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: --system: missing: a network file needs a system file too\n");
    }
    SUBCASE("bad file") {
        const std::string net = dtcalc::testing::write_temp_file("cli-bad.yml", "topology: [Switch]\n");
        const std::string sys = dtcalc::testing::write_temp_file("cli-sys.json", "{}");
        const Run r = run_dtcalc("collective all-reduce --size 1MiB --network " + net + " --system " + sys);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + net + ": npus_count: missing required key\n");
    }
    SUBCASE("unknown flag and missing subcommand") {
        CHECK(run_dtcalc("collective all-reduce --size 1MiB --frobnicate " + kPreset).exit_code == 2);
        CHECK(run_dtcalc("").exit_code == 2);
    }
    SUBCASE("an algorithm the collective does not have") {
        const std::string net = dtcalc::testing::write_temp_file("hd.yml",
                                                                 "topology: [Switch]\nnpus_count: [8]\nbandwidth: [400]\nlatency: [10]\n");
        const std::string sys = dtcalc::testing::write_temp_file(
            "hd.json",
            R"({"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
                "preferred-dataset-splits": 1, "all-reduce-implementation": ["halvingDoubling"],
                "all-gather-implementation": ["halvingDoubling"], "reduce-scatter-implementation": ["halvingDoubling"],
                "all-to-all-implementation": ["halvingDoubling"], "collective-optimization": "baseline",
                "local-mem-bw": 1000})");
        const Run r = run_dtcalc("collective all-to-all --size 1MiB --network " + net + " --system " + sys);
        CHECK(r.exit_code == 2);
        // Named at the system file's entry (line 4 of the JSON above).
        CHECK(r.out == "dtcalc: error: " + sys + ":4: all-to-all-implementation[0]: halvingDoubling has no all-to-all\n");
    }
}
