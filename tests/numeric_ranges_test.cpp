// Inputs past the physical ranges (core/units.h) are refused: an "out of
// range" InputError naming the key or flag and the accepted range; on the
// command line, exit code 2, one line, and no "nan" or "inf" in any output,
// at the edges as much as beyond them. (numeric_edges_test.cpp: the edges
// themselves give finite, sensible results.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "chakra/remote_memory.h"
#include "collective/algorithm_steps.h"
#include "collective/collective_cost.h"
#include "collective/comm_group.h"
#include "config/config_readers.h"
#include "config/network_config.h"
#include "config/preset.h"
#include "config/system_config_reader.h"
#include "core/error.h"
#include "core/units.h"
#include "gemm/parallel_split.h"
#include "network/cluster_shape.h"
#include "predict/predict.h"
#include "report/iteration_report.h"
#include "run_dtcalc.h"
#include "schedule/evaluate.h"
#include "temp_file.h"
#include "workload/astra_v1_workload.h"
#include "chakra_test_traces.h"
#include "input_error.h"
#include "numeric_edge_helpers.h"

using namespace dtcalc;
using dtcalc::testing::error_of;
using dtcalc::testing::has_nan_or_inf;
using dtcalc::testing::kPiB;
using dtcalc::testing::make_system;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;


// ---------------------------------------------------------------------------
// Bounds: what is outside the physical ranges is refused, naming the key.

namespace {

std::string network_yaml(const std::string& topology, const std::string& npus, const std::string& bandwidth,
                         const std::string& latency) {
    return "topology: [ " + topology + " ]\nnpus_count: [ " + npus + " ]\nbandwidth: [ " + bandwidth +
           " ]\nlatency: [ " + latency + " ]\n";
}

std::string system_json(const std::string& splits, const std::string& active, const std::string& endpoint,
                        const std::string& mem_bw) {
    return "{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": " + endpoint +
           ", \"active-chunks-per-dimension\": " + active + ", \"preferred-dataset-splits\": " + splits +
           ",\n \"all-reduce-implementation\": [\"ring\"], \"all-gather-implementation\": [\"ring\"], "
           "\"reduce-scatter-implementation\": [\"ring\"], \"all-to-all-implementation\": [\"ring\"],\n"
           " \"collective-optimization\": \"baseline\", \"local-mem-bw\": " + mem_bw + "}\n";
}

}  // namespace

