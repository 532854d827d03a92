// Error messages of the collective engine: the system's algorithms against
// the group a collective runs on, the nccl backend's network, grids and links.
// Each case pins the whole message; expected texts are written from the
// sources' rules and the inputs, never copied from a run.
#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "collective/algorithm_steps.h"
#include "collective/collective_cost.h"
#include "collective/phase_plan.h"
#include "config/config_readers.h"
#include "config/preset.h"
#include "config/system_config_reader.h"
#include "core/error.h"
#include "run_dtcalc.h"
#include "sweep/batch_sweep.h"
#include "sweep/design_space.h"
#include "temp_file.h"
#include "validate/csv_table.h"
#include "validate/svg_plot.h"
#include "validate/validation_plan.h"
#include "validate/validation_run.h"
#include "input_error.h"

using dtcalc::testing::error_of;

using namespace dtcalc;
using dtcalc::testing::Run;
using dtcalc::testing::check_errors;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};

}  // namespace

// ---------------------------------------------------------------------------
// Collectives: the system's algorithms against the group they run on.
// ---------------------------------------------------------------------------

namespace {

Network switches(std::initializer_list<int> npus) {
    Network n;
    for (int p : npus) n.dimensions.push_back({Topology::Switch, p, 100.0, 10.0});
    return n;
}

SystemConfig every_list(std::vector<AlgorithmChoice> list) {
    SystemConfig s;
    for (auto& l : s.implementation) l = list;
    s.preferred_dataset_splits = 1;
    s.active_chunks_per_dimension = 1;
    s.local_mem_bw_gbps = 1000;
    return s;
}

constexpr AlgorithmChoice kRing{AlgorithmKind::Ring, false};
constexpr AlgorithmChoice kHd{AlgorithmKind::HalvingDoubling, false};
constexpr AlgorithmChoice kDbt{AlgorithmKind::DoubleBinaryTree, false};

std::string check_error(CollectiveKind kind, const CommGroup& group, const SystemConfig& system) {
    return error_of([&] { check_phase_algorithms(kind, group, system); });
}

std::string invalid_argument_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("error message: algorithms a collective cannot run, for a system built in code") {
    const CommGroup g8{{8}};
    const CommGroup g6{{6}};
    const CommGroup g4x3{{4, 3}};
    CHECK(check_error(CollectiveKind::AllToAll, g8, every_list({kHd})) ==
          "all-to-all-implementation[0]: halvingDoubling has no all-to-all");
    CHECK(check_error(CollectiveKind::AllGather, g8, every_list({kDbt})) ==
          "all-gather-implementation[0]: doubleBinaryTree has no all-gather");
    CHECK(check_error(CollectiveKind::ReduceScatter, g8, every_list({{AlgorithmKind::DoubleBinaryTree, true}})) ==
          "reduce-scatter-implementation[0]: doubleBinaryTree has no reduce-scatter");
    CHECK(check_error(CollectiveKind::AllReduce, g6, every_list({kHd})) ==
          "all-reduce-implementation[0]: halvingDoubling needs a power-of-two number of NPUs on dimension 0 (got 6)");
    CHECK(check_error(CollectiveKind::ReduceScatter, g4x3, every_list({kRing, kHd})) ==
          "reduce-scatter-implementation[1]: halvingDoubling needs a power-of-two number of NPUs on dimension 1 (got 3)");
    // A flat halvingDoubling pairs partners across the whole group: 4 x 3 = 12 is not a power of two.
    CHECK(check_error(CollectiveKind::AllReduce, g4x3, every_list({{AlgorithmKind::HalvingDoubling, true}})) ==
          "all-reduce-implementation[0]: oneHalvingDoubling needs a power-of-two number of NPUs in the group (got 12)");
    CHECK(check_error(CollectiveKind::AllGather, CommGroup{{4, 2}}, every_list({{AlgorithmKind::HalvingDoubling, true}})) == "(no error)");
    // Lists that do not cover the group: a system built in code only.
    CHECK(check_error(CollectiveKind::AllReduce, g8, every_list({})) == "all-reduce-implementation[0]: missing: no algorithm for all-reduce");
    CHECK(check_error(CollectiveKind::AllReduce, g4x3, every_list({kRing})) ==
          "all-reduce-implementation[1]: missing: the list has 1 entries, but the group spans dimension 1");
    // The engine refuses the same, before its formulas run.
    CHECK(error_of([&] { collective_time(switches({6}), every_list({kHd}), NetworkBackend::AstraUnaware,
                                         {CollectiveKind::AllReduce, 1 << 20, g6}); }) ==
          "all-reduce-implementation[0]: halvingDoubling needs a power-of-two number of NPUs on dimension 0 (got 6)");
}

TEST_CASE("error message: algorithms a collective cannot run, named at the system file's entry") {
    SUBCASE("an ASTRA-sim system JSON") {
        const std::string json = write_temp_file("errmsg-sweep-hd.json", R"({
  "scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1, "preferred-dataset-splits": 1,
  "all-reduce-implementation": ["ring", "halvingDoubling"],
  "all-gather-implementation": ["ring", "doubleBinaryTree"],
  "reduce-scatter-implementation": ["ring", "ring"],
  "all-to-all-implementation": ["ring", "halvingDoubling"],
  "collective-optimization": "localBWAware", "local-mem-bw": 1000
})");
        const SystemConfig system = load_astra_system_json(json, 2);
        const CommGroup g{{4, 6}};
        CHECK(check_error(CollectiveKind::AllReduce, g, system) ==
              json + ":3: all-reduce-implementation[1]: halvingDoubling needs a power-of-two number of NPUs on dimension 1 (got 6)");
        CHECK(check_error(CollectiveKind::AllGather, CommGroup{{4, 4}}, system) ==
              json + ":4: all-gather-implementation[1]: doubleBinaryTree has no all-gather");
        CHECK(check_error(CollectiveKind::AllToAll, CommGroup{{4, 4}}, system) ==
              json + ":6: all-to-all-implementation[1]: halvingDoubling has no all-to-all");
        // A group that spans only dimension 0 does not use entry 1.
        CHECK(check_error(CollectiveKind::AllToAll, CommGroup{{4, 1}}, system) == "(no error)");
    }
    SUBCASE("a preset's [system] table") {
        // lab-tpu-512: all-reduce-implementation = ["ring", "ring", "ring", "halvingDoubling"] on
        // line 22, the fourth entry at column 54; 6 NPUs on the last dimension.
        const Preset preset = load_preset("lab-tpu-512", kPresets);
        CHECK(check_error(CollectiveKind::AllReduce, CommGroup{{4, 4, 4, 6}}, preset.system.config) ==
              preset.path + ":22:54: system.all-reduce-implementation[3]: halvingDoubling needs a power-of-two number "
                            "of NPUs on dimension 3 (got 6)");
    }
}

