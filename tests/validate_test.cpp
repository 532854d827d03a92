// dtcalc validate: error metrics, CSV reading, the gates file, running
// datasets against gates, the writers, the SVG plots and the command's exit codes.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_dtcalc.h"
#include "core/error.h"
#include "temp_file.h"
#include "validate/csv_table.h"
#include "validate/error_metrics.h"
#include "validate/svg_plot.h"
#include "validate/validation_plan.h"
#include "validate/validation_report.h"
#include "validate/validation_run.h"
#include "input_error.h"

using dtcalc::testing::error_of;

using namespace dtcalc;
using dtcalc::testing::write_temp_file;

using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;

namespace {

const ValidationContext kContext{{DTCALC_PRESETS_DIR}, {std::string(DTCALC_PRESETS_DIR) + "/../models"}};

// A two-row nccl-tests table on hgx-h100: 8-GPU all-reduce of 1 GiB measured at
// 4000 us (dtcalc: 4003.42 us, +0.0855 %) and all-gather of 1 GiB at 2500 us
// (dtcalc: 2688.59 us, +7.54 %); see tests/nccl_model_test.cpp for both.
std::string tiny_dataset() {
    return write_temp_file("tiny_nccl.csv",
                           "source_url,gpus,nodes,collective,size_bytes,time_us\n"
                           "here,8,1,all_reduce_perf,1073741824,4000\n"
                           "\"there, quoted\",8,1,all_gather_perf,1073741824,2500\n");
}

std::string tiny_plan(const std::string& gates) {
    const std::string csv = tiny_dataset();
    return write_temp_file("tiny_gates.toml", "[[dataset]]\nname = \"tiny\"\nkind = \"nccl-tests\"\nfile = \"" + csv +
                                                  "\"\npreset = \"hgx-h100\"\n\n" + gates);
}

}  // namespace

TEST_CASE("error metrics") {
    const std::array<double, 4> errors{0.01, 0.04, 0.02, 0.08};
    // geomean: (0.01 x 0.04 x 0.02 x 0.08)^(1/4) = (6.4e-7)^(1/4) = 0.028284
    CHECK(summarize_errors(ErrorMetric::Geomean, errors) == doctest::Approx(0.0282843).epsilon(1e-5));
    CHECK(summarize_errors(ErrorMetric::Median, errors) == doctest::Approx(0.03));  // (0.02 + 0.04) / 2
    CHECK(summarize_errors(ErrorMetric::Max, errors) == 0.08);
    CHECK(summarize_errors(ErrorMetric::Mean, errors) == doctest::Approx(0.0375));
    const std::array<double, 3> odd{0.3, 0.1, 0.2};
    CHECK(summarize_errors(ErrorMetric::Median, odd) == 0.2);
    const std::array<double, 2> exact{0.0, 0.5};
    CHECK(summarize_errors(ErrorMetric::Geomean, exact) == 0.0);
    CHECK(summarize_errors(ErrorMetric::Max, std::span<const double>{}) == 0.0);
    CHECK(relative_error(110, 100) == doctest::Approx(0.1));
    CHECK(relative_error(90, 100) == doctest::Approx(0.1));
    CHECK(parse_error_metric("median") == ErrorMetric::Median);
    CHECK_FALSE(parse_error_metric("rms"));
}

TEST_CASE("group patterns") {
    CHECK(group_matches("*", "all-reduce/8gpu/1node"));
    CHECK(group_matches("*/8gpu/1node", "all-reduce/8gpu/1node"));
    CHECK_FALSE(group_matches("*/8gpu/1node", "all-reduce/80gpu/10node"));
    CHECK(group_matches("all-to-all/*", "all-to-all/2gpu/2node"));
    CHECK(group_matches("a*b*c", "aXXbYYc"));
    CHECK_FALSE(group_matches("a*b*c", "aXXbYY"));
    CHECK(group_matches("exact", "exact"));
    CHECK_FALSE(group_matches("exact", "exactly"));
}

