// Error messages of workloads: the ASTRA-sim 1.0 text parser and the groups it
// builds, the GEMM workload generator (gen-workload), the training step's
// device checks, and the schedulers' checks of a workload graph. Each case pins
// the whole message: location (file:line, key, flag or op) and detail. The
// expected texts are written from the rules in the sources' comments and the
// inputs below, never copied from a run.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "config/system_config_reader.h"
#include "core/error.h"
#include "gemm/gemm_compute.h"
#include "gemm/mnk_table.h"
#include "gemm/parallel_split.h"
#include "run_dtcalc.h"
#include "schedule/evaluate.h"
#include "temp_file.h"
#include "workload/astra_v1_workload.h"
#include "workload/training_step.h"
#include "input_error.h"

using dtcalc::testing::error_of;

using namespace dtcalc;
using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

// One layer line: 12 fields, a weight-gradient all-reduce of 64 bytes.
const std::string kLayer = "l1 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 64 1\n";

std::string layers(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += kLayer;
    return s;
}

std::string parse_error(const std::string& text) {
    return error_of([&] { parse_v1_workload_text(text, "bad.txt"); });
}

Network network_of(std::initializer_list<int> npus) {
    Network n;
    for (int p : npus) n.dimensions.push_back({Topology::Switch, p, 100.0, 10.0});
    return n;
}

std::string graph_error(const std::string& text, const Network& network) {
    return error_of([&] { build_v1_training_graph(parse_v1_workload_text(text, "bad.txt"), network, 1); });
}

struct TextCase {
    std::string input;
    std::string expected;
};

}  // namespace

// ---------------------------------------------------------------------------
// ASTRA-sim 1.0 text workloads: the header line and the groups it asks for.
// ---------------------------------------------------------------------------

TEST_CASE("error message: v1 workload header") {
    const std::vector<TextCase> cases = {
        // More than a keyword and a number.
        {"DATA 4 5\n1\n" + kLayer, "bad.txt:1: parallelism: expected the parallelism (e.g. DATA, HYBRID_DLRM 4), got 'DATA 4 5'"},
        // The number after the keyword: not a number, zero (also when glued on
        // with '_'), too large for an int.
        {"HYBRID_DLRM x\n1\n" + kLayer, "bad.txt:1: parallelism: expected a positive integer after HYBRID_DLRM, got 'x'"},
        {"MODEL_0\n1\n" + kLayer, "bad.txt:1: parallelism: expected a positive integer after MODEL, got '0'"},
        {"HYBRID_DATA_MODEL 99999999999\n1\n" + kLayer,
         "bad.txt:1: parallelism: expected a positive integer after HYBRID_DATA_MODEL, got '99999999999'"},
        // DLRM's last bottom layer must be a layer index: 2 layers are 0 and 1.
        {"HYBRID_DLRM 2\n2\n" + layers(2), "bad.txt:1: parallelism: HYBRID_DLRM's last bottom layer 2 is not a layer index below 2"},
        // The header is the first non-blank line: its errors name that line.
        {"\n\nHYBRID_DLRM 5\n2\n" + layers(2), "bad.txt:3: parallelism: HYBRID_DLRM's last bottom layer 5 is not a layer index below 2"},
        {"\n\nHYBRID_MODEL_DATA\n1\n" + kLayer,
         "bad.txt:3: parallelism: a hybrid parallelism needs its model-parallel group size (e.g. HYBRID_DATA_MODEL 4)"},
    };
    for (const TextCase& c : cases) {
        CAPTURE(c.input);
        CHECK(parse_error(c.input) == c.expected);
    }
}

