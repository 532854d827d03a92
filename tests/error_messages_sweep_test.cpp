// Error messages of sweeps (spec files, value expressions, constraint rules,
// the design space, batch CSV rows), of `dtcalc validate`'s plans and
// datasets, and of the collective engine (the system's algorithms against the
// group a collective runs on, the nccl backend's network, grids, links). Each
// case pins the whole message, or the part dtcalc writes when it quotes an
// operating-system message: location (file:line:column, key, flag or row)
// and detail. Expected texts are written from the sources' rules and the
// inputs below, never copied from a run.
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

SweepSpec spec_of(const std::string& toml) { return read_sweep_spec(parse_toml_text(toml, "spec.toml"), ""); }

struct TextCase {
    std::string input;
    std::string expected;
};

void check_cli(const std::vector<TextCase>& cases) {
    for (const TextCase& c : cases) {
        CAPTURE(c.input);
        const Run r = run_dtcalc(c.input);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + c.expected + "\n");
    }
}

}  // namespace

// ---------------------------------------------------------------------------
// Sweep specs: the file's structure, values and rules.
// ---------------------------------------------------------------------------

TEST_CASE("error message: sweep spec structure") {
    const std::vector<TextCase> cases = {
        // memory-limit and memory_limit are one parameter.
        // The reader keeps a table's keys sorted: memory-limit comes first.
        {"memory_limit = \"80GiB\"\nmemory-limit = \"40GiB\"\n", "spec.toml:1:16: memory_limit: given twice (also at line 2)"},
        {"constraints = 5\n", "spec.toml:1:15: constraints: expected a table of constraints (npus, memory_limit, rules)"},
        {"case = 5\n", "spec.toml:1:8: case: expected [[case]] tables, each a name and parameters"},
        {"case = []\n", "spec.toml:1:8: case: expected [[case]] tables, each a name and parameters"},
        {"case = [1]\n", "spec.toml:1:9: case[0]: expected a table: a case's name and parameters"},
        // A text parameter's value is checked where it is given.
        {"schedule = \"zb\"\n", "spec.toml:1:12: schedule: expected gpipe, 1f1b or interleaved, got 'zb'"},
        {"precision = \"fp4\"\n", "spec.toml:1:13: precision: expected bf16 or fp8, got 'fp4'"},
        {"order = \"tp,dp\"\n",
         "spec.toml:1:9: order: expected the five axes tp, cp, ep, dp, pp once each, innermost first, got 'tp,dp'"},
        {"backend = \"fast\"\n", "spec.toml:1:11: backend: expected astra-unaware, astra-aware or nccl, got 'fast'"},
        {"memory_limit = \"lots\"\n", "spec.toml:1:16: memory_limit: expected a size like 80GiB, got 'lots'"},
        {"memory_limit = \"0\"\n", "spec.toml:1:16: memory_limit: expected a size like 80GiB, got '0'"},
    };
    for (const TextCase& c : cases) {
        CAPTURE(c.input);
        CHECK(error_of([&] { spec_of(c.input); }) == c.expected);
    }
    // A spec whose root is no table (only a reader that is not TOML can give one).
    ConfigValue list;
    list.type = ConfigValue::Type::List;
    list.where = {"spec.json", 1, 1, ""};
    CHECK(error_of([&] { read_sweep_spec(list, ""); }) == "spec.json:1:1: expected a table of parameters");
}

TEST_CASE("error message: sweep values") {
    const std::vector<TextCase> cases = {
        // A string that is no number, a boolean, a nested list, for an integer.
        {"tp = \"x\"\n", "spec.toml:1:6: tp: expected a positive integer, got 'x'"},
        {"tp = true\n", "spec.toml:1:6: tp: expected a positive integer, got 'true'"},
        {"tp = [[1, 2]]\n", "spec.toml:1:7: tp[0]: expected a positive integer, a list of them or a range, got a list"},
        // Ranges whose ends are not numbers.
        {"tp = \"1..x\"\n", "spec.toml:1:6: tp: expected a range like 1..64, 8..64+8 or 0.5..4*2, got '1..x'"},
        {"gbs = \"..8\"\n", "spec.toml:1:7: gbs: expected a range like 1..64, 8..64+8 or 0.5..4*2, got '..8'"},
    };
    for (const TextCase& c : cases) {
        CAPTURE(c.input);
        CHECK(error_of([&] { spec_of(c.input); }) == c.expected);
    }
}