TEST_CASE("error message: the formulas' own contract checks") {
    // algorithm_steps and plan_phases keep their checks for callers that skip
    // check_phase_algorithms: std::invalid_argument, a broken contract.
    CHECK(invalid_argument_of([] { algorithm_steps(CollectiveKind::AllToAll, AlgorithmKind::HalvingDoubling, 4, 4096); }) ==
          "halvingDoubling has no all-to-all");
    CHECK(invalid_argument_of([] { algorithm_steps(CollectiveKind::AllGather, AlgorithmKind::DoubleBinaryTree, 4, 4096); }) ==
          "doubleBinaryTree has only all-reduce");
    CHECK(invalid_argument_of([] { plan_phases(CollectiveKind::AllReduce, CommGroup{{6}}, every_list({kHd}), 4096); }) ==
          "halvingDoubling needs a power-of-two number of NPUs on dimension 0 (got 6)");
    CHECK(invalid_argument_of([] { plan_phases(CollectiveKind::AllGather, CommGroup{{8}}, every_list({kDbt}), 4096); }) ==
          "doubleBinaryTree has no all-gather");
    CHECK(invalid_argument_of([] {
              plan_phases(CollectiveKind::AllToAll, CommGroup{{8}}, every_list({{AlgorithmKind::HalvingDoubling, true}}), 4096);
          }) == "halvingDoubling has no all-to-all");
}

