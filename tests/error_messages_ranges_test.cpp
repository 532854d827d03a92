// Error messages of values past dtcalc's range bounds (core/units.h) that only
// show up once a workload is priced, run or written: a model's gradient
// all-reduce past 1 PiB, a Chakra run past 2^63 cycles, an exported op past a
// trace field's range, a trace attribute's size past 1 PiB, and the tensors
// live at once on one NPU past 2^63 bytes. Each case feeds the input through
// the route a user takes (the CLI where one exists) and pins the whole
// message. The expected texts are written from the sources' format strings
// and the inputs below, never copied from a run.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "chakra/graph_export.h"
#include "chakra/trace_decoder.h"
#include "chakra/trace_set.h"
#include "chakra/trace_writer.h"
#include "chakra_test_traces.h"
#include "core/error.h"
#include "input_error.h"
#include "run_dtcalc.h"
#include "temp_file.h"
#include "workload/workload_graph.h"

using namespace dtcalc;
using namespace dtcalc::chakra;
using dtcalc::testing::error_of;
using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

constexpr std::uint64_t kPiB = std::uint64_t{1} << 50;  // 1,125,899,906,842,624 B

// A model described layer by layer with one layer; `layer` is its TOML keys.
std::string one_layer_model(const std::string& name, const std::string& layer) {
    return "name = \"" + name + "\"\n"
           "description = \"one layer\"\n"
           "sources = [\"hand-made for an error test\"]\n"
           "kind = \"layers\"\n"
           "batch_per_gpu = 1\n"
           "\n"
           "[[layer]]\n"
           "name = \"dense\"\n" +
           layer;
}

std::string astra_flags(const std::string& prefix, const std::string& network, const std::string& system) {
    return "--workload-configuration " + prefix + " --system-configuration " + system + " --network-configuration " + network;
}

}  // namespace

// src/workload/training_step.cpp, CommPricer.
TEST_CASE("error message: a model whose gradient all-reduce passes 1 PiB") {
    // One layer of 1e15 parameters, no other work. On hgx-h100 (8 GPUs) the
    // default plan is dp = 8, tp = pp = cp = 1, ZeRO 0: the stage's gradients
    // go in ceil(1e15 / 40e6) buckets clamped to the one layer, so one fp32
    // all-reduce (megatron-core's grad_reduce_in_fp32) of 4 x 1e15 = 4e15 B >
    // 2^50 B, printed as a whole number.
    const std::string model = write_temp_file(
        "errmsg-ranges-huge-gradient.toml",
        one_layer_model("huge-gradient", "forward_flops = 0\nparameters = 1e15\nactivation_bytes = 0\n"));
    const Run r = run_dtcalc("predict --model " + model + " --preset hgx-h100");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: model: out of range: one all-reduce moves 4000000000000000 B; sizes from 0 B to "
                   "1 PiB (2^50 B) are accepted\n");
}

// src/chakra/run_statistics.cpp, cycles().
TEST_CASE("error message: a Chakra run longer than 2^63 cycles") {
    // Two NPUs, each running two COMP nodes of 5e15 us one after the other
    // (roofline off: each replays its duration). Each node, 5e18 ns, is within
    // range; the run ends at 2 x 5e18 = 1e19 ns = 1e19 cycles >= 9.2e18.
    const std::uint64_t micros = 5'000'000'000'000'000;
    const std::vector<Node> chain = {testing::comp(1, micros), testing::comp(2, micros, {1})};
    const std::string prefix = testing::write_traces("errmsg-ranges-long-run", {chain, chain});
    const std::string network = testing::write_switch_network("errmsg-ranges-long-run-net", 2);
    const std::string system = testing::write_system("errmsg-ranges-long-run-sys", false, false);
    const Run r = run_dtcalc("astra " + astra_flags(prefix, network, system));
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: " + prefix + ": out of range: the run takes more than 9.2e18 cycles (292 years); accepted are runs "
                   "shorter than 2^63 cycles\n");
}

