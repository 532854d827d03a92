// dtcalc calibrate: the log-space search, recovery of known constants from
// data the model generated with noise, the refusals (too few rows,
// contradictory rows, bad splits), the [calibration] table's checks, and the
// written preset read back by predict and collective.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "calibrate/calibration.h"
#include "calibrate/log_space_search.h"
#include "calibrate/preset_writer.h"
#include "config/calibration_table.h"
#include "config/config_readers.h"
#include "config/preset.h"
#include "input_error.h"
#include "run_dtcalc.h"
#include "temp_file.h"
#include "validate/nccl_tests_csv.h"

using namespace dtcalc;
using dtcalc::testing::error_of;

namespace {

// The shipped preset with every table stated (the shipped file is composed of the
// hardware catalogue; tests/fixtures/expanded-presets holds it expanded).
const std::string kPreset = std::string(DTCALC_PRESETS_DIR) + "/../tests/fixtures/expanded-presets/h100-ib-ndr400.toml";
const std::string kCsv = std::string(DTCALC_VALIDATION_DIR) + "/nccl/h100_nccl_tests.csv";

// Rows on the shapes and collectives of the visible tables, sizes 8 B to
// 16 GiB by 2x (nccl-tests' -b 8 -e 16G -f 2), timed by the model with
// `truth` set in the preset, each time then scaled by 1 + noise x s with s a
// fixed sequence spread evenly over [-1, 1].
std::vector<NcclMeasurement> generated_rows(const std::vector<std::pair<std::string, double>>& truth, double noise) {
    ConfigValue root = read_toml_file(kPreset);
    for (const auto& [key, value] : truth) {
        ConfigValue* leaf = find_config_path(root, key);
        REQUIRE(leaf != nullptr);
        leaf->number = value;
    }
    const Preset preset = preset_from_config(root, kPreset);
    std::vector<NcclMeasurement> rows;
    int k = 0;
    for (const auto [nodes, gpn] : {std::pair{1, 4}, std::pair{1, 8}, std::pair{2, 1}, std::pair{2, 8}, std::pair{10, 8}})
        for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                                    CollectiveKind::AllToAll, CollectiveKind::SendRecv})
            for (std::uint64_t bytes = 8; bytes <= (16ull << 30); bytes *= 2) {
                NcclMeasurement m;
                m.kind = kind;
                m.nodes = nodes;
                m.gpus_per_node = gpn;
                m.bytes = bytes;
                m.where = {"generated", ++k, 0, ""};
                const double s = static_cast<double>((k * 7919) % 201 - 100) / 100.0;
                m.time_us = predict_nccl_measurement(preset, {}, m).time_ns / 1000.0 * (1 + noise * s);
                rows.push_back(m);
            }
    return rows;
}

const ConstantFit& constant(const CalibrationResult& r, const std::string& key) {
    for (const ConstantFit& c : r.constants)
        if (c.key == key) return c;
    FAIL("no constant " << key);
    return r.constants.front();
}

const GroupFit& group(const CalibrationResult& r, const std::string& name) {
    for (const GroupFit& g : r.groups)
        if (g.group == name) return g;
    FAIL("no group " << name);
    return r.groups.front();
}

}  // namespace

TEST_CASE("log-space search: finds a minimum inside the box, stops at a bound outside it, deterministically") {
    // f = ln(x/3)^2 + ln(y/0.2)^2: minimum at x = 3, y = 0.2.
    const auto f = [](const std::vector<double>& v, int) {
        return std::pow(std::log(v[0] / 3), 2) + std::pow(std::log(v[1] / 0.2), 2);
    };
    const LogSearchResult r = minimize_in_log_box(f, {1, 1}, {0.5, 0.01}, {10, 2}, {true, true});
    CHECK(r.values[0] == doctest::Approx(3).epsilon(1e-6));
    CHECK(r.values[1] == doctest::Approx(0.2).epsilon(1e-6));
    // The same minimum outside the box ([4, 10] for x): the search stops at x = 4.
    const LogSearchResult bounded = minimize_in_log_box(f, {5, 1}, {4, 0.01}, {10, 2}, {true, true});
    CHECK(bounded.values[0] == doctest::Approx(4).epsilon(1e-9));
    // A coordinate that is not free stays.
    const LogSearchResult fixed = minimize_in_log_box(f, {1, 1}, {0.5, 0.01}, {10, 2}, {false, true});
    CHECK(fixed.values[0] == 1);
    const LogSearchResult again = minimize_in_log_box(f, {1, 1}, {0.5, 0.01}, {10, 2}, {true, true});
    CHECK(again.values == r.values);
    CHECK(again.evaluations == r.evaluations);
}