TEST_CASE("CSV tables: quotes, blank lines, and errors with file and line") {
    const std::string good = write_temp_file("good.csv", "a,b,c\n1,\"x, \"\"y\"\"\",3\n\n4,5,6\n");
    const CsvTable t = read_csv_table(good);
    REQUIRE(t.rows.size() == 2);
    CHECK(t.rows[0][1] == "x, \"y\"");
    CHECK(t.lines[1] == 4);
    CHECK(t.number(1, t.column("c")) == 6);
    CHECK(error_of([&] { t.column("d"); }) == good + ":1: d: missing column");
    CHECK(error_of([&] { t.number(0, 1); }) == good + ":2: b: expected a number, got 'x, \"y\"'");

    const std::string ragged = write_temp_file("ragged.csv", "a,b\n1,2\n3\n");
    CHECK(error_of([&] { read_csv_table(ragged); }) == ragged + ":3: expected 2 fields like the header, got 1");
    const std::string open = write_temp_file("open.csv", "a,b\n1,\"2\n");
    CHECK(error_of([&] { read_csv_table(open); }) == open + ":2: a quoted field is not closed (a '\"' is missing)");
}

TEST_CASE("the gates file: errors name file, line and key") {
    SUBCASE("unknown kind") {
        const std::string path =
            write_temp_file("g1.toml", "[[dataset]]\nname = \"a\"\nkind = \"magic\"\nfile = \"x.csv\"\n");
        CHECK(error_of([&] { load_validation_plan(path); }) ==
              path +
                  ":3:8: dataset[0].kind: unknown dataset kind 'magic' (known: nccl-tests, astrasim-hgx, "
                  "astrasim-reference, training, chakra-astrasim, gemm, output-layer)");
    }
    SUBCASE("a gate naming no dataset") {
        const std::string path = write_temp_file(
            "g2.toml",
            "[[dataset]]\nname = \"a\"\nkind = \"nccl-tests\"\nfile = \"x.csv\"\n\n[[gate]]\ndataset = \"b\"\n"
            "group = \"*\"\nmetric = \"geomean\"\nbound = 0.05\n");
        CHECK(error_of([&] { load_validation_plan(path); }) ==
              path + ":7:11: gate[0].dataset: no [[dataset]] named 'b'");
    }
    SUBCASE("a bound given in percent") {
        const std::string path = write_temp_file(
            "g3.toml",
            "[[dataset]]\nname = \"a\"\nkind = \"nccl-tests\"\nfile = \"x.csv\"\n\n[[gate]]\ndataset = \"a\"\n"
            "group = \"*\"\nmetric = \"geomean\"\nbound = 50\n");
        CHECK(error_of([&] { load_validation_plan(path); }) ==
              path + ":10:9: gate[0].bound: a bound is a fraction (0.05 = 5 %), got 50");
    }
    SUBCASE("a file relative to the gates file") {
        const std::string path =
            write_temp_file("g4.toml",
                            "[[dataset]]\nname = \"a\"\nkind = \"nccl-tests\"\nfile = \"sub/x.csv\"\n\n"
                            "[[gate]]\ndataset = \"a\"\ngroup = \"*\"\nmetric = \"max\"\nbound = 0.1\n");
        const ValidationPlan plan = load_validation_plan(path);
        CHECK(plan.datasets[0].file == (std::filesystem::path(path).parent_path() / "sub/x.csv").string());
        CHECK(plan.gates[0].metric == ErrorMetric::Max);
    }
}

