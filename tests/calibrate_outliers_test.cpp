// `dtcalc calibrate`'s rows that disagree (calibrate/row_consensus.h): runs of
// one collective, shape and size 2x or more apart are contradictory when no
// majority agrees, outliers beside one that does; each left out of the fit
// and listed. Expected values are worked out by hand in each case.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "calibrate/calibration.h"
#include "calibrate/calibration_report.h"
#include "calibrate_fixtures.h"
#include "config/config_readers.h"
#include "run_dtcalc.h"
#include "temp_file.h"
#include "validate/nccl_tests_csv.h"

using namespace dtcalc;
using namespace dtcalc::testing;

TEST_CASE("contradictory rows are listed and left out, not averaged") {
    std::vector<NcclMeasurement> rows = read_nccl_tests_csv(kCsv);
    const std::size_t n = rows.size();
    NcclMeasurement slow = rows.front();  // 8-GPU all-reduce, 32 MiB, 182.87 us
    slow.time_us *= 2.5;
    slow.where.line = 999;
    rows.push_back(slow);
    NcclMeasurement close = rows[1];  // a repeat 10 % slower is a measurement, not a contradiction
    close.time_us *= 1.1;
    rows.push_back(close);
    CalibrationOptions options;
    options.leave_one_group_out = false;
    const CalibrationResult r = calibrate_preset(read_toml_file(kPreset), kPreset, rows, options);
    REQUIRE(r.contradictions.size() == 1);
    CHECK(r.contradictions[0].group == "all-reduce/8gpu/1node");
    CHECK(r.contradictions[0].bytes == 33554432);
    CHECK(r.contradictions[0].ratio == doctest::Approx(2.5));
    CHECK(r.contradictions[0].rows.size() == 2);
    CHECK(r.rows_read == n + 2);
    CHECK(r.rows_used == n);  // both 32 MiB rows out, the 10 % repeat in
    CHECK(group(r, "all-reduce/8gpu/1node").before.rows == 10);
}

TEST_CASE("a run 2x or more from others that agree is an outlier: left out alone, named by its file") {
    // Three runs of the 8-GPU all-reduce at 32 MiB (182.87 us in the table): a
    // repeat 5 % slower agrees (1.05 < 2), one 2.5x slower does not; two of
    // three agree, so it alone is left out, beside their median (182.87 +
    // 192.0135) / 2 = 187.44175 us: 457.175 / 187.44175 = 2.439x.
    std::vector<NcclMeasurement> rows = read_nccl_tests_csv(kCsv);
    const std::size_t n = rows.size();
    NcclMeasurement repeat = rows.front();
    repeat.time_us *= 1.05;
    repeat.where = {"pair-a.log", 12, 0, ""};
    NcclMeasurement slow = rows.front();
    slow.time_us *= 2.5;
    slow.where = {"pair-b.log", 12, 0, ""};
    rows.push_back(repeat);
    rows.push_back(slow);
    CalibrationOptions options;
    options.leave_one_group_out = false;
    const CalibrationResult r = calibrate_preset(read_toml_file(kPreset), kPreset, rows, options);
    CHECK(r.contradictions.empty());
    REQUIRE(r.outliers.size() == 1);
    CHECK(r.outliers[0].where.file == "pair-b.log");
    CHECK(r.outliers[0].group == "all-reduce/8gpu/1node");
    CHECK(r.outliers[0].bytes == 33554432);
    CHECK(r.outliers[0].measured == doctest::Approx(457.175));
    CHECK(r.outliers[0].others_median == doctest::Approx(187.44175));
    CHECK(r.rows_used == n + 1);  // the repeat in, the outlier out
    CHECK(group(r, "all-reduce/8gpu/1node").before.rows == 11);

    std::ostringstream table;
    write_calibration_table(table, {}, r);
    CHECK(table.str().find("outlier rows (2x or more from the runs of their collective, shape and size, or training "
                           "case and metric, that agree), left out of the fit:\n"
                           "  pair-b.log: 1 row (line 12), 2.44x the others' median: all-reduce/8gpu/1node\n") !=
          std::string::npos);
    std::ostringstream json;
    write_calibration_json(json, {}, r);
    CHECK(json.str().find("\"outliers\": [\n    {\"file\": \"pair-b.log\", \"line\": 12, \"group\": "
                          "\"all-reduce/8gpu/1node\", \"size_bytes\": 33554432, \"label\": \"33554432 B\", \"unit\": "
                          "\"us\", \"measured\": 457.175, \"others_median\": 187.442}\n  ]") != std::string::npos);
}

TEST_CASE("calibrate on a folder of node pairs names the pair whose runs are outliers, once, by its log") {
    // Three pairs' send/recv logs, 4, 8 and 16 GiB; pair-c's link runs at a
    // quarter of the rate (times x 4, bandwidths / 4: 4294967296 B / 392677 us
    // = 10.94 GB/s). At each size two of three runs agree and pair-c's is 4x
    // their median (392677 / 98169.3 = 4.000), so its three rows are outliers.
    const std::string log = std::string(DTCALC_TEST_DATA_DIR) + "/nccl-tests/sendrecv_perf_N2_G1.log";
    std::ifstream in(log);
    const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string slow = good;
    auto swap = [&](const std::string& from, const std::string& to) {
        for (std::size_t at = slow.find(from); at != std::string::npos; at = slow.find(from, at + to.size()))
            slow.replace(at, from.size(), to);
    };
    swap("98169.3   43.75   43.75", "392677   10.94   10.94");
    swap("196355   43.75   43.75", "785420   10.94   10.94");
    swap("392397   43.78   43.78", "1569588   10.95   10.95");
    dtcalc::testing::write_temp_file("calibrate-pairs/pair-a/sendrecv_perf.log", good);
    dtcalc::testing::write_temp_file("calibrate-pairs/pair-b/sendrecv_perf.log", good);
    const std::string c = dtcalc::testing::write_temp_file("calibrate-pairs/pair-c/sendrecv_perf.log", slow);
    const std::string dir = std::filesystem::path(c).parent_path().parent_path().string();
    const auto run = run_dtcalc("calibrate --preset h100-ib-ndr400 " + dir + " --no-leave-one-out", false);
    CHECK(run.exit_code == 0);
    CHECK(run.out.find("outlier rows (2x or more from the runs of their collective, shape and size, or training case "
                       "and metric, that agree), left out of the fit:\n  " + c +
                       ": 3 rows (lines 10-12), 4x the others' median: send-recv/2gpu/2node\n") != std::string::npos);
    CHECK(run.out.find("contradictory") == std::string::npos);
}
