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
using dtcalc::testing::check_errors;
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
        {"memory_limit = \"lots\"\n", "spec.toml:1:16: memory_limit: expected a memory size with its unit: 80GiB (80 x 2^30 bytes) or 80GB (80 x 10^9 bytes), got 'lots'"},
        {"memory_limit = \"0\"\n", "spec.toml:1:16: memory_limit: expected a memory size with its unit: 80GiB (80 x 2^30 bytes) or 80GB (80 x 10^9 bytes), got '0'"},
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
          "spec.toml:4:8: constraints.npus: filtering more than 10^9 combinations by npus; narrow the ranges of dp, tp, pp "
          "and cp");
    // The same constraint given on the command line is named as its flag.
    SweepSpec spec = spec_of("dp = \"1..1000000+1\"\ntp = \"1..2000+1\"\n");
    spec.npus = 64;
    spec.npus_where = {"--npus", 0, 0, ""};
    CHECK(error_of([&] { DesignSpace{spec}; }) ==
          "--npus: filtering more than 10^9 combinations by npus; narrow the ranges of dp, tp, pp and cp");
}

TEST_CASE("error message: dtcalc sweep flags checked by the sweep") {
    const std::string head = "sweep --model gpt2 --preset lab-system1 --quiet ";
    check_errors({
        {head + "--schedule zb", "--schedule: expected gpipe, 1f1b or interleaved, got 'zb'"},
        {head + "--dp 1..1000000+1 --tp 1..1000000+1 --pp 1,2", "--pp: the sweep has more than 2^40 points; split it"},
        // lab-system1 has 3 dimensions: 0, 1 and 2.
        {head + "--dim3-bandwidth 100", "--dim3-bandwidth: the network has 3 dimension(s), numbered from 0"},
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
    CHECK(batch_error("tp,model\n1,no-such-model\n").starts_with("rows.csv:2: model: no model named 'no-such-model' (known: "));
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
    check_errors({{"sweep --model gpt2 --preset lab-system1 --quiet --input " + rows,
                rows + ": no header line: the first line names the columns"}});
}