TEST_CASE("a run summarises each group and checks its gates") {
    const std::string plan_path = tiny_plan(
        "[[gate]]\ndataset = \"tiny\"\ngroup = \"all-reduce/*\"\nmetric = \"max\"\nbound = 0.01\n\n"
        "[[gate]]\ndataset = \"tiny\"\ngroup = \"all-gather/8gpu/1node\"\nmetric = \"geomean\"\nbound = 0.05\n\n"
        "[[gate]]\ndataset = \"tiny\"\ngroup = \"send-recv/*\"\nmetric = \"max\"\nbound = 0.5\n");
    const ValidationReport report = run_validation(load_validation_plan(plan_path), kContext);
    REQUIRE(report.cases.size() == 2);
    CHECK(report.cases[0].group == "all-reduce/8gpu/1node");
    CHECK(report.cases[0].model == "nvls/Simple");
    CHECK(report.cases[1].source == "there, quoted");
    // 4034.26118 / 4000 - 1 = 0.008565; 2676.9417 / 2500 - 1 = 0.070777
    // (nccl_model_test.cpp works both out)
    CHECK(report.cases[0].error() == doctest::Approx(0.00856530).epsilon(1e-6));
    CHECK(report.cases[1].error() == doctest::Approx(0.0707767).epsilon(1e-6));
    REQUIRE(report.groups.size() == 2);
    CHECK(report.groups[1].geomean == doctest::Approx(0.0707767).epsilon(1e-6));
    REQUIRE(report.groups[0].gates.size() == 1);
    CHECK(report.groups[0].gates[0].passed);
    REQUIRE(report.groups[1].gates.size() == 1);
    CHECK_FALSE(report.groups[1].gates[0].passed);
    REQUIRE(report.unmatched_gates.size() == 1);
    CHECK(report.unmatched_gates[0] == "tiny send-recv/*");
    CHECK(report.gates_checked == 2);
    CHECK(report.gates_failed == 2);  // the exceeded bound and the gate that matched nothing
    CHECK_FALSE(report.passed());

    std::ostringstream table, summary, csv, json;
    write_validation_table(table, report, true);
    write_validation_table(summary, report);
    write_validation_csv(csv, report);
    write_validation_json(json, report);
    CHECK(table.str().find("FAIL: 2 gates checked, 2 failed") != std::string::npos);
    CHECK(table.str().find("+7.08%") != std::string::npos);  // a case's signed error
    // By default the summary, then the verdict; the cases only when asked for,
    // after the summary.
    CHECK(summary.str().find("# summary per group") != std::string::npos);
    CHECK(summary.str().find("+7.08%") == std::string::npos);
    CHECK(summary.str().find("FAIL: 2 gates checked, 2 failed") != std::string::npos);
    CHECK(table.str().find("# summary per group") < table.str().find("+7.08%"));
    CHECK(csv.str().find(
              "dataset,group,case,x,measured,predicted,unit,error,model,reference,reference_error,source\n") == 0);
    CHECK(csv.str().find("\"there, quoted\"") != std::string::npos);
    const auto doc = nlohmann::json::parse(json.str());
    CHECK(doc["passed"] == false);
    CHECK(doc["groups"].size() == 2);
    CHECK(doc["cases"][1]["model"] == "ring/Simple");
    CHECK(doc["unmatched_gates"][0] == "tiny send-recv/*");

    CHECK(error_of([&] { run_validation(load_validation_plan(plan_path), kContext, {"nope"}); }) ==
          "--dataset: no dataset named 'nope' in " + plan_path);
}