TEST_CASE("fitted values are written with 4 significant digits, within their bounds") {
    CHECK(written_value(0.747834, false, 0.5, 1) == doctest::Approx(0.7478).epsilon(1e-12));
    CHECK(written_value(15.2149, false, 4, 50) == doctest::Approx(15.21).epsilon(1e-12));
    CHECK(written_value(712934.6, true, 32768, 4194304) == 712900);
    CHECK(written_value(0.99996, false, 0.5, 1) == 1);  // 1.000 rounds to the bound, not above
}

TEST_CASE("recovery: data the model made with known constants gives them back, within 2 % under 3 % noise") {
    // Known constants, each away from the preset's value (0.747, 0.911, 15.24, 712900).
    const std::vector<std::pair<std::string, double>> truth = {
        {"nccl.alltoall-nvlink-efficiency", 0.82},
        {"nccl.network-p2p-efficiency", 0.85},
        {"nccl.p2p.network-channel-bandwidth", 18.0},
        {"nccl.protocol.nvls-pipeline-bytes", 450000},
    };
    CalibrationOptions options;
    options.leave_one_group_out = false;
    const ConfigValue shipped = read_toml_file(kPreset);
    SUBCASE("without noise every constant comes back (to the 4 digits it is written with)") {
        const CalibrationResult r = calibrate_preset(shipped, kPreset, generated_rows(truth, 0.0), options);
        for (const auto& [key, value] : truth) {
            CAPTURE(key);
            CHECK(constant(r, key).fitted);
            CHECK(std::abs(constant(r, key).after / value - 1) < 0.001);
        }
    }
    SUBCASE("with 3 % noise the three data rates come back within 2 %") {
        const CalibrationResult r = calibrate_preset(shipped, kPreset, generated_rows(truth, 0.03), options);
        for (const auto& [key, value] : truth) {
            CAPTURE(key);
            const ConstantFit& c = constant(r, key);
            CHECK(c.fitted);
            // The NVLS pipeline fill is weakly pinned: it changes only the
            // 8-GPU all-reduce rows from 8 MiB up (14 of 800), and halving it
            // moves them by 11 % at most (8 MiB: 86.7 -> 76.8 us), so 3 % noise
            // on each row moves the fitted value by about 3 % (4.4 % here).
            const double bound = key == "nccl.protocol.nvls-pipeline-bytes" ? 0.05 : 0.02;
            CHECK(std::abs(c.after / value - 1) < bound);
        }
        CHECK(r.objective_after < r.objective_before);
        for (const GroupFit& g : r.groups) {
            CAPTURE(g.group);
            CHECK(g.after.max < 0.06);  // every row within the noise, give or take the fit's own error
        }
    }
}

TEST_CASE("a constant with too few rows keeps its value and says why") {
    std::vector<NcclMeasurement> rows = read_nccl_tests_csv(kCsv);
    // Single-node rows only: no row depends on the network's rates.
    std::erase_if(rows, [](const NcclMeasurement& m) { return m.nodes > 1; });
    const CalibrationResult r = calibrate_preset(read_toml_file(kPreset), kPreset, rows, {});
    const ConstantFit& nic = constant(r, "nccl.network-p2p-efficiency");
    CHECK_FALSE(nic.fitted);
    CHECK(nic.after == nic.before);
    CHECK(nic.rows == 0);
    CHECK(nic.reason == "changes no row of the data: none of these measurements depends on it");
    // Held out, the multi-node rows are named as the only ones it changes.
    const CalibrationResult split =
        calibrate_preset(read_toml_file(kPreset), kPreset, read_nccl_tests_csv(kCsv), [] {
            CalibrationOptions o;
            o.fit_groups = {"*/1node"};
            o.check_groups = {"send-recv/80gpu/10node"};
            o.leave_one_group_out = false;
            return o;
        }());
    const ConstantFit& channel = constant(split, "nccl.p2p.network-channel-bandwidth");
    CHECK_FALSE(channel.fitted);
    CHECK(channel.reason.starts_with("changes no fitted row, only rows of all-to-all/80gpu/10node, send-recv/80gpu/10node"));
    CHECK(group(split, "send-recv/80gpu/10node").role == GroupRole::Check);
    CHECK(group(split, "all-to-all/2gpu/2node").role == GroupRole::Unused);
    // 8-GPU all-reduce is the only group NVLS's pipeline fill changes: with
    // two of its rows the constant is not fitted (3 needed).
    std::vector<NcclMeasurement> few = read_nccl_tests_csv(kCsv);
    int kept = 0;
    std::erase_if(few, [&](const NcclMeasurement& m) {
        if (m.kind != CollectiveKind::AllReduce || m.gpus() != 8) return false;
        return ++kept > 2;
    });
    CalibrationOptions no_logo;
    no_logo.leave_one_group_out = false;
    const CalibrationResult r2 = calibrate_preset(read_toml_file(kPreset), kPreset, few, no_logo);
    const ConstantFit& nvls = constant(r2, "nccl.protocol.nvls-pipeline-bytes");
    CHECK_FALSE(nvls.fitted);
    CHECK(nvls.reason == "changes only 2 fitted row(s); fitting it needs 3");
}

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