// src/chakra/graph_export.cpp, whole().
TEST_CASE("error message: an exported op past a Chakra trace field's range") {
    SUBCASE("a model whose forward pass takes longer than 9.2e18 us") {
        // One layer of 1e30 forward FLOPs per sample, no parameters (so no
        // gradient collectives); mbs = batch_per_gpu = 1. At hgx-h100's bf16
        // peak (989.4 TFLOP/s, an efficiency <= 1) the forward pass takes at
        // least 1e30 / 989.4e12 s ~ 1.0e15 s = 1.0e21 us > 9.2e18. The first op
        // of the one role is that forward pass: "F", micro-batch 0, no chunk.
        const std::string model = write_temp_file(
            "errmsg-ranges-slow-forward.toml",
            one_layer_model("slow-forward", "forward_flops = 1e30\nparameters = 0\nactivation_bytes = 0\n"));
        const std::string prefix = testing::temp_path("errmsg-ranges-slow-forward");
        const Run r = run_dtcalc("export-chakra --model " + model + " --preset hgx-h100 --output " + prefix);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: export: F mb0: duration (us) out of range for a Chakra trace (accepted are 0 to "
                       "9.2e18)\n");
    }
    SUBCASE("a roofline op's num_ops or tensor_size (no CLI input makes roofline ops)") {
        // Two NPUs, one role; the op is timed by the roofline (no fixed
        // duration): 100 TFLOP/s and 1000 GB/s keep its time far in range.
        Network network;
        network.dimensions.push_back({Topology::Switch, 2, 100.0, 10.0});
        SystemConfig system;
        system.peak_perf_tflops = 100;
        system.local_mem_bw_gbps = 1000;
        const std::string prefix = testing::temp_path("errmsg-ranges-roofline-op");
        auto export_error = [&](double flops, double bytes) {
            WorkloadGraph g;
            g.role_npus = {2};
            Op op;
            op.flops = flops;
            op.bytes = bytes;
            g.add(op);
            return error_of([&] {
                export_chakra(g, System{network, system}, prefix, prefix + ".json");
            });
        };
        // 1e19 FLOPs (1e5 s) over 1 kB.
        CHECK(export_error(1e19, 1e3) == "export: op 0: num_ops out of range for a Chakra trace (accepted are 0 to 9.2e18)");
        // 1 FLOP over 1e19 B (1e16 ns).
        CHECK(export_error(1, 1e19) == "export: op 0: tensor_size out of range for a Chakra trace (accepted are 0 to 9.2e18)");
    }
}

// src/chakra/trace_decoder.cpp, as_size() (with fail_node and byte_size_out_of_range).
TEST_CASE("error message: a trace attribute's size past 1 PiB") {
    SUBCASE("comm_size, through dtcalc astra") {
        // An all-reduce over both NPUs of 2^50 + 1 B on each. As IEC units that
        // is 1 + 2^-50 PiB, printed "1 PiB", which would read back as 2^50: so
        // the message gives the bytes. Both files are bad; rank 0's is named.
        const std::vector<Node> rank = {testing::collective(1, 0, kPiB + 1, "")};
        const std::string prefix = testing::write_traces("errmsg-ranges-comm-size", {rank, rank});
        const std::string network = testing::write_switch_network("errmsg-ranges-comm-size-net", 2);
        const std::string system = testing::write_system("errmsg-ranges-comm-size-sys", false, false);
        const Run r = run_dtcalc("astra " + astra_flags(prefix, network, system));
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".0.et: node 1: attribute comm_size: out of range (got "
                       "1125899906842625 B): sizes from 0 B to 1 PiB (2^50 B) are accepted\n");
    }
    auto decode_error = [](const std::vector<Node>& nodes) {
        return error_of([&] { decode_rank_trace(encode_et(chakra_metadata("test"), nodes), "x.0.et", 0, {}); });
    };
    SUBCASE("tensor_size") {
        // 2^51 B is exactly 2 PiB.
        Node n = testing::comp(3, 1);
        add_uint64_attr(n, "tensor_size", kPiB * 2);
        CHECK(decode_error({n}) ==
              "x.0.et: node 3: attribute tensor_size: out of range (got 2 PiB): sizes from 0 B to 1 PiB (2^50 B) are accepted");
    }
    SUBCASE("a tensor of an outputs list") {
        // 2^60 B is exactly 1 EiB.
        Node n = testing::comp(4, 1);
        add_string_list_attr(n, "inputs", std::vector<std::string>{});
        add_string_list_attr(n, "outputs", std::vector<std::string>{"weights", "1152921504606846976"});
        CHECK(decode_error({n}) ==
              "x.0.et: node 4: attribute outputs: out of range (got 1 EiB): sizes from 0 B to 1 PiB (2^50 B) are accepted");
    }
}

// src/chakra/memory_tracker.cpp, peak_local_memory().
TEST_CASE("error message: tensors live at once on one NPU past 2^63 bytes") {
    // With track-local-mem on, one COMP node writes 8193 tensors of 2^50 B
    // (each the largest size accepted) and nothing reads them: all live from
    // the node's start to the end. 8193 x 2^50 = 2^63 + 2^50 B. Both NPUs run
    // the same trace. The message names the trace prefix.
    constexpr int kTensors = 8193;
    std::vector<std::string> outputs;
    for (int k = 0; k < kTensors; ++k) {
        outputs.push_back("t" + std::to_string(k));
        outputs.push_back(std::to_string(kPiB));
    }
    Node n = testing::comp(1, 1);
    add_string_list_attr(n, "inputs", std::vector<std::string>{});
    add_string_list_attr(n, "outputs", outputs);
    const std::string prefix = testing::write_traces("errmsg-ranges-live-tensors", {{n}, {n}});
    const std::string network = testing::write_switch_network("errmsg-ranges-live-tensors-net", 2);
    const std::string system = testing::write_system("errmsg-ranges-live-tensors-sys", false, true);
    const Run r = run_dtcalc("astra " + astra_flags(prefix, network, system));
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: " + prefix +
                       ": out of range: the tensors live at once on one NPU add up to 2^63 bytes or more\n");
}
