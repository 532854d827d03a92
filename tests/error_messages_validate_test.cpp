// Error messages of `dtcalc validate`: its plans, CSV tables and datasets.
// Each case pins the whole message (location and detail); expected texts are
// written from the sources' rules and the inputs, never copied from a run.
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
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModels{std::string(DTCALC_PRESETS_DIR) + "/../models"};

}  // namespace

// ---------------------------------------------------------------------------
// dtcalc validate: plans, CSV tables and datasets.
// ---------------------------------------------------------------------------

namespace {

const ValidationContext kContext{kPresets, kModels};

const std::string kGate = "\n[[gate]]\ndataset = \"d\"\ngroup = \"*\"\nmetric = \"max\"\nbound = 0.5\n";

std::string plan_error(const std::string& name, const std::string& toml) {
    const std::string path = write_temp_file(name, toml);
    return error_of([&] { load_validation_plan(path); });
}

// A plan of one dataset `d` of `kind` over `csv`, with the extra keys given:
// what running it says, and the two files' paths.
struct DatasetRun {
    std::string error, csv, plan;
};

DatasetRun run_dataset(const std::string& name, const std::string& kind, const std::string& csv, const std::string& extra) {
    DatasetRun r;
    r.csv = write_temp_file(name + ".csv", csv);
    r.plan = write_temp_file(name + ".toml", "[[dataset]]\nname = \"d\"\nkind = \"" + kind + "\"\nfile = \"" + r.csv + "\"\n" +
                                                 extra + kGate);
    r.error = error_of([&] { run_validation(load_validation_plan(r.plan), kContext); });
    return r;
}

const std::string kNcclHeader = "source_url,gpus,nodes,collective,size_bytes,time_us\n";
const std::string kHgxHeader = "source_url,gpus,size_bytes,measured_us,astrasim_us,notes\n";
const std::string kReferenceHeader =
    "backend,topology,npus_per_dim,bandwidth_GBps_per_dim,latency_ns_per_dim,collective,size_bytes,impl_per_dim,splits,"
    "active_chunks,endpoint_delay,collective_opt,sim_cycles\n";

// A reference row: the given fields in the order of kReferenceHeader.
std::string reference_row(const std::string& topology, const std::string& npus, const std::string& bandwidth,
                          const std::string& latency, const std::string& collective, const std::string& size,
                          const std::string& impl, const std::string& splits = "4", const std::string& active = "2",
                          const std::string& delay = "10") {
    return "congestion_unaware," + topology + "," + npus + "," + bandwidth + "," + latency + "," + collective + "," + size +
           "," + impl + "," + splits + "," + active + "," + delay + ",localBWAware,1000\n";
}

}  // namespace

TEST_CASE("error message: validation plan structure") {
    const std::string d = "name = \"d\"\nkind = \"nccl-tests\"\nfile = \"x.csv\"\n";
    std::string path;
    SUBCASE("datasets and gates that are not tables") {
        path = write_temp_file("errmsg-sweep-plan1.toml", "dataset = [1]\n");
        CHECK(error_of([&] { load_validation_plan(path); }) == path + ":1:12: dataset[0]: expected a [[dataset]] table");
        // Before any table header: a key of the root, not of the dataset.
        path = write_temp_file("errmsg-sweep-plan2.toml", "gate = [1]\n\n[[dataset]]\n" + d);
        CHECK(error_of([&] { load_validation_plan(path); }) == path + ":1:9: gate[0]: expected a [[gate]] table");
    }
    SUBCASE("two datasets with one name") {
        path = write_temp_file("errmsg-sweep-plan3.toml", "[[dataset]]\n" + d + "\n[[dataset]]\n" + d + kGate);
        CHECK(error_of([&] { load_validation_plan(path); }) == path + ":7:8: dataset[1].name: a dataset named 'd' already exists");
    }
    SUBCASE("inputs that are not a table") {
        path = write_temp_file("errmsg-sweep-plan4.toml", "[[dataset]]\n" + d + "inputs = \"w\"\n" + kGate);
        CHECK(error_of([&] { load_validation_plan(path); }) == path + ":5:10: dataset[0].inputs: expected a table of input files");
    }
    SUBCASE("an unknown metric") {
        path = write_temp_file("errmsg-sweep-plan5.toml",
                               "[[dataset]]\n" + d + "\n[[gate]]\ndataset = \"d\"\ngroup = \"*\"\nmetric = \"avg\"\nbound = 0.5\n");
        CHECK(error_of([&] { load_validation_plan(path); }) ==
              path + ":9:10: gate[0].metric: expected geomean, median, max or mean, got 'avg'");
    }
}