TEST_CASE("error message: v1 workload groups that do not fit the network") {
    // 8 NPUs: a model-parallel group of 3 leaves 8 / 3 groups, not a whole number.
    CHECK(graph_error("HYBRID_DATA_MODEL 3\n1\n" + kLayer, network_of({8})) ==
          "bad.txt:1: parallelism: model-parallel group size 3 does not divide the network's 8 NPUs");
    // HYBRID_MODEL_DATA: its inner group is P / M = 8 / 3, so the same check.
    CHECK(graph_error("\nHYBRID_MODEL_DATA 3\n1\n" + kLayer, network_of({8})) ==
          "bad.txt:2: parallelism: model-parallel group size 3 does not divide the network's 8 NPUs");
    // 4 x 6 = 24 NPUs: 6 divides 24, but the first 6 NPUs are one row of 4 and
    // half of the next, which is no block of the dimensions.
    CHECK(graph_error("HYBRID_DATA_MODEL 6\n1\n" + kLayer, network_of({4, 6})) ==
          "bad.txt:1: parallelism: 6 NPUs do not form a block of the network's dimensions (a group must fill whole "
          "inner dimensions; try a multiple of 4)");
}

TEST_CASE("error message: dtcalc run with a v1 workload whose groups do not fit") {
    const std::string workload = write_temp_file("errmsg-workload-hybrid3.txt", "HYBRID_DATA_MODEL 3\n1\n" + kLayer);
    const std::string net = write_temp_file("errmsg-workload-net8.yml",
                                            "topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 100 ]\nlatency: [ 10 ]\n");
    const std::string sys = write_temp_file(
        "errmsg-workload-ring.json",
        R"({"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
            "preferred-dataset-splits": 1, "all-reduce-implementation": ["ring"], "all-gather-implementation": ["ring"],
            "reduce-scatter-implementation": ["ring"], "all-to-all-implementation": ["ring"],
            "collective-optimization": "baseline", "local-mem-bw": 1000})");
    const Run r = run_dtcalc("run " + workload + " --network " + net + " --system " + sys);
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: " + workload + ":1: parallelism: model-parallel group size 3 does not divide the "
                   "network's 8 NPUs\n");
}

// ---------------------------------------------------------------------------
// predict: the device the training step is timed on.
// ---------------------------------------------------------------------------

TEST_CASE("error message: predict on a device it cannot time") {
    SUBCASE("fp8 on a device without an fp8 peak") {
        // lab-system1 has a peak-perf in [system] and no [compute] table: no fp8 peak.
        const Run r = run_dtcalc("predict --model gpt2 --preset lab-system1 --precision fp8");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: --precision: fp8 needs a device with an fp8 peak; this system has none\n");
    }
    SUBCASE("system files without peak-perf") {
        const std::string net = write_temp_file("errmsg-workload-predict.yml",
                                                "topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 100 ]\nlatency: [ 10 ]\n");
        const std::string sys = write_temp_file(
            "errmsg-workload-predict.json",
            R"({"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
                "preferred-dataset-splits": 1, "all-reduce-implementation": ["ring"],
                "all-gather-implementation": ["ring"], "reduce-scatter-implementation": ["ring"],
                "all-to-all-implementation": ["ring"], "collective-optimization": "baseline", "local-mem-bw": 1000})");
        const Run r = run_dtcalc("predict --model gpt2 --network " + net + " --system " + sys);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: --system: peak-perf: the system gives no compute peak to time the model with: "
                       "add peak-perf (TFLOP/s)\n");
    }
    SUBCASE("a preset without peak-perf and without a [compute] table") {
        const std::string preset = write_temp_file("errmsg-workload-nopeak.toml", R"(name = "nopeak"
description = "one switch of 8, no compute peak"
sources = ["a test input"]
backend = "astra-unaware"

[network]
topology = ["Switch"]
npus_count = [8]
bandwidth = [100]
latency = [10]

[system]
scheduling-policy = "LIFO"
endpoint-delay = 10
active-chunks-per-dimension = 1
preferred-dataset-splits = 1
all-reduce-implementation = ["ring"]
all-gather-implementation = ["ring"]
reduce-scatter-implementation = ["ring"]
all-to-all-implementation = ["ring"]
collective-optimization = "baseline"
local-mem-bw = 1000
)");
        const Run r = run_dtcalc("predict --model gpt2 --preset " + preset);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: --preset: peak-perf: the system gives no compute peak to time the model with: "
                       "add peak-perf (TFLOP/s) to its [system] table, or a [compute] table\n");
    }
}