TEST_CASE("error message: sweep constraint rules") {
    const InputLocation where{"--rule", 0, 0, ""};
    const std::vector<TextCase> cases = {
        {"(tp < 8", "--rule: rule '(tp < 8': expected ')' at character 8"},
        // '.' starts a number that is not one; 1e999 is too large for a double.
        {"tp < .", "--rule: rule 'tp < .': expected a number at character 6"},
        {"tp < 1e999", "--rule: rule 'tp < 1e999': expected a number at character 6"},
        {"tp < #", "--rule: rule 'tp < #': expected a number or a name at character 6"},
    };
    for (const TextCase& c : cases) {
        CAPTURE(c.input);
        CHECK(error_of([&] { ConstraintRule::parse(c.input, where); }) == c.expected);
    }
}

TEST_CASE("error message: sweep spaces too large to walk") {
    // dp and tp: 10^6 values each; pp doubles the 10^12 points past 2^40
    // (1.0995e12). Axes are multiplied in the registry's order: dp, tp, pp.
    CHECK(error_of([] { DesignSpace(spec_of("dp = \"1..1000000+1\"\ntp = \"1..1000000+1\"\npp = [1, 2]\n")); }) ==
          "spec.toml:3:6: pp: the sweep has more than 2^40 points; split it");
    // With the npus constraint every combination is visited: 10^6 x 2000 > 10^9.
    CHECK(error_of([] { DesignSpace(spec_of("dp = \"1..1000000+1\"\ntp = \"1..2000+1\"\n[constraints]\nnpus = 64\n")); }) ==
          "constraints.npus: filtering more than 10^9 combinations by npus; narrow the ranges of dp, tp, pp and cp");
}

TEST_CASE("error message: dtcalc sweep flags checked by the sweep") {
    const std::string head = "sweep --model gpt2 --preset lab-system1 --quiet ";
    check_cli({
        {head + "--schedule zb", "--schedule: expected gpipe, 1f1b or interleaved, got 'zb'"},
        {head + "--dp 1..1000000+1 --tp 1..1000000+1 --pp 1,2", "--pp: the sweep has more than 2^40 points; split it"},
        // lab-system1 has 3 dimensions: 0, 1 and 2.
        {head + "--dim3-bandwidth 100", "dim3_bandwidth: the network has 3 dimension(s), numbered from 0"},
        // Each bandwidth scale is a system of its own, loaded up front: 10^6 is too many.
        {head + "--bandwidth-scale 1..1000000+1",
         "--bandwidth-scale: the sweep would load more than 100000 models and systems (one per combination of the "
         "values of the parameters that change them); narrow the ranges"},
        // 1000 x 101 = 101000: the second axis crosses the bound.
        {head + "--bandwidth-scale 1..1000+1 --latency-scale 1..101+1",
         "--latency-scale: the sweep would load more than 100000 models and systems (one per combination of the "
         "values of the parameters that change them); narrow the ranges"},
    });
}

// ---------------------------------------------------------------------------
// Batch mode: the CSV file and its rows.
// ---------------------------------------------------------------------------

namespace {

SweepSpec model_and_preset() {
    SweepSpec s;
    s.set(*find_parameter("model"), {{0, "gpt2"}}, {"--model", 0, 0, ""});
    s.set(*find_parameter("preset"), {{0, "lab-system1"}}, {"--preset", 0, 0, ""});
    return s;
}

std::string batch_error(const std::string& csv, SweepSpec spec = model_and_preset()) {
    return error_of([&] { BatchSweep(std::move(spec), csv, "rows.csv", kPresets, kModels, false); });
}

}  // namespace

