// ASTRA-sim 1.0 text workloads: the training loop of astra_v1_workload.h on the
// astrasim-hgx-h100-validated system with the congestion-unaware backend,
// checked against validation/workloads/v1_reference.py (an independent
// re-implementation, standard-library Python, that never calls dtcalc) and
// against hand-worked examples; and the parser's error messages.
#include <doctest/doctest.h>

#include <string>

#include "collective/collective_cost.h"
#include "core/error.h"
#include "schedule/evaluate.h"
#include "temp_file.h"
#include "workload/astra_v1_workload.h"

using namespace dtcalc;

namespace {

// presets/astrasim-hgx-h100-validated.toml, by hand: one Switch of 8 NPUs,
// 400 GB/s, 936.25 ns; ring everywhere, 4 splits, 2 active chunks, endpoint
// delay 10 ns, local-mem-bw 3350 GB/s.
struct HgxH100 {
    System machine;
    Network& network = machine.network;
    SystemConfig& system = machine.config;
    EvaluationSystem eval;

    HgxH100() {
        network.dimensions.push_back({Topology::Switch, 8, 400.0, 936.25});
        for (auto& list : system.implementation) list.push_back(*parse_algorithm("ring"));
        system.preferred_dataset_splits = 4;
        system.active_chunks_per_dimension = 2;
        system.endpoint_delay_ns = 10;
        system.local_mem_bw_gbps = 3350;
        system.collective_optimization = CollectiveOptimization::LocalBWAware;
        system.scheduling_policy = SchedulingPolicy::LIFO;
        eval.system = &machine;
        machine.backend = NetworkBackend::AstraUnaware;
    }