TEST_CASE("error message: a training step on a device without a memory bandwidth") {
    // Devices from a preset or from system files always have one; one built in
    // code may not. The flag named is the system's source: a named device is a preset's.
    const ModelSpec model;
    const ParallelPlan plan;
    System system;
    TrainingDevice& device = system.device;
    device.peak_tflops_bf16 = 100;
    TrainingStepInputs in;
    in.model = &model;
    in.plan = &plan;
    in.system = &system;
    CHECK(error_of([&] { build_training_step(in); }) == "--system: the system gives no memory bandwidth to time the model with");
    device.name = "lab";
    CHECK(error_of([&] { build_training_step(in); }) == "--preset: the system gives no memory bandwidth to time the model with");
}

// ---------------------------------------------------------------------------
// gen-workload: GEMM tables, parallel splits and the compute model.
// ---------------------------------------------------------------------------

TEST_CASE("error message: GEMM splits and compute models") {
    CHECK(error_of([] { parallel_degrees(GemmStrategy::Data, 8, 0); }) == "--packages: must be >= 1 (got 0)");
    CHECK(error_of([] { parallel_degrees(GemmStrategy::HybridDataModel, 8, -2); }) == "--packages: must be >= 1 (got -2)");
    // m = n = k = 2^31 - 1 at 2 bytes: the forward output m x n is 2 (2^31 - 1)^2 ~ 9.2e18 bytes.
    GemmLayer big;
    big.name = "big";
    big.line = 4;
    big.m = big.n = big.k = 2147483647;
    CHECK(error_of([&] { split_layer(big, "l.csv", {1, 1}, 2); }) == "l.csv:4: layer: 'big': a buffer of more than 9e18 bytes");
    // The roofline needs both a peak and a memory bandwidth; the datatype 1 to 16 bytes.
    CHECK(error_of([] { validate_compute_model({roofline_device(450, 0), 2}, "preset p"); }) ==
          "preset p: local-mem-bw: the system gives no memory bandwidth: add local-mem-bw (GB/s), or use --array for a "
          "systolic array");
    CHECK(error_of([] { validate_compute_model({roofline_device(450, 3000), 0}, "preset p"); }) ==
          "--datatype-size: expected 1 to 16 bytes, got 0");
    CHECK(error_of([] { validate_compute_model({roofline_device(450, 3000), 17}, "preset p"); }) ==
          "--datatype-size: expected 1 to 16 bytes, got 17");
}

TEST_CASE("error message: dtcalc gen-workload flags and GEMM sizes") {
    const std::string mnk = write_temp_file("errmsg-workload-mnk.csv", "Layer,m,n,k\nfc1,1024,128,512\n");
    const std::string big = write_temp_file("errmsg-workload-big.csv", "Layer,m,n,k\nbig,2147483647,2147483647,2147483647\n");
    const std::string array = " --array 32x32";
    const std::vector<TextCase> cases = {
        {"gen-workload --mnk " + mnk + " --npus 8 --packages 0" + array, "--packages: must be >= 1 (got 0)"},
        {"gen-workload --mnk " + mnk + " --npus 8 --datatype-size 0" + array, "--datatype-size: expected 1 to 16 bytes, got 0"},
        {"gen-workload --mnk " + mnk + " --npus 8 --datatype-size 32" + array, "--datatype-size: expected 1 to 16 bytes, got 32"},
        {"gen-workload --mnk " + big + " --npus 1" + array, big + ":2: layer: 'big': a buffer of more than 9e18 bytes"},
    };
    for (const TextCase& c : cases) {
        CAPTURE(c.input);
        const Run r = run_dtcalc(c.input);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + c.expected + "\n");
    }
}

// ---------------------------------------------------------------------------
// Workload graphs: what the schedulers refuse, named by the op.
// ---------------------------------------------------------------------------

namespace {

// One Switch of 4 NPUs, ring everywhere; a roofline device and a memory stream.
struct GraphFixture {
    System machine{network_of({4})};
    Network& network = machine.network;
    SystemConfig& system = machine.config;
    EvaluationSystem eval;
    WorkloadGraph g;
    int all = 0;