TEST_CASE("error message: validation CSV tables") {
    const std::string quote = write_temp_file("errmsg-sweep-quote.csv", "a,b\n1,x\"y\"\n");
    CHECK(error_of([&] { read_csv_table(quote); }) == quote + ":2: a quote inside an unquoted field; quote the whole field");
    // Non-blank text whose only record is one empty quoted field: no records.
    const std::string empty = write_temp_file("errmsg-sweep-empty.csv", "\"\"\n");
    CHECK(error_of([&] { read_csv_table(empty); }) == empty + ": file is empty");
    const std::string table = write_temp_file("errmsg-sweep-int.csv", "a,b\n1,-3\n2,two\n");
    const CsvTable t = read_csv_table(table);
    CHECK(error_of([&] { t.integer(0, 1); }) == table + ":2: b: expected a non-negative integer, got '-3'");
    CHECK(error_of([&] { t.integer(1, 1); }) == table + ":3: b: expected a non-negative integer, got 'two'");
}

namespace {

// A dataset run and the message it ends with: the CSV's path (or the plan's,
// for what the plan says), then `expected`.
struct DatasetCase {
    std::string name, kind, csv, extra;
    bool at_plan;
    std::string expected;
};

void check_datasets(const std::vector<DatasetCase>& cases) {
    for (const DatasetCase& c : cases) {
        CAPTURE(c.name);
        const DatasetRun r = run_dataset(c.name, c.kind, c.csv, c.extra);
        CHECK(r.error == (c.at_plan ? r.plan : r.csv) + c.expected);
    }
}

}  // namespace

TEST_CASE("error message: nccl-tests datasets") {
    const std::string hgx = "preset = \"hgx-h100\"\n";
    const std::string lab = "preset = \"lab-system1\"\n";
    const std::string row = kNcclHeader + "u,";
    check_datasets({
        {"errmsg-sweep-nccl1", "nccl-tests", row + "8,1,bcast,1024,10\n", hgx, false, ":2: collective: unknown collective 'bcast'"},
        {"errmsg-sweep-nccl2", "nccl-tests", row + "6,4,all_reduce,1024,10\n", hgx, false,
         ":2: gpus: expected gpus to be a multiple of nodes, got 6 GPUs on 4 nodes"},
        {"errmsg-sweep-nccl3", "nccl-tests", row + "8,1,all_reduce,1024,0\n", hgx, false, ":2: time_us: must be > 0"},
        // hgx-h100 is one node: 16 GPUs on 2 nodes do not fit it.
        {"errmsg-sweep-nccl4", "nccl-tests", row + "16,2,all_reduce,1024,10\n", hgx, false,
         ":2: this system has one network dimension, so one node; use a multi-node preset (e.g. h100-ib-ndr400)"},
        // Forcing NCCL's choice: only on the nccl backend, and only names NCCL
        // has. The location is the key's (line 6: [[dataset]], name, kind, file, preset, then it).
        {"errmsg-sweep-nccl5", "nccl-tests", kNcclHeader, lab + "algorithm = \"ring\"\n", true,
         ":6:13: dataset[0].algorithm: applies to the nccl backend only (this system uses astra-unaware)"},
        {"errmsg-sweep-nccl6", "nccl-tests", kNcclHeader, lab + "protocol = \"LL\"\n", true,
         ":6:12: dataset[0].protocol: applies to the nccl backend only (this system uses astra-unaware)"},
        {"errmsg-sweep-nccl7", "nccl-tests", kNcclHeader, hgx + "algorithm = \"rings\"\n", true,
         ":6:13: dataset[0].algorithm: expected Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree or PAT (a list, "
         "'^' first to exclude, 'allreduce:' for one collective), got 'rings'"},
        {"errmsg-sweep-nccl8", "nccl-tests", kNcclHeader, hgx + "protocol = \"fast\"\n", true,
         ":6:12: dataset[0].protocol: expected LL, LL128 or Simple (a list, '^' first to exclude, 'allreduce:' for one "
         "collective), got 'fast'"},
    });
}