TEST_CASE("error message: the check refuses exactly what the phase plan refuses") {
    // Every algorithm (per dimension and flat) for every collective, on groups
    // of 1 to 3 spanned dimensions with power-of-two and other sizes, both
    // collective optimizations: check_phase_algorithms throws InputError
    // exactly when plan_phases throws std::invalid_argument.
    const std::vector<AlgorithmKind> algorithms = {AlgorithmKind::Ring, AlgorithmKind::Direct, AlgorithmKind::HalvingDoubling,
                                                   AlgorithmKind::DoubleBinaryTree};
    const std::vector<std::vector<int>> groups = {{8}, {6}, {1, 8}, {4, 4}, {4, 6}, {6, 4}, {2, 3, 4}, {4, 1, 2}, {3, 1, 1}};
    int checked = 0, refused = 0;
    for (int k = 0; k < kGroupCollectiveKinds; ++k) {
        const auto kind = static_cast<CollectiveKind>(k);
        for (const std::vector<int>& members : groups) {
            const CommGroup group{members};
            for (bool flat : {false, true})
                for (CollectiveOptimization opt : {CollectiveOptimization::Baseline, CollectiveOptimization::LocalBWAware})
                    for (AlgorithmKind a : algorithms)
                        for (AlgorithmKind b : algorithms) {
                            if (flat && b != AlgorithmKind::Ring) continue;  // a flat list has one entry
                            SystemConfig system;
                            for (auto& list : system.implementation) {
                                if (flat) list = {{a, true}};
                                else for (std::size_t d = 0; d < members.size(); ++d) list.push_back({d == 0 ? a : b, false});
                            }
                            system.collective_optimization = opt;
                            bool check_throws = false, plan_throws = false;
                            try {
                                check_phase_algorithms(kind, group, system);
                            } catch (const InputError&) {
                                check_throws = true;
                            }
                            try {
                                plan_phases(kind, group, system, 4096);
                            } catch (const std::invalid_argument&) {
                                plan_throws = true;
                            }
                            CAPTURE(k);
                            CAPTURE(static_cast<int>(a));
                            CAPTURE(static_cast<int>(b));
                            CAPTURE(flat);
                            CHECK(check_throws == plan_throws);
                            ++checked;
                            refused += check_throws ? 1 : 0;
                        }
        }
    }
    CHECK(checked > 500);
    CHECK(refused > 50);
}

TEST_CASE("error message: dtcalc with algorithms the collective cannot run") {
    const std::string net8 = write_temp_file("errmsg-sweep-ring8.yml",
                                             "topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 100 ]\nlatency: [ 10 ]\n");
    const std::string net6 = write_temp_file("errmsg-sweep-switch6.yml",
                                             "topology: [ Switch ]\nnpus_count: [ 6 ]\nbandwidth: [ 100 ]\nlatency: [ 10 ]\n");
    // Line 4: all-reduce, 5: all-gather, 6: reduce-scatter, 7: all-to-all.
    const std::string sys = write_temp_file("errmsg-sweep-hd-cli.json", R"({
  "scheduling-policy": "LIFO", "endpoint-delay": 10,
  "active-chunks-per-dimension": 1, "preferred-dataset-splits": 1,
  "all-reduce-implementation": ["halvingDoubling"],
  "all-gather-implementation": ["doubleBinaryTree"],
  "reduce-scatter-implementation": ["halvingDoubling"],
  "all-to-all-implementation": ["halvingDoubling"],
  "collective-optimization": "baseline", "local-mem-bw": 1000
})");
    const std::string files8 = " --network " + net8 + " --system " + sys;
    const std::string files6 = " --network " + net6 + " --system " + sys;
    const std::string workload = write_temp_file("errmsg-sweep-v1.txt", "DATA\n1\nl1 -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 64 1\n");
    const std::string hd = ": halvingDoubling needs a power-of-two number of NPUs on dimension 0 (got 6)";
    check_errors({
        {"collective all-to-all --size 1MiB" + files8, sys + ":7: all-to-all-implementation[0]: halvingDoubling has no all-to-all"},
        {"collective all-to-all --size 1MiB --links" + files8,
         sys + ":7: all-to-all-implementation[0]: halvingDoubling has no all-to-all"},
        {"collective all-gather --size 1MiB" + files8, sys + ":5: all-gather-implementation[0]: doubleBinaryTree has no all-gather"},
        {"collective all-reduce --size 1MiB" + files6, sys + ":4: all-reduce-implementation[0]" + hd},
        {"collective reduce-scatter --size 1MiB --npus 6" + files8, sys + ":6: reduce-scatter-implementation[0]" + hd},
        // A v1 workload: the op, then the system file's entry.
        {"run " + workload + files6, "workload: pass0.l1.wg_comm: " + sys + ":4: all-reduce-implementation[0]" + hd},
        // A preset, reshaped by a flag: lab-tpu-512 runs halvingDoubling on its last dimension.
        {"collective all-reduce --size 1MiB --preset " + std::string(DTCALC_PRESETS_DIR) + "/lab-tpu-512.toml --nodes 6",
         std::string(DTCALC_PRESETS_DIR) + "/lab-tpu-512.toml:22:54: system.all-reduce-implementation[3]: halvingDoubling "
                                           "needs a power-of-two number of NPUs on dimension 3 (got 6)"},
    });
}