    RoleSummary run(const V1Workload& w, int passes) const {
        const WorkloadGraph graph = build_v1_training_graph(w, network, passes);
        const Schedule s = evaluate(graph, eval);
        REQUIRE(s.roles.size() == 1);
        CHECK(s.roles[0].wall_ns == s.wall_ns);
        return s.roles[0];
    }
};

const std::string kWorkloads = std::string(DTCALC_VALIDATION_DIR) + "/workloads/";

// parse_v1_workload_text's what(), or "" when it does not throw.
std::string parse_error(const std::string& text) {
    try {
        parse_v1_workload_text(text, "bad.txt");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string file_error(const std::string& path) {
    try {
        parse_v1_workload(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

const std::string kLayer = "l1 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 64 1\n";
const std::string kTwelveFields =
    "expected 12 fields (name reserved fwd_compute fwd_comm_type fwd_comm_size ig_compute ig_comm_type "
    "ig_comm_size wg_compute wg_comm_type wg_comm_size update_time), got ";

}  // namespace

// ---------------------------------------------------------------------------
// (a) The two validation workloads against the independent reference script.
// ---------------------------------------------------------------------------

TEST_CASE("DLRM_HybridParallel.txt matches validation/workloads/v1_reference.py") {
    const HgxH100 sys;
    const V1Workload w = parse_v1_workload(kWorkloads + "DLRM_HybridParallel.txt");
    REQUIRE(w.parallelism == V1Parallelism::HybridDlrm);
    REQUIRE(w.parameter == 4);
    REQUIRE(w.layers.size() == 8);
    SUBCASE("1 pass") {
        // python3 validation/workloads/v1_reference.py  ->  DLRM, passes 1:
        //   wall 607500, compute busy 54568, exposed 552932
        const RoleSummary r = sys.run(w, 1);
        CHECK(r.wall_ns == 607500);
        CHECK(r.compute_busy_ns == 54568);
        CHECK(r.exposed_comm_ns == 552932);
    }
    SUBCASE("2 passes") {
        // python3 validation/workloads/v1_reference.py  ->  DLRM, passes 2:
        //   wall 1212558, compute busy 109136, exposed 1103422
        const RoleSummary r = sys.run(w, 2);
        CHECK(r.wall_ns == 1212558);
        CHECK(r.compute_busy_ns == 109136);
        CHECK(r.exposed_comm_ns == 1103422);
    }
}

TEST_CASE("resnet50_dp.txt matches validation/workloads/v1_reference.py") {
    const HgxH100 sys;
    const V1Workload w = parse_v1_workload(kWorkloads + "resnet50_dp.txt");
    REQUIRE(w.parallelism == V1Parallelism::Data);
    REQUIRE(w.layers.size() == 54);
    SUBCASE("1 pass") {
        // python3 validation/workloads/v1_reference.py  ->  resnet50_dp, passes 1:
        //   wall 3491271, compute busy 1448110, exposed 2043161
        const RoleSummary r = sys.run(w, 1);
        CHECK(r.wall_ns == 3491271);
        CHECK(r.compute_busy_ns == 1448110);
        CHECK(r.exposed_comm_ns == 2043161);
    }
    SUBCASE("2 passes") {
        // python3 validation/workloads/v1_reference.py  ->  resnet50_dp, passes 2:
        //   wall 6982542, compute busy 2896220, exposed 4086322
        const RoleSummary r = sys.run(w, 2);
        CHECK(r.wall_ns == 6982542);
        CHECK(r.compute_busy_ns == 2896220);
        CHECK(r.exposed_comm_ns == 4086322);
    }
}

// ---------------------------------------------------------------------------
// (c) Small workloads worked out by hand. Collective times on this system are
// ASTRA-sim 2.0's own outputs (validation/astrasim/reference_runs.csv,
// congestion_unaware Switch rows): all-reduce 1,048,576 B = 55,222 ns;
// all-reduce 1,024 B = 52,716 ns; all-gather 1,048,576 B per NPU = 34,908 ns.
// ---------------------------------------------------------------------------

TEST_CASE("hand-worked DATA workload: the weight-gradient all-reduces are exposed") {
    const HgxH100 sys;
    const V1Workload w = parse_v1_workload_text(
        "DATA\n"
        "3\n"
        "L0 -1 1000 NONE 0 1000 NONE 0 2000 ALLREDUCE 1048576 100\n"
        "L1 -1 3000 NONE 0 4000 NONE 0 5000 ALLREDUCE 1024 50\n"
        "L2 -1 2000 NONE 0 60000 NONE 0 3000 ALLREDUCE 1048576 200\n",
        "hand_data.txt");
    SUBCASE("1 pass") {
        // forward      L0 0-1000, L1 1000-4000, L2 4000-6000
        // L2 ig 6000-66000, wg 66000-69000, all-reduce 1 MiB 69000-124222
        // L1 ig 69000-73000, wg 73000-78000, all-reduce 1 KiB waits for the
        //    network: 124222-176938
        // L0 (no input gradient) wg 78000-80000, all-reduce 176938-232160
        // drain, layer order: update L0 232160-232260, L1 -232310, L2 -232510
        // wall 232510; compute = 6000 + 63000 + 9000 + 2000 + 350 = 80350;
        // exposed = 232510 - 80350 = 152160
        // (python3 validation/workloads/v1_reference.py hand_data.txt --passes 1 agrees)
        const RoleSummary r = sys.run(w, 1);
        CHECK(r.wall_ns == 232510);
        CHECK(r.compute_busy_ns == 80350);
        CHECK(r.exposed_comm_ns == 152160);
    }
    SUBCASE("2 passes: each layer's forward waits for its all-reduce and update") {
        // pass 1 as above up to the drain (network busy until 232160).
        // pass 2 forward: L0 waits for its all-reduce (232160), update 232160-232260,
        //   fwd -233260; L1 update -233310, fwd -236310; L2 update -236510, fwd -238510
        // L2 ig -298510, wg -301510, all-reduce 301510-356732
        // L1 ig -305510, wg -310510, all-reduce 356732-409448
        // L0 wg -312510, all-reduce 409448-464670
        // drain: updates L0 -464770, L1 -464820, L2 -465020
        // wall 465020; compute 2 x 80350 = 160700; exposed 304320
        const RoleSummary r = sys.run(w, 2);
        CHECK(r.wall_ns == 465020);
        CHECK(r.compute_busy_ns == 160700);
        CHECK(r.exposed_comm_ns == 304320);
    }
}

TEST_CASE("hand-worked MODEL workload: a blocking forward all-gather and input-gradient all-reduce") {
    const HgxH100 sys;
    const V1Workload w = parse_v1_workload_text(
        "MODEL\n"
        "2\n"
        "A -1 1000 ALLGATHER 1048576 2000 NONE 0 3000 NONE 0 0\n"
        "B -1 4000 NONE 0 5000 ALLREDUCE 1048576 6000 NONE 0 0\n",
        "hand_model.txt");
    // forward: A 0-1000; its all-gather (1 MiB per NPU) blocks B: 1000-35908;
    //   B 35908-39908
    // backward: B ig 39908-44908; its all-reduce 44908-100130 blocks the next
    //   layer's backward; B's weight gradient needs only B's output gradient,
    //   so it runs under the all-reduce: 44908-50908
    // A (layer 0: no input gradient) wg waits for the all-reduce: 100130-103130
    // no weight-gradient collectives, so no updates.
    // wall 103130; compute 1000+4000+5000+6000+3000 = 19000;
    // exposed 84130 = 34908 (all-gather) + 49222 (all-reduce minus B's 6000 ns wg)
    // (python3 validation/workloads/v1_reference.py hand_model.txt --passes 1 agrees)
    const RoleSummary r = sys.run(w, 1);
    CHECK(r.wall_ns == 103130);
    CHECK(r.compute_busy_ns == 19000);
    CHECK(r.exposed_comm_ns == 84130);
    // Two passes are two identical iterations back to back (nothing outstanding).
    const RoleSummary r2 = sys.run(w, 2);
    CHECK(r2.wall_ns == 2 * 103130);
    CHECK(r2.compute_busy_ns == 2 * 19000);
    CHECK(r2.exposed_comm_ns == 2 * 84130);
}

// ---------------------------------------------------------------------------
// (b) Malformed files: InputError with file:line and the exact message.
// ---------------------------------------------------------------------------

TEST_CASE("v1 parser: well-formed variants are accepted") {
    CHECK(parse_error("DATA\n1\n" + kLayer) == "");
    CHECK(parse_error("DATA\r\n1\r\nl1\t-1\t5\tNONE\t0\t5\tNONE\t0\t5\tALLREDUCE\t64\t1\r\n\r\n") == "");
    const V1Workload w = parse_v1_workload_text("HYBRID_DLRM_4\n8\n" + std::string(8, ' ') + "\n" +
                                                    [] {
                                                        std::string s;
                                                        for (int i = 0; i < 8; ++i) s += kLayer;
                                                        return s;
                                                    }(),
                                                "ok.txt");
    CHECK(w.parallelism == V1Parallelism::HybridDlrm);
    CHECK(w.parameter == 4);
    CHECK(w.layers.size() == 8);
    CHECK(w.layers[0].line == 4);
}

TEST_CASE("v1 parser: wrong field count") {
    CHECK(parse_error("DATA\n1\nl1 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 64\n") == "bad.txt:3: " + kTwelveFields + "11");
    CHECK(parse_error("DATA\n1\n" + kLayer.substr(0, kLayer.size() - 1) + " extra\n") ==
          "bad.txt:3: " + kTwelveFields + "13");
    CHECK(parse_error("DATA\n2\n" + kLayer + "l2\n") == "bad.txt:4: " + kTwelveFields + "1");
}

TEST_CASE("v1 parser: unknown comm type") {
    CHECK(parse_error("DATA\n1\nl1 -1 5 NONE 0 5 NONE 0 5 ALLREDUCES 64 1\n") ==
          "bad.txt:3: wg_comm_type: unknown comm type 'ALLREDUCES' (expected ALLREDUCE, ALLGATHER, REDUCESCATTER, "
          "ALLTOALL or NONE)");
    CHECK(parse_error("DATA\n1\nl1 -1 5 allreduce 64 5 NONE 0 5 NONE 0 1\n") ==
          "bad.txt:3: fwd_comm_type: unknown comm type 'allreduce' (expected ALLREDUCE, ALLGATHER, REDUCESCATTER, "
          "ALLTOALL or NONE)");
}

TEST_CASE("v1 parser: negative numbers") {
    CHECK(parse_error("DATA\n1\nl1 -1 -5 NONE 0 5 NONE 0 5 ALLREDUCE 64 1\n") ==
          "bad.txt:3: fwd_compute: must be >= 0 (got -5)");
    CHECK(parse_error("DATA\n1\nl1 -1 5 NONE 0 -5 NONE 0 5 ALLREDUCE 64 1\n") ==
          "bad.txt:3: ig_compute: must be >= 0 (got -5)");
    CHECK(parse_error("DATA\n1\nl1 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE -64 1\n") ==
          "bad.txt:3: wg_comm_size: must be >= 0 (got -64)");
    CHECK(parse_error("DATA\n1\nl1 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 64 -1\n") ==
          "bad.txt:3: update_time: must be >= 0 (got -1)");
    CHECK(parse_error("DATA\n-1\n" + kLayer) ==
          "bad.txt:2: layers: expected the layer count (a positive integer), got '-1'");
}

TEST_CASE("v1 parser: non-numeric numbers") {
    CHECK(parse_error("DATA\n1\nl1 -1 5us NONE 0 5 NONE 0 5 ALLREDUCE 64 1\n") ==
          "bad.txt:3: fwd_compute: expected a number, got '5us'");
    CHECK(parse_error("DATA\n1\nl1 -1 nan NONE 0 5 NONE 0 5 ALLREDUCE 64 1\n") ==
          "bad.txt:3: fwd_compute: expected a number, got 'nan'");
    CHECK(parse_error("DATA\n1\nl1 -1 5 NONE 0 5 NONE 0 x ALLREDUCE 64 1\n") ==
          "bad.txt:3: wg_compute: expected a number, got 'x'");
    CHECK(parse_error("DATA\n1\nl1 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 1MiB 1\n") ==
          "bad.txt:3: wg_comm_size: expected a number, got '1MiB'");
    CHECK(parse_error("DATA\n1\nl1 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 64.5 1\n") ==
          "bad.txt:3: wg_comm_size: expected a whole number of bytes, got '64.5'");
    CHECK(parse_error("DATA\none\n" + kLayer) ==
          "bad.txt:2: layers: expected the layer count (a positive integer), got 'one'");
}

TEST_CASE("v1 parser: layer count does not match the lines") {
    // More lines than declared: reported at the first extra line.
    CHECK(parse_error("DATA\n1\n" + kLayer + kLayer) ==
          "bad.txt:4: layers: more layer lines than the 1 declared on line 2");
    // Fewer: reported at the end of the file.
    CHECK(parse_error("DATA\n3\n" + kLayer + kLayer) == "bad.txt:4: layers: line 2 declares 3 layers but the file has 2");
    CHECK(parse_error("DATA\n0\n") == "bad.txt:2: layers: expected the layer count (a positive integer), got '0'");
}

TEST_CASE("v1 parser: unknown parallelism") {
    CHECK(parse_error("DATAPARALLEL\n1\n" + kLayer) ==
          "bad.txt:1: parallelism: unknown parallelism 'DATAPARALLEL' (expected DATA, MODEL, HYBRID_DATA_MODEL, "
          "HYBRID_MODEL_DATA, HYBRID_TRANSFORMER or HYBRID_DLRM)");
    CHECK(parse_error("HYBRID_DATA_MODEL\n1\n" + kLayer) ==
          "bad.txt:1: parallelism: a hybrid parallelism needs its model-parallel group size (e.g. HYBRID_DATA_MODEL 4)");
}

TEST_CASE("v1 parser: empty, truncated and binary files") {
    using dtcalc::testing::write_temp_file;
    SUBCASE("empty file") {
        const std::string path = write_temp_file("v1_empty.txt", "");
        CHECK(file_error(path) == path + ": file is empty");
        const std::string blank = write_temp_file("v1_blank.txt", "\n  \n\t\n");
        CHECK(file_error(blank) == blank + ": file is empty");
        // Without the file reader (text given directly), nothing at all: line 0.
        CHECK(parse_error("") == "bad.txt: layers: truncated: expected the parallelism, the layer count and the layers");
    }
    SUBCASE("truncated: header only") {
        CHECK(parse_error("DATA\n") ==
              "bad.txt:1: layers: truncated: expected the parallelism, the layer count and the layers");
        const std::string path = write_temp_file("v1_header_only.txt", "HYBRID_DLRM 4\n");
        CHECK(file_error(path) ==
              path + ":1: layers: truncated: expected the parallelism, the layer count and the layers");
    }
    SUBCASE("truncated in the middle of a layer line") {
        CHECK(parse_error("DATA\n2\n" + kLayer + "l2 -1 5 NONE") == "bad.txt:4: " + kTwelveFields + "4");
    }
    SUBCASE("binary garbage") {
        // An ELF header: the reader refuses the NUL byte, on the line it is on.
        const std::string elf = write_temp_file("v1_elf.txt", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10));
        CHECK(file_error(elf) == elf + ":1: binary data (NUL byte) in a text file");
        const std::string late = write_temp_file("v1_late_nul.txt", "DATA\n1\n" + std::string("l1\0", 3) + "\n");
        CHECK(file_error(late) == late + ":3: binary data (NUL byte) in a text file");
        // Garbage without a NUL byte reaches the parser: its first line is not a parallelism.
        CHECK(parse_error("\x89PNG\r\n\x1a\n\xff\xfe\n") ==
              "bad.txt:1: parallelism: unknown parallelism '\x89PNG' (expected DATA, MODEL, HYBRID_DATA_MODEL, "
              "HYBRID_MODEL_DATA, HYBRID_TRANSFORMER or HYBRID_DLRM)");
    }
}

// The header is the first non-blank line, the layer count the next one.
TEST_CASE("v1 parser: blank lines before the header are skipped") {
    CHECK(parse_error("\n1\n" + kLayer).find("unknown parallelism '1'") != std::string::npos);
    CHECK(parse_error("\nMODEL\n1\n" + kLayer) == "");
}