TEST_CASE("error message: astrasim-hgx datasets") {
    const std::string hgx = "preset = \"hgx-h100\"\n";
    check_datasets({
        {"errmsg-sweep-hgx1", "astrasim-hgx", kHgxHeader + "u,8,1024,0,,\n", hgx, false, ":2: measured_us: must be > 0"},
        {"errmsg-sweep-hgx2", "astrasim-hgx", kHgxHeader + "u,0,1024,5,,\n", hgx, false, ":2: gpus: must be at least 1 (got 0)"},
        {"errmsg-sweep-hgx3", "astrasim-hgx", kHgxHeader + "u,two,1024,5,,\n", hgx, false,
         ":2: gpus: expected a non-negative integer, got 'two'"},
        // hgx-h100 has 8 GPUs.
        {"errmsg-sweep-hgx4", "astrasim-hgx", kHgxHeader + "u,16,1024,5,,\n", hgx, false,
         ":2: gpus: the group has 16 NPUs but the network has only 8"},
    });
    // What the engine refuses (a size past 1 PiB: 2^51 B) is reported at the row.
    const DatasetRun r = run_dataset("errmsg-sweep-hgx5", "astrasim-hgx", kHgxHeader + "u,8,2251799813685248,5,,\n", hgx);
    CHECK(r.error.starts_with(r.csv + ":2: size: out of range"));
    const DatasetRun n = run_dataset("errmsg-sweep-nccl9", "nccl-tests", kNcclHeader + "u,8,1,all_reduce,2251799813685248,10\n", hgx);
    CHECK(n.error.starts_with(n.csv + ":2: size: out of range"));
}

