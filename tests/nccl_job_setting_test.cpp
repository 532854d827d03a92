// NCCL_ALGO / NCCL_PROTO set for a whole training job (predict's nccl_algo and
// nccl_proto): every collective of the step is asked with the setting, as
// NCCL applies its environment to every call of the job; a collective the
// setting leaves no way to run is an error at the option, as NCCL fails the
// call; a sweep takes a setting's commas as part of the value.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "compute/system.h"
#include "input_error.h"
#include "predict/predict.h"
#include "predict/predict_options.h"
#include "run_dtcalc.h"
#include "temp_file.h"
#include "workload/step_costs.h"

using namespace dtcalc;
using dtcalc::testing::check_errors;
using dtcalc::testing::error_of;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;
using Run = dtcalc::testing::Run;

namespace {

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModels{std::string(DTCALC_SOURCE_DIR) + "/models"};

// Llama-2 7B on two nodes of 8 H100 (NDR, one NIC per GPU), tp 8 inside the
// node and dp 2 over the two nodes, priced by the nccl backend.
PredictOptions two_nodes() {
    PredictOptions o;
    o.model = "llama2-7b";
    o.system.preset = "h100-ib-ndr400";
    o.system.backend = "nccl";
    o.system.nodes = 2;
    o.tp = 8;
    return o;
}

TrainingStepCosts costs_of(const PredictInputs& in) {
    TrainingStepInputs s;
    s.model = &in.model;
    s.plan = &in.plan;
    s.system = &in.system;
    s.nccl = in.nccl;
    return price_training_step(s);
}

}  // namespace

TEST_CASE("NCCL_ALGO for the job: the step's gradient all-reduce is asked with it") {
    PredictOptions o = two_nodes();
    const ResolvedPrediction unset = resolve_prediction(o, kPresets, kModels);
    CHECK(unset.inputs.nccl.unset());
    o.nccl_algo = "tree";
    const ResolvedPrediction tree = resolve_prediction(o, kPresets, kModels);
    CHECK(tree.nccl_algo == "tree");
    CHECK(!tree.inputs.nccl.unset());

    const TrainingStepCosts free_choice = costs_of(unset.inputs);
    const TrainingStepCosts forced = costs_of(tree.inputs);
    REQUIRE(forced.chunks.size() == 1);
    const ChunkCosts& c = forced.chunks[0];
    // Each bucket's fp32 gradients (grad_reduce_in_fp32, 4 B per parameter)
    // are all-reduced over dp: the two GPUs of one position in the two nodes.
    const auto bytes = static_cast<std::uint64_t>(std::llround(4.0 * c.parameters / c.gradient_buckets));
    const CommGroup& dp = forced.groups.dp_cp;
    REQUIRE(dp.size() == 2);
    const CollectiveResult as_tree =
        collective_time(tree.inputs.system, {CollectiveKind::AllReduce, bytes, dp, tree.inputs.nccl});
    const CollectiveResult as_chosen = collective_time(unset.inputs.system, {CollectiveKind::AllReduce, bytes, dp, {}});
    CHECK(std::string(as_tree.algorithm).starts_with("tree/"));
    // NCCL's own choice for this bucket on two ranks of two nodes is the
    // ring, so the check below tells the setting's effect from its absence.
    CHECK(std::string(as_chosen.algorithm).starts_with("ring/"));
    CHECK(c.gradient_bucket_ns == as_tree.time_ns);
    CHECK(free_choice.chunks[0].gradient_bucket_ns == as_chosen.time_ns);
    // The tensor-parallel all-reduces inside the node: tree too.
    CHECK(forced.chunks[0].forward.tp_comm_ns != free_choice.chunks[0].forward.tp_comm_ns);
}

TEST_CASE("NCCL_ALGO for the job: the iteration with the setting, and its report") {
    const Run plain = run_dtcalc("predict --model llama2-7b --preset h100-ib-ndr400 --backend nccl --nodes 2 --tp 8 "
                                 "--format json",
                                 false);
    const Run ring = run_dtcalc("predict --model llama2-7b --preset h100-ib-ndr400 --backend nccl --nodes 2 --tp 8 "
                                "--nccl-algo ring --nccl-proto ^LL128 --format json",
                                false);
    REQUIRE(plain.exit_code == 0);
    REQUIRE(ring.exit_code == 0);
    CHECK(plain.out.find("\"nccl_algo\": \"\", \"nccl_proto\": \"\"") != std::string::npos);
    CHECK(ring.out.find("\"nccl_algo\": \"ring\", \"nccl_proto\": \"^LL128\"") != std::string::npos);
    CHECK(plain.out != ring.out);
    const Run table = run_dtcalc("predict --model llama2-7b --preset h100-ib-ndr400 --backend nccl --nodes 2 --tp 8 "
                                 "--nccl-algo ring",
                                 false);
    CHECK(table.out.starts_with(
        "llama2-7b on preset h100-ib-ndr400 (16 NPUs, backend nccl, NCCL_ALGO=ring, framework megatron-core)\n"));
    // A scenario's keys are the same names.
    const std::string scenario = write_temp_file("nccl-job-scenario.toml",
                                                 "model = \"llama2-7b\"\npreset = \"h100-ib-ndr400\"\nbackend = \"nccl\"\n"
                                                 "nodes = 2\ntp = 8\nnccl_algo = \"ring\"\nnccl_proto = \"^LL128\"\n");
    CHECK(run_dtcalc("predict --scenario " + scenario + " --format json", false).out == ring.out);
}