    GraphFixture() {
        for (auto& list : system.implementation) list.assign(1, {AlgorithmKind::Ring, false});
        system.preferred_dataset_splits = 1;
        system.active_chunks_per_dimension = 1;
        system.local_mem_bw_gbps = 1000;
        eval.system = &machine;
        eval.device = roofline_device(100, 1000);
        eval.memory_stream_gbps = 1000;
        all = g.add_group(whole_network_group(network));
        g.roles = 2;
        g.role_npus = {2, 2};
    }

    int add(OpKind kind, double ns, int role, std::initializer_list<int> deps = {}, const char* name = nullptr) {
        Op op;
        op.kind = kind;
        op.duration_ns = ns;
        op.role = role;
        op.group = all;
        if (name) op.name = g.intern_name(name);
        return g.add(op, deps);
    }
    int message(OpKind kind, int role, int peer, int tag, std::initializer_list<int> deps = {}, const char* name = nullptr) {
        Op op;
        op.kind = kind;
        op.duration_ns = 5;
        op.role = role;
        op.peer_role = peer;
        op.tag = tag;
        op.group = all;
        op.comm_bytes = 8;
        if (name) op.name = g.intern_name(name);
        return g.add(op, deps);
    }
    std::string error(IssuePolicy issue) {
        eval.issue = issue;
        return error_of([&] { evaluate(g, eval); });
    }
};

}  // namespace

TEST_CASE("error message: sends and receives that do not pair up, under both issue policies") {
    for (IssuePolicy issue : {IssuePolicy::GraphOrder, IssuePolicy::ReadyLowestIndex}) {
        CAPTURE(static_cast<int>(issue));
        SUBCASE("a send whose key sorts before every receive") {
            // Pairs are keyed (from, to, tag): the send (0, 1, 1) meets no receive,
            // the receive (0, 1, 2) comes after it in that order.
            GraphFixture f;
            f.message(OpKind::Send, 0, 1, 1);
            f.message(OpKind::Recv, 1, 0, 2);
            CHECK(f.error(issue) == "workload: op 0: send to role 1 with tag 1 has no matching receive");
        }
        SUBCASE("a receive with no send") {
            GraphFixture f;
            f.message(OpKind::Recv, 1, 0, 7, {}, "R");
            CHECK(f.error(issue) == "workload: R: receive from role 0 with tag 7 has no matching send");
        }
        SUBCASE("a send after the last receive") {
            GraphFixture f;
            f.message(OpKind::Send, 0, 1, 1);
            f.message(OpKind::Recv, 1, 0, 1);
            f.message(OpKind::Send, 1, 0, 3, {}, "late");
            CHECK(f.error(issue) == "workload: late: send to role 0 with tag 3 has no matching receive");
        }
    }
}