TEST_CASE("error message: astrasim-reference datasets") {
    auto c = [](const std::string& name, const std::string& row, const std::string& expected) {
        return DatasetCase{name, "astrasim-reference", kReferenceHeader + row, "", false, ":2: " + expected};
    };
    const std::string tail = ",4,2,10,localBWAware,1000\n";
    check_datasets({
        c("errmsg-sweep-ref1", "fast,Switch,8,400,10,all_reduce,1024,ring" + tail,
          "backend: expected congestion_aware or congestion_unaware, got 'fast'"),
        c("errmsg-sweep-ref2", reference_row("Switch_Ring", "8", "400", "10", "all_reduce", "1024", "ring"),
          "topology: every per-dimension column needs one entry per dimension"),
        c("errmsg-sweep-ref3", reference_row("Hypercube", "8", "400", "10", "all_reduce", "1024", "ring"),
          "topology: unknown topology 'Hypercube'"),
        c("errmsg-sweep-ref4", reference_row("Switch", "8", "400", "10", "all_reduce", "1024", "tree"),
          "impl_per_dim: unknown algorithm 'tree'"),
        c("errmsg-sweep-ref5", reference_row("Switch", "8", "400", "10", "broadcast", "1024", "ring"),
          "collective: unknown collective 'broadcast'"),
        c("errmsg-sweep-ref6", "congestion_unaware,Switch,8,400,10,all_reduce,1024,ring,4,2,10,fastest,1000\n",
          "collective_opt: expected baseline or localBWAware, got 'fastest'"),
        c("errmsg-sweep-ref7", reference_row("Switch", "8", "400", "10", "all_reduce", "1024", "ring", "0"),
          "splits: expected 1 to 1024 chunks, got 0"),
        // 10^9 chunks would run the chunk pipeline 10^9 times: the bound comes first.
        c("errmsg-sweep-ref8", reference_row("Switch", "8", "400", "10", "all_reduce", "1024", "ring", "1000000000"),
          "splits: expected 1 to 1024 chunks, got 1000000000"),
        c("errmsg-sweep-ref9", reference_row("Switch", "8", "400", "10", "all_reduce", "1024", "ring", "4", "5000"),
          "active_chunks: expected 1 to 1024 chunks in flight, got 5000"),
        c("errmsg-sweep-ref10", "congestion_unaware,Switch,8,400,10,all_reduce,1024,ring,4,2,10,localBWAware,0\n",
          "sim_cycles: must be > 0"),
        // Per-dimension numbers: the whole entry, within the ranges a network file accepts.
        c("errmsg-sweep-ref11", reference_row("Switch", "8abc", "400", "10", "all_reduce", "1024", "ring"),
          "npus_per_dim: expected a whole number of NPUs from 1 to 16777216, got '8abc'"),
        c("errmsg-sweep-ref12", reference_row("Switch", "4.5", "400", "10", "all_reduce", "1024", "ring"),
          "npus_per_dim: expected a whole number of NPUs from 1 to 16777216, got '4.5'"),
        c("errmsg-sweep-ref13", reference_row("Switch", "99999999999", "400", "10", "all_reduce", "1024", "ring"),
          "npus_per_dim: expected a whole number of NPUs from 1 to 16777216, got '99999999999'"),
        // 8192 x 8192 = 2^26 NPUs.
        c("errmsg-sweep-ref14", reference_row("Switch_Switch", "8192x8192", "400x400", "10x10", "all_reduce", "1024", "ringxring"),
          "npus_per_dim: more than 16777216 NPUs in all"),
        c("errmsg-sweep-ref15", reference_row("Switch", "8", "0", "10", "all_reduce", "1024", "ring"),
          "bandwidth_GBps_per_dim: expected a bandwidth from 1e-6 to 1e12 GB/s, got '0'"),
        c("errmsg-sweep-ref16", reference_row("Switch", "8", "400", "-10", "all_reduce", "1024", "ring"),
          "latency_ns_per_dim: expected a latency from 0 to 1e9 ns, got '-10'"),
        c("errmsg-sweep-ref17", reference_row("Switch", "8", "400", "10", "all_reduce", "1024", "ring", "4", "2", "-1"),
          "endpoint_delay: expected a delay from 0 to 1e9 ns, got '-1'"),
        // An all-gather's size is per NPU: 2^47 B on 16 NPUs is 2^51 B, past 1 PiB.
        c("errmsg-sweep-ref18", reference_row("Switch", "16", "400", "10", "all_gather", "140737488355328", "ring"),
          "size_bytes: an all-gather of 140737488355328 B per NPU on 16 NPUs gathers more than 1 PiB (2^50 B, the "
          "largest size accepted)"),
        // The row's algorithm on its network: named by the row's impl_per_dim.
        c("errmsg-sweep-ref19", reference_row("Switch", "6", "400", "10", "all_reduce", "1024", "halvingDoubling"),
          "impl_per_dim: halvingDoubling needs a power-of-two number of NPUs on dimension 0 (got 6)"),
        c("errmsg-sweep-ref20", reference_row("Switch", "8", "400", "10", "all_to_all", "1024", "halvingDoubling"),
          "impl_per_dim: halvingDoubling has no all-to-all"),
        // What the engine refuses about the network is reported at the row.
        c("errmsg-sweep-ref21", reference_row("Mesh2D_Ring", "4x4", "400x400", "10x10", "all_reduce", "1024", "ringxring"),
          "network: Mesh2D spans 2 consecutive dimensions, but dimension 1 is Ring"),
    });
}