TEST_CASE("NCCL_ALGO for the job: what cannot be used is an error at the option") {
    const std::string base = "predict --model llama2-7b --preset h100-ib-ndr400 --nodes 2 --tp 8 ";
    check_errors({
        {base + "--backend astra-aware --nccl-algo ring",
         "--nccl-algo: applies to the nccl backend only (this system uses astra-aware; set backend to nccl)"},
        {base + "--backend nccl --nccl-algo trie",
         "--nccl-algo: expected Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree or PAT (a list, '^' first to "
         "exclude, 'allreduce:' for one collective), got 'trie'"},
        {base + "--backend nccl --nccl-proto LL129",
         "--nccl-proto: expected LL, LL128 or Simple (a list, '^' first to exclude, 'allreduce:' for one collective), "
         "got 'LL129'"},
        // Sequence parallelism all-gathers inside the node, which NCCL runs by
        // ring or NVLS only: a tree-only job cannot run it (NCCL fails the call).
        {base + "--backend nccl --sp --nccl-algo tree",
         "--nccl-algo: NCCL_ALGO / NCCL_PROTO leave tree; LL, LL128, Simple for all-gather on 8 GPUs in 1 node, and "
         "none of them runs there (available: ring/LL, ring/LL128, ring/Simple, nvls/Simple): tree: runs all-reduce "
         "only"},
    });
    const std::string scenario = write_temp_file("nccl-job-bad.toml",
                                                 "model = \"llama2-7b\"\npreset = \"h100-ib-ndr400\"\nbackend = \"nccl\"\n"
                                                 "nodes = 2\ntp = 8\nnccl_algo = \"ring;trie\"\n");
    check_errors({{"predict --scenario " + scenario,
                   scenario +
                       ":6:13: nccl_algo: every entry after the first needs its function, e.g. 'allreduce:trie', got 'trie' in "
                       "'ring;trie'"}});
    // The library alone: the option's name.
    PredictOptions o = two_nodes();
    o.system.backend = "astra-aware";
    o.nccl_proto = "Simple";
    CHECK(error_of([&] { resolve_prediction(o, kPresets, kModels); }) ==
          "nccl_proto: applies to the nccl backend only (this system uses astra-aware; set backend to nccl)");
}

TEST_CASE("NCCL_ALGO for the job in a sweep: one value per setting, commas and all; a point NCCL cannot run is a row") {
    const Run r = run_dtcalc("sweep --model llama2-7b --preset h100-ib-ndr400 --backend nccl --nodes 2 --tp 8 "
                             "--sp true,false --nccl-algo ring,tree -q",
                             false);
    REQUIRE(r.exit_code == 0);
    std::istringstream rows(r.out);
    std::string line;
    int ring_tree = 0;
    while (std::getline(rows, line))
        if (line.find("\"ring,tree\"") != std::string::npos) ++ring_tree;
    CHECK(ring_tree == 2);  // both points, one setting
    const std::string spec = write_temp_file("nccl-job-sweep.toml",
                                             "model = \"llama2-7b\"\npreset = \"h100-ib-ndr400\"\nbackend = \"nccl\"\n"
                                             "nodes = 2\ntp = 8\nsequence_parallel = true\nnccl_algo = [\"ring\", \"tree\"]\n");
    const Run s = run_dtcalc("sweep " + spec + " -q", false);
    REQUIRE(s.exit_code == 0);
    CHECK(s.out.find("NCCL_ALGO / NCCL_PROTO leave tree; LL, LL128, Simple for all-gather on 8 GPUs in 1 node") !=
          std::string::npos);
}