TEST_CASE("--fit and --check: patterns that match nothing or overlap are errors") {
    const std::vector<NcclMeasurement> rows = read_nccl_tests_csv(kCsv);
    const ConfigValue root = read_toml_file(kPreset);
    CalibrationOptions o;
    o.fit_groups = {"*/3node"};
    CHECK(error_of([&] { calibrate_preset(root, kPreset, rows, o); }).starts_with(
        "--fit: '*/3node' matches no group of the data (groups: all-reduce/8gpu/1node, "));
    o.fit_groups = {"*/1node"};
    o.check_groups = {"all-to-all/*"};
    CHECK(error_of([&] { calibrate_preset(root, kPreset, rows, o); }) ==
          "--check: group all-to-all/8gpu/1node is matched by --fit too; a group is fitted or checked, not both");
    o.fit_groups = {};
    o.check_groups = {"*"};
    CHECK(error_of([&] { calibrate_preset(root, kPreset, rows, o); }) ==
          "--check: holds out every group: nothing is left to fit");
    const ConfigValue plain = read_toml_file(std::string(DTCALC_PRESETS_DIR) + "/lab-system1.toml");
    CHECK(error_of([&] { calibrate_preset(plain, "lab-system1.toml", rows, {}); }) ==
          "--preset: lab-system1.toml marks no constant as calibrated: it has no [calibration] table of \"key\" = "
          "[low, high]");
}

TEST_CASE("[calibration]: every entry names a number of the preset, bounds hold its value") {
    const std::string base = read_text_file(kPreset);
    auto error_with = [&](const std::string& table) {
        const std::string text = base.substr(0, base.find("[calibration]")) + "[calibration]\n" + table;
        return error_of([&] { preset_from_config(parse_toml_text(text, "p.toml"), "p.toml"); });
    };
    CHECK(error_with("\"nccl.no-such-key\" = [1, 2]\n").ends_with(
        "calibration.nccl.no-such-key: names no key of this preset (expected a dotted path like \"nccl.p2p.latency-us\")"));
    CHECK(error_with("\"nccl.hardware.cpu-vendor\" = [1, 2]\n").ends_with(
        "'nccl.hardware.cpu-vendor' is a string; only a single number can be calibrated"));
    CHECK(error_with("\"nccl.network-p2p-efficiency\" = [1.0, 0.5]\n").ends_with("expected low < high, got [1, 0.5]"));
    CHECK(error_with("\"nccl.network-p2p-efficiency\" = [0.5, 0.9]\n").ends_with(
        "the preset's value 0.911 lies outside [0.5, 0.9]"));
    CHECK(error_with("\"nccl.network-p2p-efficiency\" = 0.9\n").ends_with(
        "expected [low, high], the physical range the fit may use"));
    // The shipped presets state theirs.
    const Preset p = load_preset(kPreset, {});
    REQUIRE(p.calibration.size() == 4);
    CHECK(p.calibration[1].key == "nccl.network-p2p-efficiency");
    CHECK(p.calibration[1].value == 0.911);
}