TEST_CASE("error message: training and chakra-astrasim datasets") {
    const std::string header = "sys_id,wall_cycles,exposed_comm_cycles\n";
    const std::string dir = std::string(DTCALC_VALIDATION_DIR) + "/chakra/";
    const std::string inputs = "inputs = { workload = \"" + dir + "sanity_16npu/workload\", comm-groups = \"" + dir +
                               "sanity_16npu/comm_group.json\", system = \"" + dir + "system_system_16.json\", network = \"" +
                               dir + "network_system_16.yml\", remote-memory = \"" + dir + "remote_memory.json\" }\n";
    check_datasets({
        {"errmsg-sweep-training", "training", "a\n1\n", "", true, ":1:1: preset: missing: the training kind needs a preset"},
        {"errmsg-sweep-chakra1", "chakra-astrasim", header + "0,1,1\n", "", true,
         ":1:1: inputs.workload: missing: dataset kind 'chakra-astrasim' needs this input file"},
        // The sanity trace has 16 NPUs: 0 to 15.
        {"errmsg-sweep-chakra2", "chakra-astrasim", header + "16,1,1\n", inputs, false, ":2: sys_id: no NPU 16 in the trace (16 NPUs)"},
    });
}

TEST_CASE("error message: gemm datasets") {
    const std::string h100 = "preset = \"h100-ib-ndr400\"\n";
    const std::string header = "family,pass,precision,m,n,k,median_us,p10_us,p90_us\n";
    check_datasets({
        {"errmsg-sweep-gemm1", "gemm", header, "", true, ":1:1: preset: missing: the gemm kind needs a preset (the device to predict with)"},
        {"errmsg-sweep-gemm2", "gemm", header + "f,fwd,fp16,64,64,64,5,5,5\n", h100, false,
         ":2: precision: expected bf16 or fp8, got 'fp16'"},
        {"errmsg-sweep-gemm3", "gemm", header + "f,bwd,bf16,64,64,64,5,5,5\n", h100, false,
         ":2: pass: expected fwd, dgrad or wgrad, got 'bwd'"},
        {"errmsg-sweep-gemm4", "gemm", header + "f,fwd,bf16,64,64,64,0,5,5\n", h100, false, ":2: median_us: must be > 0"},
        {"errmsg-sweep-gemm5", "gemm", header + "f,fwd,bf16,64,64,64,5,6,5\n", h100, false, ":2: p90_us: must be >= p10_us"},
        {"errmsg-sweep-gemm6", "gemm", "family,pass\nf,fwd\n", h100, false, ":1: precision: missing column"},
        {"errmsg-sweep-gemm7", "gemm", header + "f,fwd,bf16,64,64,64,5,1,5\n", h100, false,
         ": p90_us: every row of group bf16/fwd (1) has p90 / p10 above 1.5: nothing measured to compare"},
    });
}

TEST_CASE("error message: validation plans run by name, and plots") {
    ValidationPlan plan;
    plan.path = "plan.toml";
    DatasetSpec spec;
    spec.name = "d";
    spec.kind = "magic";
    spec.where = {"plan.toml", 2, 1, "dataset[0]"};
    plan.datasets.push_back(spec);
    CHECK(error_of([&] { run_validation(plan, kContext); }) == "plan.toml:2:1: dataset[0]: unknown dataset kind 'magic'");

    ValidationReport report;
    GroupSummary group;
    group.dataset = "d";
    group.group = "all-reduce/8gpu";
    report.groups.push_back(group);
    // A regular file where the folder should be.
    const std::string blocker = write_temp_file("errmsg-sweep-plot-blocker", "x");
    CHECK(error_of([&] { write_group_plots(report, blocker + "/plots"); }) ==
          "--plot: cannot create directory '" + blocker + "/plots'");
    // A folder where the plot should be.
    const std::string dir = (std::filesystem::temp_directory_path() / "dtcalc-tests" / "errmsg-sweep-plots").string();
    const std::string taken = dir + "/" + group_plot_file_name(group);
    std::filesystem::create_directories(taken);
    CHECK(error_of([&] { write_group_plots(report, dir); }) == "--plot: cannot write '" + taken + "'");
}