TEST_CASE("error message: the nccl backend's network, and links") {
    Preset hgx = load_preset("hgx-h100", kPresets);
    // No dimensions at all: only a network built in code.
    CHECK(error_of([&] { collective_time(Network{}, hgx.system.config, NetworkBackend::Nccl, {CollectiveKind::AllReduce, 1 << 20, CommGroup{{8}}}); }) ==
          "network: the nccl backend needs a network");
    // Two nodes, and an inter-node dimension without a bandwidth.
    Preset ib = load_preset("h100-ib-ndr400", kPresets);
    ib.system.network.dimensions[1].bandwidth_gbps = 0;
    CHECK(error_of([&] { collective_time(ib.system.network, ib.system.config, NetworkBackend::Nccl, {CollectiveKind::AllReduce, 1 << 20, CommGroup{{8, 2}}}); }) ==
          "network: the nccl backend needs a bandwidth for the inter-node dimension");
    check_errors({
        {"collective all-reduce --size 1MiB --preset hgx-h100 --links",
         "--links: links are modelled by the astra-unaware and astra-aware backends only"},
    });
    // The links are worked out before anything is printed: an error leaves stdout empty.
    const Run quiet = run_dtcalc("collective all-reduce --size 1MiB --preset hgx-h100 --links", false);
    CHECK(quiet.exit_code == 2);
    CHECK(quiet.out.empty());
    // A 128 x 64 mesh: a flat direct all-to-all sends 8192 x 8191 = 67100672
    // messages in one step, more than can be routed one by one.
    const std::string mesh = write_temp_file("errmsg-sweep-mesh.yml",
                                             "topology: [ Mesh2D ]\nnpus_count: [ 128, 64 ]\nbandwidth: [ 100 ]\nlatency: [ 10 ]\n");
    const std::string sys = write_temp_file(
        "errmsg-sweep-mesh.json",
        R"({"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
            "preferred-dataset-splits": 1, "all-reduce-implementation": ["ring", "ring"],
            "all-gather-implementation": ["ring", "ring"], "reduce-scatter-implementation": ["ring", "ring"],
            "all-to-all-implementation": ["oneDirect"], "collective-optimization": "baseline", "local-mem-bw": 1000})");
    const Run many = run_dtcalc("collective all-to-all --size 1GiB --links --network " + mesh + " --system " + sys);
    CHECK(many.exit_code == 2);
    CHECK(many.out.starts_with("dtcalc: error: --links: phase 0 sends 67100672 messages in one step, too many to route one by one"));
    CHECK(many.out.find('\n') == many.out.size() - 1);
    CHECK(error_of([&] { first_npus_group(switches({8}), 0, "--npus"); }) == "--npus: must be at least 1 (got 0)");
}