TEST_CASE("the written preset: fitted values with their note, read by predict and collective like any preset") {
    using dtcalc::testing::run_dtcalc;
    const std::string out = dtcalc::testing::write_temp_file("calibrate/my-cluster.toml", "");
    const auto run = run_dtcalc("calibrate --preset h100-ib-ndr400 " + kCsv + " --no-leave-one-out --date 2026-01-31 --write " + out);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("wrote " + out) != std::string::npos);
    const std::string text = read_text_file(out);
    CHECK(text.find("name = \"my-cluster\"") != std::string::npos);
    CHECK(text.find("# fitted by dtcalc calibrate on 2026-01-31 to " + kCsv + " (162 rows in 19 fitted groups); "
                    "preset h100-ib-ndr400 had 0.911") != std::string::npos);
    // The fitted values read back are those the report states.
    const Preset fitted = load_preset(out, {});
    const auto json = run_dtcalc("calibrate --preset h100-ib-ndr400 " + kCsv + " --no-leave-one-out --format json", false);
    char after[128];
    std::snprintf(after, sizeof after, "\"key\": \"nccl.network-p2p-efficiency\", \"before\": 0.911, \"after\": %.6g,",
                  fitted.nccl->network_p2p_efficiency);
    CHECK(json.out.find(after) != std::string::npos);
    // Everything not calibrated is as it was.
    const Preset shipped = load_preset(kPreset, {});
    CHECK(fitted.nccl->p2p_latency_us == shipped.nccl->p2p_latency_us);
    CHECK(fitted.network.dimensions.size() == shipped.network.dimensions.size());
    // predict and collective take it.
    const auto collective = run_dtcalc("collective all-reduce --size 1GiB --preset " + out + " --nodes 2 --gpus-per-node 8");
    CHECK(collective.exit_code == 0);
    CHECK(collective.out.find("preset my-cluster") != std::string::npos);
    const auto predict = run_dtcalc("predict --model llama2-7b --preset " + out + " --nodes 2 --tp 8 --gbs 64 --seq 2048");
    CHECK(predict.exit_code == 0);
    CHECK(predict.out.find("iteration time") != std::string::npos);
}

TEST_CASE("dtcalc calibrate: the report, and bad input exits 2") {
    using dtcalc::testing::run_dtcalc;
    const auto r = run_dtcalc("calibrate --preset h100-ib-ndr400 " + std::string(DTCALC_TEST_DATA_DIR) +
                              "/nccl-tests --fit '*/1node' --check '*/10node'");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("162 rows in 19 groups (10 fitted, 5 checked)") != std::string::npos);
    CHECK(r.out.find("nccl.network-p2p-efficiency") != std::string::npos);
    CHECK(r.out.find("kept: changes no fitted row, only rows of ") != std::string::npos);
    // The same inputs, the same bytes.
    CHECK(run_dtcalc("calibrate --preset h100-ib-ndr400 " + std::string(DTCALC_TEST_DATA_DIR) +
                     "/nccl-tests --fit '*/1node' --check '*/10node'").out == r.out);
    dtcalc::testing::check_errors({
        {"calibrate --preset lab-system1 " + kCsv,
         "--preset: lab-system1 marks no constant as calibrated: it has no [calibration] table of \"key\" = [low, high]"},
        {"calibrate --preset h100-ib-ndr400 no-such-logs/", "no-such-logs/: does not exist"},
        {"calibrate --preset h100-ib-ndr400 " + kCsv + " --date 2026-02-30",
         "--date: expected a date YYYY-MM-DD, got '2026-02-30'"},
        {"calibrate --preset h100-ib-ndr400 " + kCsv + " --format csv", "--format: expected table or json, got 'csv'"},
        {"calibrate --preset h100-ib-ndr400 " + kCsv + " --fit 'nothing*'",
         "--fit: 'nothing*' matches no group of the data (groups: all-reduce/8gpu/1node, all-gather/8gpu/1node, "
         "reduce-scatter/8gpu/1node, all-to-all/8gpu/1node, send-recv/8gpu/1node, all-reduce/4gpu/1node, "
         "all-gather/4gpu/1node, reduce-scatter/4gpu/1node, all-to-all/4gpu/1node, send-recv/4gpu/1node, "
         "all-reduce/80gpu/10node, all-gather/80gpu/10node, reduce-scatter/80gpu/10node, all-to-all/80gpu/10node, "
         "send-recv/80gpu/10node, all-to-all/16gpu/2node, send-recv/16gpu/2node, all-to-all/2gpu/2node, "
         "send-recv/2gpu/2node)"},
    });
}