TEST_CASE("NCCL settings for the job (nccl_env): every collective of the step runs with them") {
    // NCCL_NVLS_ENABLE=0 takes NVLS and NVLS-tree away whatever NCCL_ALGO says
    // (src/transport/nvls.cc, ncclNvlsInit): the step is the one NCCL_ALGO =
    // ^nvls,nvlstree gives, and slower than NCCL's own choice (tp 8's
    // all-reduces run NVLS on one HGX node).
    const std::string base = "predict --model llama2-7b --preset hgx-h100 --tp 8 ";
    const auto body = [](const std::string& out) { return out.substr(out.find('\n') + 1); };
    const Run off = run_dtcalc(base + "--nccl-env NCCL_NVLS_ENABLE=0", false);
    const Run algo = run_dtcalc(base + "--nccl-algo ^nvls,nvlstree", false);
    const Run plain = run_dtcalc(base, false);
    REQUIRE(off.exit_code == 0);
    CHECK(off.out.starts_with("llama2-7b on preset hgx-h100 (8 NPUs, backend nccl, NCCL_NVLS_ENABLE=0, framework "));
    CHECK(body(off.out) == body(algo.out));
    CHECK(body(off.out) != body(plain.out));
    // Several settings, blank-separated as on a shell's command line.
    PredictOptions o;
    o.model = "llama2-7b";
    o.system.preset = "hgx-h100";
    o.tp = 8;
    o.nccl_env = "NCCL_MAX_CTAS=8  NCCL_NCHANNELS_PER_NET_PEER=2";
    const ResolvedPrediction r = resolve_prediction(o, kPresets, kModels);
    CHECK(r.inputs.nccl.channels.max_ctas == 8);
    CHECK(r.inputs.nccl.channels.per_net_peer == 2);
    CHECK(r.nccl_env == o.nccl_env);
    const Run json = run_dtcalc(base + "--nccl-env NCCL_MAX_CTAS=8 --format json", false);
    CHECK(json.out.find("\"nccl_algo\": \"\", \"nccl_proto\": \"\", \"nccl_env\": \"NCCL_MAX_CTAS=8\"") !=
          std::string::npos);
    check_errors({
        {base + "--nccl-env NCCL_BUFFSIZE=4",
         "--nccl-env: 'NCCL_BUFFSIZE=4': NCCL_BUFFSIZE is not a setting dtcalc models (it models NCCL_ALGO, NCCL_PROTO, "
         "NCCL_NVLS_ENABLE, NCCL_MIN_NRINGS, NCCL_MAX_NRINGS, NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS, NCCL_MIN_CTAS, "
         "NCCL_MAX_CTAS, NCCL_NVLS_NCHANNELS, NCCL_MIN_P2P_NCHANNELS, NCCL_MAX_P2P_NCHANNELS, "
         "NCCL_NCHANNELS_PER_NET_PEER)"},
        {base + "--nccl-algo ring --nccl-env NCCL_ALGO=tree",
         "--nccl-env: 'NCCL_ALGO=tree': NCCL_ALGO is also given by its own option; give one"},
        {base + "--backend astra-aware --nccl-env NCCL_MAX_CTAS=8",
         "--nccl-env: applies to the nccl backend only (this system uses astra-aware; set backend to nccl)"},
        {base + "--nccl-env NCCL_MAX_CTAS=many",
         "--nccl-env: NCCL_MAX_CTAS='many': expected a whole number of channels (NCCL's 1 to 64)"},
        // The setting that leaves a collective no way to run is named.
        {base + "--sp --nccl-env NCCL_ALGO=tree",
         "--nccl-env: NCCL_ALGO / NCCL_PROTO leave tree; LL, LL128, Simple for all-gather on 8 GPUs in 1 node, and "
         "none of them runs there (available: ring/LL, ring/LL128, ring/Simple, nvls/Simple): tree: runs all-reduce "
         "only"},
    });
}

TEST_CASE("NCCL settings for the job in a sweep: a spec's list gives one point per setting") {
    const std::string spec = write_temp_file("nccl-env-sweep.toml",
                                             "model = \"llama2-7b\"\npreset = \"hgx-h100\"\ntp = 8\n"
                                             "nccl_env = [\"NCCL_NVLS_ENABLE=0\", \"NCCL_MAX_CTAS=4 NCCL_NVLS_ENABLE=0\"]\n");
    const Run s = run_dtcalc("sweep " + spec + " -q", false);
    REQUIRE(s.exit_code == 0);
    std::istringstream rows(s.out);
    std::string header, first, second;
    std::getline(rows, header);
    std::getline(rows, first);
    std::getline(rows, second);
    CHECK(header.starts_with("point,nccl_env,"));
    CHECK(first.starts_with("0,NCCL_NVLS_ENABLE=0,"));
    CHECK(second.starts_with("1,NCCL_MAX_CTAS=4 NCCL_NVLS_ENABLE=0,"));
    // iteration_time_us follows the plan's columns; four ring channels instead
    // of NCCL's 24 make tp 8's all-reduces, and so the step, slower.
    const auto iteration = [&](const std::string& row) {
        std::vector<std::string> cells;
        std::string cell;
        std::istringstream in(row);
        while (std::getline(in, cell, ',')) cells.push_back(cell);
        std::istringstream head(header);
        int column = 0;
        while (std::getline(head, cell, ',') && cell != "iteration_time_us") ++column;
        return std::stod(cells.at(static_cast<std::size_t>(column)));
    };
    CHECK(iteration(second) > iteration(first));
}