TEST_CASE("error message: batch CSV files and rows") {
    CHECK(batch_error("tp,dp\n\"8,8\n") == "rows.csv:2: a quoted field is not closed (a '\"' is missing)");
    CHECK(batch_error("tp,dp\n\"8\"x,8\n") == "rows.csv:2: text after a closing quote; quote the whole field");
    CHECK(batch_error("") == "rows.csv: no header line: the first line names the columns");
    CHECK(batch_error("\xEF\xBB\xBF\n\n") == "rows.csv: no header line: the first line names the columns");
    CHECK(batch_error("tp,tp\n8,8\n") == "rows.csv:1: column 'tp' appears twice");
    // A row naming a model that does not exist: the row, then what loading said.
    CHECK(batch_error("tp,model\n1,no-such-model\n").starts_with("rows.csv:2: --model: no model named 'no-such-model' (known: "));
    // The spec: no cases, one value per parameter.
    SweepSpec cases = model_and_preset();
    cases.cases.push_back({"a", {}});
    CHECK(batch_error("tp\n8\n", cases) == "rows.csv: case: batch mode takes no [[case]] tables: each row is a case");
    SweepSpec two = model_and_preset();
    two.set(*find_parameter("tp"), {{1, ""}, {2, ""}}, {"--tp", 0, 0, ""});
    CHECK(batch_error("dp\n8\n", two) == "--tp: batch mode takes one value per parameter (the rows vary them), got 2");
    SweepSpec unplaced = model_and_preset();
    unplaced.set(*find_parameter("tp"), {{1, ""}, {2, ""}}, {});
    CHECK(batch_error("dp\n8\n", unplaced) == "tp: batch mode takes one value per parameter (the rows vary them), got 2");
}

TEST_CASE("error message: dtcalc sweep --input with a file of no lines") {
    const std::string rows = write_temp_file("errmsg-sweep-bom.csv", "\xEF\xBB\xBF");
    check_cli({{"sweep --model gpt2 --preset lab-system1 --quiet --input " + rows,
                rows + ": no header line: the first line names the columns"}});
}

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
    CHECK(error_of([&] { read_csv_table(quote); }) == quote + ":2: a quote inside an unquoted field");
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
        // Forcing NCCL's choice: only with an [nccl] table, and only names NCCL
        // has. The location is the [[dataset]] table's.
        {"errmsg-sweep-nccl5", "nccl-tests", kNcclHeader, lab + "algorithm = \"ring\"\n", true,
         ":1:1: algorithm: forcing an algorithm or protocol needs a preset with an [nccl] table"},
        {"errmsg-sweep-nccl6", "nccl-tests", kNcclHeader, lab + "protocol = \"LL\"\n", true,
         ":1:1: protocol: forcing an algorithm or protocol needs a preset with an [nccl] table"},
        {"errmsg-sweep-nccl7", "nccl-tests", kNcclHeader, hgx + "algorithm = \"rings\"\n", true,
         ":1:1: algorithm: expected ring, tree, nvls, nvls-tree or pat, got 'rings'"},
        {"errmsg-sweep-nccl8", "nccl-tests", kNcclHeader, hgx + "protocol = \"fast\"\n", true,
         ":1:1: protocol: expected LL, LL128 or Simple, got 'fast'"},
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
        CHECK(check_error(CollectiveKind::AllReduce, CommGroup{{4, 4, 4, 6}}, preset.system) ==
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
    check_cli({
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
    CHECK(error_of([&] { collective_time(Network{}, hgx.system, NetworkBackend::Nccl, {CollectiveKind::AllReduce, 1 << 20, CommGroup{{8}}}); }) ==
          "network: the nccl backend needs a network");
    // Two nodes, and an inter-node dimension without a bandwidth.
    Preset ib = load_preset("h100-ib-ndr400", kPresets);
    ib.network.dimensions[1].bandwidth_gbps = 0;
    CHECK(error_of([&] { collective_time(ib.network, ib.system, NetworkBackend::Nccl, {CollectiveKind::AllReduce, 1 << 20, CommGroup{{8, 2}}}); }) ==
          "network: the nccl backend needs a bandwidth for the inter-node dimension");
    check_cli({
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