TEST_CASE("numeric edge: network files outside the physical ranges are refused with the key and the range") {
    auto load = [](const std::string& name, const std::string& text) {
        const std::string path = write_temp_file("numedge-" + name + ".yml", text);
        return std::make_pair(path, error_of([&] { load_astra_network_yaml(path); }));
    };
    SUBCASE("the edges themselves are accepted") {
        for (const std::string& bandwidth : {"1e-6", "1e-3", "1e6", "1e12"})
            for (const std::string& latency : {"0", "1e9"}) {
                const auto [path, error] = load("ok", network_yaml("Ring", "1048576", bandwidth, latency));
                CHECK(error == "(no error)");
            }
        const auto [path, error] = load("ok-product", network_yaml("Ring, Switch, Ring", "256, 256, 256", "1, 1, 1", "0, 0, 0"));
        CHECK(error == "(no error)");  // 2^24 exactly
    }
    SUBCASE("bandwidth below 1 kB/s or above 1 ZB/s") {
        const auto [slow, slow_error] = load("slow", network_yaml("Ring", "4", "1e-7", "0"));
        CHECK(slow_error == slow + ":3:14: bandwidth[0]: out of range (got 1e-07): accepted are 1e-06 to 1e+12 GB/s per link "
                                   "(1 kB/s to 1 ZB/s)");
        const auto [fast, fast_error] = load("fast", network_yaml("Ring", "4", "2e12", "0"));
        CHECK(fast_error == fast + ":3:14: bandwidth[0]: out of range (got 2e+12): accepted are 1e-06 to 1e+12 GB/s per link "
                                   "(1 kB/s to 1 ZB/s)");
    }
    SUBCASE("latency over a second") {
        const auto [path, error] = load("latency", network_yaml("Ring", "4", "100", "2e9"));
        CHECK(error == path + ":4:12: latency[0]: out of range (got 2e+09): accepted are 0 to 1e+09 ns per hop (up to 1 s)");
    }
    SUBCASE("dimensions that multiply past 2^24 NPUs, also where the 64-bit product would wrap to 0") {
        const auto [path, error] = load("product", network_yaml("Ring, Ring", "8192, 4096", "1, 1", "0, 0"));
        CHECK(error == path + ":2:21: npus_count[1]: out of range: the dimensions multiply to more than 16,777,216 NPUs "
                              "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
        // 65536^4 = 2^64: before the bound, the product wrapped to 0 and the network had "0 NPUs".
        const auto [wrap, wrap_error] =
            load("wrap", network_yaml("Ring, Ring, Ring, Ring", "65536, 65536, 65536, 65536", "1, 1, 1, 1", "0, 0, 0, 0"));
        CHECK(wrap_error == wrap + ":2:22: npus_count[1]: out of range: the dimensions multiply to more than 16,777,216 NPUs "
                                   "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
        // A grid entry's axes count the same way.
        const auto [grid, grid_error] = load("grid", network_yaml("Torus2D, Ring", "4096, 4096, 2", "1, 1", "0, 0"));
        CHECK(grid_error == grid + ":2:27: npus_count[2]: out of range: the dimensions multiply to more than 16,777,216 NPUs "
                                   "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
    }
}

TEST_CASE("numeric edge: system files outside the physical ranges are refused with the key and the range") {
    auto load = [](const std::string& name, const std::string& text) {
        const std::string path = write_temp_file("numedge-" + name + ".json", text);
        return std::make_pair(path, error_of([&] { load_astra_system_json(path, 1); }));
    };
    {
        const auto [path, error] = load("sys-ok", system_json("1024", "1024", "1e9", "1e-6"));
        CHECK(error == "(no error)");
    }
    {
        const auto [path, error] = load("sys-splits", system_json("1025", "1", "0", "1000"));
        CHECK(error == path + ":1: preferred-dataset-splits: out of range (got 1025): accepted are 1 to 1024");
    }
    {
        const auto [path, error] = load("sys-active", system_json("4", "100000", "0", "1000"));
        CHECK(error == path + ":1: active-chunks-per-dimension: out of range (got 100000): accepted are 1 to 1024");
    }
    {
        const auto [path, error] = load("sys-endpoint", system_json("4", "1", "1e10", "1000"));
        CHECK(error == path + ":1: endpoint-delay: out of range (got 1e+10): accepted are 0 to 1e+09 ns (up to 1 s)");
    }
    {
        const auto [path, error] = load("sys-membw", system_json("4", "1", "0", "1e-9"));
        CHECK(error == path + ":3: local-mem-bw: out of range (got 1e-09): accepted are 1e-06 to 1e+12 GB/s (1 kB/s to 1 ZB/s)");
    }
    {
        std::string text = system_json("4", "1", "0", "1000");
        text.insert(text.rfind('}'), ", \"peak-perf\": 1e-9");
        const auto [path, error] = load("sys-peak", text);
        CHECK(error == path + ":3: peak-perf: out of range (got 1e-09): accepted are 1e-06 to 1e+09 TFLOP/s");
    }
    {
        const std::string path = write_temp_file("numedge-remote.json", "{\"memory-type\": \"PER_NPU_MEMORY_EXPANSION\", "
                                                                        "\"remote-mem-latency\": 5, \"remote-mem-bw\": 1e-9}\n");
        CHECK(error_of([&] { chakra::load_remote_memory(path); }) ==
              path + ":1: remote-mem-bw: out of range (got 1e-09): accepted are 1e-06 to 1e+12 GB/s (1 kB/s to 1 ZB/s)");
    }
}

TEST_CASE("numeric edge: a cluster shaped past 2^24 NPUs is refused, whatever the 64-bit product would be") {
    Network two{{{Topology::Switch, 8, 450, 0}, {Topology::Switch, 16, 50, 0}}};
    CHECK(shape_cluster(two, 2097152, 8, std::nullopt).total_npus() == kMaxNpus);  // 2^21 x 8 = 2^24: the edge is accepted
    CHECK(error_of([&] { shape_cluster(two, 16777216, 16777216, std::nullopt); }) ==
          "nodes: out of range: the cluster would have more than 16,777,216 NPUs (accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
    // The middle dimension is kept: 2^24 x 2^24 x 2^24 would be 2^72.
    Network three{{{Topology::Switch, 8, 450, 0}, {Topology::Switch, 16777216, 50, 0}, {Topology::Switch, 2, 50, 0}}};
    CHECK(error_of([&] { shape_cluster(three, std::nullopt, 16777216, std::nullopt); }) ==
          "gpus_per_node: out of range: the cluster would have more than 16,777,216 NPUs (accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
}

TEST_CASE("a node of hardware holds its GPUs: G up to them is a subset of each node, more is refused") {
    // Nodes of 8 GPUs (an HGX H100 baseboard, presets/devices/h100-sxm.toml's
    // max-gpus-per-node): nccl-tests can run on 1 to 8 of them, not on 16.
    Network two{{{Topology::Switch, 8, 450, 0}, {Topology::Switch, 16, 50, 0}}};
    CHECK(shape_cluster(two, 2, 8, 8).total_npus() == 16);
    CHECK(shape_cluster(two, 2, 1, 8).total_npus() == 2);
    CHECK(error_of([&] { shape_cluster(two, 2, 9, 8); }) ==
          "gpus_per_node: expected 1 to 8, got 9: this system's nodes hold 8 GPUs (a larger node is other hardware: "
          "describe it with a preset of its own)");
    // An abstract network's inner dimension takes any size.
    CHECK(shape_cluster(two, 2, 64, std::nullopt).total_npus() == 128);
}

TEST_CASE("numeric edge: message sizes over 1 PiB are refused; all-gathers whose output would pass it too") {
    SUBCASE("sizes parse up to EiB so that the bound, not the parser, answers") {
        CHECK(parse_byte_size("1EiB") == std::uint64_t{1} << 60);
        CHECK(parse_byte_size("1EB") == 1000000000000000000ULL);
        CHECK(parse_byte_size("1PiB") == kPiB);
        CHECK(byte_size_out_of_range(std::uint64_t{1} << 60) ==
              "out of range (got 1 EiB): sizes from 0 B to 1 PiB (2^50 B) are accepted");
    }
    SUBCASE("the collective front door") {
        const Network network{{{Topology::Ring, 4, 100, 0}}};
        const SystemConfig system = make_system({AlgorithmKind::Ring, false}, 1, 0);
        CHECK(error_of([&] {
                  collective_time(network, system, NetworkBackend::AstraUnaware,
                                  {CollectiveKind::AllReduce, kPiB + 1, whole_network_group(network)});
              }) == "size: out of range (got 1125899906842625 B): sizes from 0 B to 1 PiB (2^50 B) are accepted");
        CHECK(error_of([&] {
                  collective_time(network, system, NetworkBackend::AstraUnaware,
                                  {CollectiveKind::AllReduce, kPiB, whole_network_group(network)});
              }) == "(no error)");
    }
    SUBCASE("an ASTRA-sim 1.0 size over 1 PiB") {
        const std::string text = "DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1125899906842625 0\n";
        CHECK(error_of([&] { parse_v1_workload_text(text, "big.txt"); }) ==
              "big.txt:3: wg_comm_size: out of range (got 1125899906842625): sizes from 0 B to 1 PiB (2^50 B) are accepted");
    }
    SUBCASE("an ASTRA-sim 1.0 all-gather: each NPU's input times the group, checked before it is multiplied") {
        // 2^40 B per NPU on 1024 NPUs gathers exactly 2^50 B: accepted. On
        // 2048 NPUs it would be 2^51; on 2^24 NPUs of 2^50 B, 2^74 (a 64-bit wrap).
        const std::string text = "DATA\n1\nl -1 1 ALLGATHER 1099511627776 1 NONE 0 1 NONE 0 0\n";
        const V1Workload w = parse_v1_workload_text(text, "gather.txt");
        const Network fits{{{Topology::Ring, 1024, 100, 0}}};
        CHECK(build_v1_training_graph(w, fits, 1).ops.size() > 0);
        const Network over{{{Topology::Ring, 2048, 100, 0}}};
        CHECK(error_of([&] { build_v1_training_graph(w, over, 1); }) ==
              "gather.txt:3: fwd_comm_size: out of range: an all-gather of 1099511627776 B per NPU on 2048 NPUs gathers "
              "more than 1 PiB (2^50 B, the largest size accepted)");
        const std::string huge = "DATA\n1\nl -1 1 ALLGATHER 1125899906842624 1 NONE 0 1 NONE 0 0\n";
        const Network most{{{Topology::Switch, 1 << 24, 100, 0}}};
        CHECK(error_of([&] { build_v1_training_graph(parse_v1_workload_text(huge, "wrap.txt"), most, 1); }) ==
              "wrap.txt:3: fwd_comm_size: out of range: an all-gather of 1125899906842624 B per NPU on 16777216 NPUs "
              "gathers more than 1 PiB (2^50 B, the largest size accepted)");
    }
    SUBCASE("a GEMM whose buffer, a message of the workload gen-workload writes, is over 1 PiB") {
        // m = n = k = 2^25 at 2 bytes: the forward output m x n x 2 is 2^51 B.
        GemmLayer big;
        big.name = "big";
        big.line = 3;
        big.m = big.n = big.k = std::int64_t{1} << 25;
        CHECK(error_of([&] { split_layer(big, "g.csv", {1, 1}, 2); }) ==
              "g.csv:3: layer: 'big': a buffer of 2251799813685248 bytes is out of range (sizes from 0 B to 1 PiB = 2^50 B "
              "are accepted)");
        big.m = big.n = big.k = std::int64_t{1} << 24;  // 2^49 B: accepted
        CHECK(split_layer(big, "g.csv", {1, 1}, 2).weight_bytes == std::uint64_t{1} << 49);
    }
    SUBCASE("an ASTRA-sim 1.0 compute time over 1e18 cycles") {
        const std::string text = "DATA\n1\nl -1 1e300 NONE 0 1 NONE 0 1 NONE 0 0\n";
        CHECK(error_of([&] { parse_v1_workload_text(text, "slow.txt"); }) ==
              "slow.txt:3: fwd_compute: out of range (got 1e300): accepted are 0 to 1e18 cycles (32 years)");
    }
}

// ---------------------------------------------------------------------------
// The command line at a few representative edges.

namespace {

struct Files {
    std::string network, system;
};

Files edge_files(const std::string& name, const std::string& topology, const std::string& npus, const std::string& bandwidth,
                 const std::string& latency, const std::string& algorithm, const std::string& endpoint = "0") {
    return {write_temp_file("numedge-cli-" + name + ".yml", network_yaml(topology, npus, bandwidth, latency)),
            write_temp_file("numedge-cli-" + name + ".json",
                            "{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": " + endpoint +
                                ", \"active-chunks-per-dimension\": 1, \"preferred-dataset-splits\": 1, "
                                "\"all-reduce-implementation\": [\"" + algorithm + "\"], \"all-gather-implementation\": [\"" +
                                algorithm + "\"], \"reduce-scatter-implementation\": [\"" + algorithm +
                                "\"], \"all-to-all-implementation\": [\"" + algorithm +
                                "\"], \"collective-optimization\": \"baseline\", \"local-mem-bw\": 1000, \"peak-perf\": 100}\n")};
}

/// The time column of `collective --format csv` (its 7th field).
double csv_time(const std::string& out) {
    const std::string row = out.substr(out.find('\n') + 1);
    std::istringstream in(row);
    std::string field;
    for (int i = 0; i < 7; ++i) std::getline(in, field, ',');
    return std::stod(field);
}

}  // namespace

TEST_CASE("numeric edge: the command line prints no nan or inf at the edges, and exits 0 or 2") {
    int runs = 0;
    for (const std::string& npus : {"1", "2", "1048576"})
        for (const std::string& bandwidth : {"0.001", "1000000"})
            for (const std::string& algorithm : {"ring", "direct"}) {
                const Files f = edge_files(npus + "-" + bandwidth + "-" + algorithm, "Switch", npus, bandwidth, "0", algorithm);
                for (const std::string& format : {"table", "csv", "json"})
                    for (const std::string& size : {"1", "1PiB", "1:1PiB:x1024"}) {
                        const auto r = run_dtcalc("collective all-to-all --size " + size + " --network " + f.network +
                                                  " --system " + f.system + " --units cycles --format " + format);
                        ++runs;
                        INFO(npus << " NPUs, " << bandwidth << " GB/s, " << algorithm << ", " << format << ", " << size);
                        INFO(r.out);
                        CHECK(r.exit_code == 0);
                        CHECK_FALSE(has_nan_or_inf(r.out));
                    }
            }
    CHECK(runs == 108);
    // The same 1 PiB all-reduce on the preset's 64 NPUs with --npus 1 and the whole
    // network, in every unit, and the nccl preset at 1 and 1,048,576 GPUs.
    for (const std::string& units : {"us", "ns", "ms", "s", "cycles"}) {
        for (const std::string& group : {"--npus 1", ""}) {
            const auto r = run_dtcalc("collective all-reduce --size 1PiB --preset lab-system1 --units " + units + " " + group);
            CHECK(r.exit_code == 0);
            CHECK_FALSE(has_nan_or_inf(r.out));
        }
    }
    for (const std::string& shape : {"--nodes 1 --gpus-per-node 1", "--nodes 131072 --gpus-per-node 8"})
        for (const std::string& kind : {"all-reduce", "all-gather", "all-to-all", "send-recv"}) {
            const auto r = run_dtcalc("collective " + kind + " --size 1:1PiB:x1024 --preset h100-ib-ndr400 " + shape + " --format json");
            INFO(kind << " " << shape << "\n" << r.out);
            CHECK(r.exit_code == 0);
            CHECK_FALSE(has_nan_or_inf(r.out));
        }
    // Hand value through the CLI: 1 B ring all-reduce on 2 NPUs at 1e-3 GB/s,
    // latency 0 (see "hand-computed times"): 2 steps x floor(931.32) = 1862 ns.
    const Files two = edge_files("hand", "Ring", "2", "0.001", "0", "ring");
    const auto hand = run_dtcalc("collective all-reduce --size 1 --network " + two.network + " --system " + two.system +
                                 " --units ns --format csv");
    REQUIRE(hand.exit_code == 0);
    CHECK(csv_time(hand.out) == 1862);
}

TEST_CASE("numeric edge: run and predict on the command line at the edges") {
    const std::string workload = write_temp_file("numedge-cli-v1.txt",
                                                  "DATA\n2\n"
                                                  "a -1 100 NONE 0 50 NONE 0 80 ALLREDUCE 1125899906842624 10\n"
                                                  "b -1 200 ALLGATHER 1 150 REDUCESCATTER 1 120 ALLTOALL 1 0\n");
    for (const std::string& npus : {"1", "1048576"})
        for (const std::string& bandwidth : {"0.001", "1000000"})
            for (const std::string& format : {"table", "csv", "json"}) {
                const Files f = edge_files("run-" + npus + "-" + bandwidth, "Switch", npus, bandwidth, "0", "ring");
                const auto r = run_dtcalc("run " + workload + " --network " + f.network + " --system " + f.system +
                                          " --units cycles --format " + format);
                INFO(npus << " NPUs at " << bandwidth << " GB/s, " << format << "\n" << r.out);
                CHECK(r.exit_code == 0);
                CHECK_FALSE(has_nan_or_inf(r.out));
            }
    for (const std::string& shape : {"--nodes 1 --gpus-per-node 1", "--nodes 131072 --gpus-per-node 8"})
        for (const std::string& format : {"table", "csv", "json"}) {
            const auto r = run_dtcalc("predict --model gpt2 --preset h100-ib-ndr400 " + shape +
                                      " --mbs 1 --seq 128 --zero 3 --format " + format);
            INFO(shape << " " << format << "\n" << r.out);
            CHECK(r.exit_code == 0);
            CHECK_FALSE(has_nan_or_inf(r.out));
        }
}

TEST_CASE("numeric edge: the command line refuses what is out of range with exit code 2 and one line naming the flag or key") {
    SUBCASE("--size over 1 PiB, alone or as the top of a range") {
        for (const std::string& size : {"1EiB", "1KiB:1EiB:x1024", "2PiB"}) {
            const auto r = run_dtcalc("collective all-reduce --size " + size + " --preset lab-system1");
            CHECK(r.exit_code == 2);
            CHECK(r.out.rfind("dtcalc: error: --size: out of range (got ", 0) == 0);
            CHECK(r.out.find("): sizes from 0 B to 1 PiB (2^50 B) are accepted\n") != std::string::npos);
        }
        CHECK(run_dtcalc("collective all-reduce --size 1EiB --preset lab-system1").out ==
              "dtcalc: error: --size: out of range (got 1 EiB): sizes from 0 B to 1 PiB (2^50 B) are accepted\n");
    }
    SUBCASE("a cluster of more than 2^24 NPUs") {
        const auto r = run_dtcalc("collective all-reduce --size 1MiB --preset h100-ib-ndr400 --nodes 16777216 --gpus-per-node 8");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: --nodes: out of range: the cluster would have more than 16,777,216 NPUs "
                       "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)\n");
    }
    SUBCASE("a network whose dimensions multiply past 2^24 (and would wrap a 64-bit product to 0)") {
        const Files f = edge_files("wrap", "Ring, Ring, Ring, Ring", "65536, 65536, 65536, 65536", "1, 1, 1, 1", "0, 0, 0, 0", "ring");
        const auto r = run_dtcalc("collective all-reduce --size 1MiB --network " + f.network + " --system " + f.system);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + f.network + ":2:22: npus_count[1]: out of range: the dimensions multiply to more "
                       "than 16,777,216 NPUs (accepted are 1 to 16,777,216 = 2^24 NPUs in all)\n");
    }
    SUBCASE("a link of 1e-9 GB/s") {
        const Files f = edge_files("crawl", "Ring", "4", "1e-9", "0", "ring");
        const auto r = run_dtcalc("collective all-reduce --size 1MiB --network " + f.network + " --system " + f.system);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + f.network + ":3:14: bandwidth[0]: out of range (got 1e-09): accepted are 1e-06 "
                       "to 1e+12 GB/s per link (1 kB/s to 1 ZB/s)\n");
    }
    SUBCASE("an all-gather in a workload that gathers more than 1 PiB") {
        const std::string workload = write_temp_file("numedge-cli-gather.txt",
                                                     "DATA\n1\nl -1 1 ALLGATHER 1125899906842624 1 NONE 0 1 NONE 0 0\n");
        const Files f = edge_files("gather", "Switch", "1048576", "100", "0", "ring");
        const auto r = run_dtcalc("run " + workload + " --network " + f.network + " --system " + f.system);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + workload + ":3: fwd_comm_size: out of range: an all-gather of 1125899906842624 B "
                       "per NPU on 1048576 NPUs gathers more than 1 PiB (2^50 B, the largest size accepted)\n");
    }
    SUBCASE("a sweep that scales a link out of range") {
        auto r = run_dtcalc("sweep --model gpt2 --preset lab-system1 --dp 64 --bandwidth-scale 1e11 --quiet");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: bandwidth_scale: out of range (got 1e+13): accepted are 1e-06 to 1e+12 GB/s per "
                       "link (1 kB/s to 1 ZB/s)\n");
        r = run_dtcalc("sweep --model gpt2 --preset lab-system1 --dp 64 --dim1-latency 1,5e9 --quiet");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: dim1_latency: out of range (got 5e+09): accepted are 0 to 1e+09 ns per hop (up to 1 s)\n");
    }
}