TEST_CASE("one SVG per group, with measured points, the prediction and the verdict") {
    const ValidationReport report =
        run_validation(load_validation_plan(
                           tiny_plan("[[gate]]\ndataset = \"tiny\"\ngroup = \"*\"\nmetric = \"max\"\nbound = 0.05\n")),
                       kContext);
    const std::string dir = (std::filesystem::temp_directory_path() / "dtcalc-tests" / "plots").string();
    std::filesystem::remove_all(dir);
    const std::vector<std::string> files = write_group_plots(report, dir);
    REQUIRE(files.size() == 2);
    CHECK(std::filesystem::path(files[0]).filename() == "tiny__all-reduce_8gpu_1node.svg");
    std::ifstream in(files[1]);
    std::stringstream svg;
    svg << in.rdbuf();
    const std::string text = svg.str();
    CHECK(text.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(text.find("tiny / all-gather/8gpu/1node: 1 cases, geomean 7.08%, max 7.08%, max &lt;= 5.0% FAIL") !=
          std::string::npos);
    CHECK(text.find("<circle") != std::string::npos);
    CHECK(text.find(">dtcalc</text>") != std::string::npos);  // the prediction's legend (one case: a dash, no polyline)
    CHECK(text.find(">1 GiB<") != std::string::npos);
    CHECK(text.find("nan") == std::string::npos);
    CHECK(text.find("inf") == std::string::npos);
}

TEST_CASE("the shipped gates file loads and every gate matches a group") {
    const ValidationPlan plan = load_validation_plan(std::string(DTCALC_VALIDATION_DIR) + "/gates.toml");
    CHECK(plan.datasets.size() >= 3);
    const ValidationReport report =
        run_validation(plan, kContext, {"nccl-h100", "astrasim-hgx-h100", "astrasim-reference"});
    CHECK(report.unmatched_gates.empty());
    std::size_t nccl = 0, hgx = 0, reference = 0;
    for (const ValidationCase& c : report.cases) {
        nccl += c.dataset == "nccl-h100";
        hgx += c.dataset == "astrasim-hgx-h100";
        reference += c.dataset == "astrasim-reference";
        CHECK(std::isfinite(c.predicted));
    }
    CHECK(nccl == 162);      // every row of h100_nccl_tests.csv
    CHECK(hgx == 18);        // 6 measured points at each of 2, 4, 8 GPUs
    CHECK(reference == 96);  // every ASTRA-sim reference run
}

TEST_CASE("dtcalc validate exits 0 when every bound holds, 1 when one is exceeded, 2 on bad input") {
    const Run pass = run_dtcalc(
        "validate --gates " +
        tiny_plan("[[gate]]\ndataset = \"tiny\"\ngroup = \"*\"\nmetric = \"max\"\nbound = 0.1\n") + " --format json");
    CHECK(pass.exit_code == 0);
    CHECK(nlohmann::json::parse(pass.out)["passed"] == true);
    const Run fail =
        run_dtcalc("validate --gates " +
                   tiny_plan("[[gate]]\ndataset = \"tiny\"\ngroup = \"*\"\nmetric = \"max\"\nbound = 0.01\n"));
    CHECK(fail.exit_code == 1);
    CHECK(fail.out.find("FAIL: 2 gates checked, 1 failed") != std::string::npos);
    const Run bad = run_dtcalc("validate --gates /nonexistent/gates.toml");
    CHECK(bad.exit_code == 2);
    CHECK(bad.out == "dtcalc: error: /nonexistent/gates.toml: cannot open file\n");
}

TEST_CASE("rows of 0 bytes are left out, and the group says why") {
    // nccl-tests prints a row of size 0 for each size below one element per
    // rank (all-gather of 8-32 B of floats on 8 GPUs); NCCL discards an empty
    // collective (src/enqueue.cc, taskAppend), so there is nothing to predict:
    // the 1 GiB row stays (2676.94 us, as in "a run summarises each group").
    const std::string csv = write_temp_file("zero_rows.csv",
                                            "source_url,gpus,nodes,collective,size_bytes,time_us\n"
                                            "here,8,1,all_gather_perf,0,0.54\n"
                                            "here,8,1,all_gather_perf,0,0.56\n"
                                            "here,8,1,all_gather_perf,1073741824,2500\n");
    const std::string plan = write_temp_file("zero_rows.toml", "[[dataset]]\nname = \"z\"\nkind = \"nccl-tests\"\nfile = \"" +
                                                                   csv + "\"\npreset = \"hgx-h100\"\n\n[[gate]]\ndataset = \"z\"\ngroup = \"*\"\n"
                                                                   "metric = \"max\"\nbound = 0.1\n");
    const ValidationReport report = run_validation(load_validation_plan(plan), kContext);
    REQUIRE(report.cases.size() == 1);
    CHECK(report.cases[0].predicted == doctest::Approx(2676.9417).epsilon(1e-6));
    REQUIRE(report.groups.size() == 1);
    CHECK(report.groups[0].note.find("2 rows of 0 bytes left out") != std::string::npos);
    CHECK(report.groups[0].note.find("NCCL discards an empty collective") != std::string::npos);
}