TEST_CASE("error message: ops the pricing cannot time") {
    SUBCASE("a peer role that does not exist") {
        GraphFixture f;
        f.message(OpKind::Send, 0, 5, 1);
        CHECK(f.error(IssuePolicy::GraphOrder) == "workload: op 0: peer role 5 does not exist");
    }
    SUBCASE("a negative or non-finite cost") {
        GraphFixture f;
        Op op;
        op.flops = -1;
        f.g.add(op);
        CHECK(f.error(IssuePolicy::GraphOrder) == "workload: op 0: has a negative or non-finite cost");
        GraphFixture h;
        Op nan;
        nan.duration_ns = std::numeric_limits<double>::quiet_NaN();
        h.g.add(nan);
        CHECK(h.error(IssuePolicy::ReadyLowestIndex) == "workload: op 0: has a negative or non-finite cost");
    }
    SUBCASE("a roofline op on a device without a peak") {
        GraphFixture f;
        f.eval.device.peak_tflops_bf16 = 0;
        Op op;
        op.flops = 1e9;
        op.name = f.g.intern_name("gemm");
        f.g.add(op);
        CHECK(f.error(IssuePolicy::GraphOrder) ==
              "workload: gemm: needs the device's peak-perf and local-mem-bw to be timed by the roofline");
    }
    SUBCASE("a memory op without a memory bandwidth") {
        GraphFixture f;
        f.eval.memory_stream_gbps = 0;
        Op op;
        op.kind = OpKind::Memory;
        op.bytes = 4096;
        f.g.add(op);
        CHECK(f.error(IssuePolicy::GraphOrder) == "workload: op 0: needs a memory bandwidth to be timed");
    }
    SUBCASE("a collective the system cannot run: built in code, then read from a file") {
        // halvingDoubling on the 4 x 3 network's 3-NPU dimension 1.
        GraphFixture f;
        f.network = network_of({4, 3});
        for (auto& list : f.system.implementation)
            list = {{AlgorithmKind::Ring, false}, {AlgorithmKind::HalvingDoubling, false}};
        f.g.groups[0] = whole_network_group(f.network);
        Op op;
        op.kind = OpKind::Collective;
        op.collective = CollectiveKind::AllReduce;
        op.comm_bytes = 1 << 20;
        op.group = f.all;
        op.name = f.g.intern_name("grad");
        f.g.add(op);
        CHECK(f.error(IssuePolicy::GraphOrder) ==
              "workload: grad: halvingDoubling needs a power-of-two number of NPUs on dimension 1 (got 3)");
        // The same system from a JSON file: the op names the file's entry too.
        const std::string json = write_temp_file("errmsg-workload-hd.json", R"({
  "scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1, "preferred-dataset-splits": 1,
  "all-reduce-implementation": ["ring", "halvingDoubling"],
  "all-gather-implementation": ["ring", "ring"], "reduce-scatter-implementation": ["ring", "ring"],
  "all-to-all-implementation": ["ring", "ring"], "collective-optimization": "baseline", "local-mem-bw": 1000
})");
        f.system = load_astra_system_json(json, 2);
        CHECK(f.error(IssuePolicy::ReadyLowestIndex) ==
              "workload: grad: " + json + ":3: all-reduce-implementation[1]: halvingDoubling needs a power-of-two number "
                                          "of NPUs on dimension 1 (got 3)");
    }
}

TEST_CASE("error message: deadlocks under ASTRA-sim's issue policy") {
    SUBCASE("two roles each wait to receive before they send") {
        // Role 0: R0 from role 1 (tag 1), then S0 to role 1 (tag 2). Role 1:
        // R1 from role 0 (tag 2), then S1 to role 0 (tag 1). Each send waits for
        // its role's receive, each receive for the other role's send. The
        // lowest-index op that never ends is R0, a receive.
        GraphFixture f;
        const int r0 = f.message(OpKind::Recv, 0, 1, 1, {}, "R0");
        f.message(OpKind::Send, 0, 1, 2, {r0}, "S0");
        const int r1 = f.message(OpKind::Recv, 1, 0, 2, {}, "R1");
        f.message(OpKind::Send, 1, 0, 1, {r1}, "S1");
        CHECK(f.error(IssuePolicy::ReadyLowestIndex) == "workload: R0: never ends: the matching send, S1, never starts (deadlock)");
    }
    SUBCASE("an op whose stream stays held by a collective that never ends") {
        // Role 0's communication stream takes X (ready at 0), a collective
        // synced with role 1's Y. Y waits for the receive R, whose send S queues
        // behind X on role 0's stream. C (a plain collective of role 0, ready at
        // 5 after compute A) never gets the stream: it is the lowest-index op
        // that never ends and waits for nothing but its stream.
        GraphFixture f;
        const int a = f.add(OpKind::Compute, 5, 0, {}, "A");
        f.add(OpKind::Collective, 10, 0, {a}, "C");
        Op x;
        x.kind = OpKind::Collective;
        x.duration_ns = 10;
        x.group = f.all;
        x.sync = 0;
        x.name = f.g.intern_name("X");
        f.g.add(x);
        const int r = f.message(OpKind::Recv, 1, 0, 1, {}, "R");
        Op y = x;
        y.role = 1;
        y.name = f.g.intern_name("Y");
        f.g.add(y, {r});
        f.message(OpKind::Send, 0, 1, 1, {}, "S");
        CHECK(f.error(IssuePolicy::ReadyLowestIndex) ==
              "workload: C: never starts: its stream stays busy with an op that never ends (deadlock)");
    }
}