TEST_CASE("numeric edge: Chakra sizes over 1 PiB, and all-gathers that would gather more, are refused naming the node") {
    using namespace dtcalc::testing;
    const std::string network = write_switch_network("numedge-switch2", 2);
    const std::string system = write_system("numedge-system", false, false);
    auto astra = [&](const std::string& prefix) {
        return run_dtcalc("astra --workload-configuration " + prefix + " --system-configuration " + system +
                          " --network-configuration " + network);
    };
    constexpr int kAllReduce = 0, kAllGather = 2;  // Chakra's CollectiveCommType
    SUBCASE("the edge itself: an all-reduce of 1 PiB on 2 NPUs runs") {
        const std::string prefix = write_traces("numedge-pib", {{collective(1, kAllReduce, kPiB, "")},
                                                                {collective(1, kAllReduce, kPiB, "")}});
        const auto r = astra(prefix);
        CHECK(r.exit_code == 0);
        CHECK_FALSE(has_nan_or_inf(r.out));
    }
    SUBCASE("comm_size 2^50 + 1") {
        const std::string prefix = write_traces("numedge-over", {{collective(1, kAllReduce, kPiB + 1, "")},
                                                                 {collective(1, kAllReduce, kPiB + 1, "")}});
        const auto r = astra(prefix);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".0.et: node 1: attribute comm_size: out of range (got 1125899906842625 B): "
                       "sizes from 0 B to 1 PiB (2^50 B) are accepted\n");
    }
    SUBCASE("an all-gather of 1 PiB per NPU on 2 NPUs would gather 2 PiB") {
        const std::string prefix = write_traces("numedge-gather", {{collective(1, kAllGather, kPiB, "")},
                                                                   {collective(1, kAllGather, kPiB, "")}});
        const auto r = astra(prefix);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".0.et: node 1: attribute comm_size: out of range: an all-gather of "
                       "1125899906842624 B per NPU on 2 NPUs gathers more than 1 PiB (2^50 B, the largest size accepted)\n");
    }
}
