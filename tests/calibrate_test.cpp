// dtcalc calibrate on nccl-tests rows: the log-space search, recovery of known
// constants from data the model generated with noise, the refusals (too few
// rows, contradictory rows, bad splits), the [calibration] table's checks, and
// the written preset read back by predict and collective. Training cases:
// calibrate_training_test.cpp; the out-of-sample refits:
// calibrate_leave_out_test.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "calibrate/calibration.h"
#include "calibrate/calibration_report.h"
#include "calibrate/log_space_search.h"
#include "calibrate/preset_writer.h"
#include "calibrate_fixtures.h"
#include "config/config_readers.h"
#include "config/preset.h"
#include "input_error.h"
#include "run_dtcalc.h"
#include "temp_file.h"
#include "validate/nccl_inputs.h"
#include "validate/nccl_tests_csv.h"

using namespace dtcalc;
using namespace dtcalc::testing;

namespace {

// The shipped preset with `truth` set in it.
Preset preset_with(const std::vector<std::pair<std::string, double>>& truth) {
    ConfigValue root = read_toml_file(kPreset);
    for (const auto& [key, value] : truth) {
        ConfigValue* leaf = find_config_path(root, key);
        REQUIRE(leaf != nullptr);
        leaf->number = value;
    }
    return preset_from_config(root, kPreset);
}

// Rows on the shapes and collectives of the visible tables, sizes 8 B to
// 16 GiB by 2x (nccl-tests' -b 8 -e 16G -f 2), and the 8-GPU node's
// all-reduce every 256 KiB from 4 to 128 MiB (-b 4M -e 128M -i 256K; see the
// recovery test for why), timed by the model with `truth` set in the preset,
// each time then scaled by 1 + noise x noise_step(row).
std::vector<NcclMeasurement> generated_rows(const std::vector<std::pair<std::string, double>>& truth, double noise) {
    const Preset preset = preset_with(truth);
    std::vector<NcclMeasurement> rows;
    int k = 0;
    auto add = [&](CollectiveKind kind, int nodes, int gpn, std::uint64_t bytes) {
        NcclMeasurement m;
        m.kind = kind;
        m.nodes = nodes;
        m.gpus_per_node = gpn;
        m.bytes = bytes;
        m.where = {"generated", ++k, 0, ""};
        m.time_us = predict_nccl_measurement(preset.system, {}, m).time_ns / 1000.0 * (1 + noise * noise_step(k));
        rows.push_back(m);
    };
    for (const auto [nodes, gpn] :
         {std::pair{1, 4}, std::pair{1, 8}, std::pair{2, 1}, std::pair{2, 8}, std::pair{10, 2}, std::pair{10, 8}})
        for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                                    CollectiveKind::AllToAll, CollectiveKind::SendRecv})
            for (std::uint64_t bytes = 8; bytes <= (16ull << 30); bytes *= 2) add(kind, nodes, gpn, bytes);
    for (std::uint64_t bytes = 4ull << 20; bytes <= (128ull << 20); bytes += 256ull << 10)
        add(CollectiveKind::AllReduce, 1, 8, bytes);
    return rows;
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
    // Known constants, each away from the preset's value (0.756, 0.983, 16.37,
    // 1.10, 3.9, 0.925, 130.7, 22.43, 4.55, 0.33).
    const std::vector<std::pair<std::string, double>> truth = {
        {"nccl.alltoall-nvlink-efficiency", 0.82},
        {"nccl.network-p2p-efficiency", 0.93},
        {"nccl.p2p.network-channel-bandwidth", 15.0},
        {"nccl.p2p.network-chunk-overhead-us", 2.0},
        {"nccl.p2p.network-connection-start-us", 6.0},
        {"nccl.network-alltoall-efficiency", 0.85},
        {"nccl.p2p.copy-bandwidth-per-channel", 70.0},
        {"nccl.ring-network-channel-bandwidth", 19.0},
        {"nccl.ring-network-slice-overhead-us", 6.0},
        {"nccl.nvls-chunk-overhead-us", 0.5},
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
    SUBCASE("with 3 % noise every constant comes back within 2 %, or three standard errors where the rows say less") {
        const std::vector<NcclMeasurement> rows = generated_rows(truth, 0.03);
        const CalibrationResult r = calibrate_preset(shipped, kPreset, rows, options);
        // A constant's standard error in a least-squares fit of ln T: the noise's
        // standard deviation (uniform on [-3 %, 3 %]: 0.03 / sqrt(3)) over the
        // square root of sum over rows of (d ln T / d ln c)^2, the sensitivity
        // measured by moving the constant 1 % (correlations only widen it). The
        // self-copy rate moves only the 2-rank all-to-all, by at most 10 % of
        // its time (the 16 sizes from 256 KiB up: sum about 16 x 0.1^2 = 0.16),
        // so its standard error is 1.73 % / 0.4 = 4.3 %, the allowance 13 %.
        const Preset base = preset_with(truth);
        const std::vector<NcclMeasurement> clean = generated_rows(truth, 0.0);
        for (const auto& [key, value] : truth) {
            CAPTURE(key);
            std::vector<std::pair<std::string, double>> nudged = truth;
            for (auto& [k, v] : nudged)
                if (k == key) v *= 1.01;
            const Preset up = preset_with(nudged);
            double information = 0;
            for (const NcclMeasurement& m : clean) {
                const double sensitivity = std::log(predict_nccl_measurement(up.system, {}, m).time_ns /
                                                    predict_nccl_measurement(base.system, {}, m).time_ns) /
                                           std::log(1.01);
                information += sensitivity * sensitivity;
            }
            const double tolerance = std::max(0.02, 3 * (0.03 / std::sqrt(3.0)) / std::sqrt(information));
            const ConstantFit& c = constant(r, key);
            MESSAGE(key << ": " << value << " -> " << c.after << " (allowed " << 100 * tolerance << " %)");
            CHECK(c.fitted);
            CHECK(std::abs(c.after / value - 1) < tolerance);
        }
        CHECK(r.objective_after < r.objective_before);
        for (const GroupFit& g : r.groups) {
            CAPTURE(g.group);
            CHECK(g.after.max < 0.06);  // every row within the noise, give or take the fit's own error
        }
    }
    SUBCASE("the NVLS loop cost is observable only where the data put it within 2 %") {
        // NVLS (nccl_nvls_pipeline.h): T = latency + (S + loop) x (1/272 + o (1/loop
        // - 1/loop0)) on 8 GPUs, 16 channels x 8 heads, loop0 = 16 MiB, o = 8 heads
        // x the chunk's cost c, so d ln T / d ln c = o (S + loop)(1/loop - 1/loop0) /
        // T, zero from 1 GiB (the 128 KiB chunk). With c = 0.5 us, o = 4 us: 32 MiB (32 KiB chunks, 4 MiB loops):
        // 4000 x 37748736 x 1.788e-7 = 26986 ns of T = 25000 + 37748736 x 0.0043915
        // = 190773 ns, 0.14; 64 MiB (64 KiB, 8 MiB loops): 4000 x 75497472 x
        // 5.96e-8 = 18000 of 320570 ns, 0.056. Only the 8-GPU node's all-reduce
        // runs NVLS. The noise, uniform on [-3 %, 3 %], has a standard deviation of
        // 0.03 / sqrt(3) = 1.73 %, and a least-squares fit of ln o a standard error
        // of 1.73 % / sqrt(sum of the rows' (d ln T / d ln o)^2). One row per octave
        // sums to about 0.13 (+/- 4.8 %); the 256 KiB sweep from 4 to 128 MiB brings
        // it to about 6 (+/- 0.7 %), two standard errors inside 2 %.
        std::vector<std::pair<std::string, double>> nudged = truth;
        nudged.back().second *= 1.01;  // the NVLS loop cost, 1 % up
        const Preset base = preset_with(truth), up = preset_with(nudged);
        double information = 0, octaves_only = 0;
        for (const NcclMeasurement& m : generated_rows(truth, 0.0)) {
            const double sensitivity = std::log(predict_nccl_measurement(up.system, {}, m).time_ns /
                                                predict_nccl_measurement(base.system, {}, m).time_ns) / std::log(1.01);
            information += sensitivity * sensitivity;
            if (m.where.line <= 6 * 5 * 32) octaves_only += sensitivity * sensitivity;  // 6 shapes x 5 collectives x 32 sizes
        }
        MESSAGE("sum of (d ln T / d ln o)^2: octave sweep " << octaves_only << ", with the 256 KiB sweep " << information);
        const double noise_sd = 0.03 / std::sqrt(3.0);
        CHECK(noise_sd / std::sqrt(octaves_only) > 0.02);  // the octave sweep alone: one standard error above the floor
        CHECK(2 * noise_sd / std::sqrt(information) < 0.02);  // with the dense sweep: two within it
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
    // NVLS's loop cost changes the 8-GPU all-reduce rows below 1 GiB (NVLS,
    // chunks below 128 KiB) and the 10-node ones NCCL runs as NVLS-tree (the
    // NVLS inside each node): without the 10-node all-reduce and with two 8-GPU
    // rows (32 and 64 MiB) the constant is not fitted (3 needed).
    std::vector<NcclMeasurement> few = read_nccl_tests_csv(kCsv);
    int kept = 0;
    std::erase_if(few, [&](const NcclMeasurement& m) {
        if (m.kind != CollectiveKind::AllReduce) return false;
        if (m.nodes > 1) return true;
        if (m.gpus() != 8) return false;
        return ++kept > 2;
    });
    CalibrationOptions no_logo;
    no_logo.leave_one_group_out = false;
    const CalibrationResult r2 = calibrate_preset(read_toml_file(kPreset), kPreset, few, no_logo);
    const ConstantFit& nvls = constant(r2, "nccl.nvls-chunk-overhead-us");
    CHECK_FALSE(nvls.fitted);
    CHECK(nvls.reason == "changes only 2 fitted row(s); fitting it needs 3");
}

TEST_CASE("a constant the fitted rows do not pin is reported as such") {
    // 10 nodes of 4 GPUs (validation/nccl/cluster01): 16 ring channels over 4
    // NICs, 4 per NIC. The smallest Simple ring step share is the 512 MiB
    // all-gather's, m = 512 MiB / (40 x 16) = 838860.8 B in 2 sends; at 10 %
    // below the ring channel rate, 20.11 GB/s, a channel moves 838860.8 /
    // (41722 + 2 x 4010 ns) = 16.86 GB/s, 4 of them 67.5 GB/s, above the NIC's
    // 49.15: every row stays payload-bound, and 10 % above even more so. The
    // rate changes rows at its lower bound (4 GB/s), so it is fitted, but the
    // rows do not pin it. The point-to-point channel rate does bind these
    // rows' all-to-all and send/recv: pinned.
    const std::vector<NcclMeasurement> rows =
        read_nccl_inputs({std::string(DTCALC_VALIDATION_DIR) + "/nccl/cluster01/multi-node/nccl_N10_G4.log"});
    CalibrationOptions no_logo;
    no_logo.leave_one_group_out = false;
    const CalibrationResult r = calibrate_preset(read_toml_file(kPreset), kPreset, rows, no_logo);
    const ConstantFit& ring = constant(r, "nccl.ring-network-channel-bandwidth");
    CHECK(ring.fitted);
    CHECK_FALSE(ring.pinned);
    CHECK(ring.after == ring.before);
    const ConstantFit& p2p = constant(r, "nccl.p2p.network-channel-bandwidth");
    CHECK(p2p.fitted);
    CHECK(p2p.pinned);
    std::ostringstream table;
    write_calibration_table(table, {}, r);
    CHECK(table.str().find("fitted; not pinned: moving it 10 % changes no fitted row") != std::string::npos);
    std::ostringstream json;
    write_calibration_json(json, {}, r);
    CHECK(json.str().find("\"key\": \"nccl.ring-network-channel-bandwidth\"") != std::string::npos);
    CHECK(json.str().find("\"fitted\": true, \"pinned\": false") != std::string::npos);
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
        "the preset's value 0.983 lies outside [0.5, 0.9]"));
    CHECK(error_with("\"nccl.network-p2p-efficiency\" = 0.9\n").ends_with(
        "expected [low, high], the physical range the fit may use"));
    // The shipped presets state theirs.
    const Preset p = load_preset(kPreset, {});
    REQUIRE(p.calibration.size() == 10);
    const auto payload = std::find_if(p.calibration.begin(), p.calibration.end(),
                                      [](const auto& c) { return c.key == "nccl.network-p2p-efficiency"; });
    REQUIRE(payload != p.calibration.end());
    CHECK(payload->value == 0.983);
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
                    "preset h100-ib-ndr400 had 0.983") != std::string::npos);
    // The fitted values read back are those the report states.
    const Preset fitted = load_preset(out, {});
    const auto json = run_dtcalc("calibrate --preset h100-ib-ndr400 " + kCsv + " --no-leave-one-out --format json", false);
    char after[128];
    std::snprintf(after, sizeof after, "\"key\": \"nccl.network-p2p-efficiency\", \"before\": 0.983, \"after\": %.6g,",
                  fitted.system.nccl()->network_p2p_efficiency);
    CHECK(json.out.find(after) != std::string::npos);
    // Everything not calibrated is as it was.
    const Preset shipped = load_preset(kPreset, {});
    CHECK(fitted.system.nccl()->p2p_latency_us == shipped.system.nccl()->p2p_latency_us);
    CHECK(fitted.system.network.dimensions.size() == shipped.system.network.dimensions.size());
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

TEST_CASE("a log where one thread drove several GPUs gets a note from calibrate and validate") {
    using dtcalc::testing::run_dtcalc;
    // nccl-tests -g 2 in one process: the header says nGpus 2; two ranks on one host.
    std::string log =
        "# Collective test starting: all_reduce_perf\n"
        "# nThread 1 nGpus 2 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
        "validation: 1 graph: 0\n#\n# Using devices\n"
        "#  Rank  0 Group  0 Pid  1234 on     hostA device  0 [0000:1b:00] NVIDIA H100 80GB HBM3\n"
        "#  Rank  1 Group  0 Pid  1234 on     hostA device  1 [0000:43:00] NVIDIA H100 80GB HBM3\n#\n"
        "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   "
        "busbw  #wrong\n"
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  "
        "(GB/s)\n";
    for (const char* row : {"           8             2     float     sum      -1    20.10    0.00    0.00       0    "
                            "20.10    0.00    0.00       0\n",
                            "     1048576        262144     float     sum      -1    30.50   34.38   34.38       0    "
                            "30.50   34.38   34.38       0\n"})
        log += row;
    log += "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 17.2\n#\n";
    const std::string path = dtcalc::testing::write_temp_file("calibrate/g2/all_reduce_perf.log", log);
    const std::string note = "nccl-tests drove 2 GPUs from one thread (nGpus 2): its times below ~1 MiB include 2 "
                             "kernel launches one after another";
    const auto calibrated = run_dtcalc("calibrate --preset h100-ib-ndr400 " + path + " --no-leave-one-out");
    CHECK(calibrated.exit_code == 0);
    CHECK(calibrated.out.find("dtcalc: note: " + path + ": " + note) != std::string::npos);
    const auto validated = run_dtcalc("validate --dataset " + path + " --preset h100-ib-ndr400");
    CHECK(validated.exit_code == 0);
    CHECK(validated.out.find(note) != std::string::npos);
}

TEST_CASE("calibrate --algo / --env: runs forced to an algorithm are fitted as what they ran") {
    // 10 x 8 all-reduce, 64 MiB to 16 GiB, timed by the model as forced ring
    // runs with the ring channel rate at 19 GB/s (the preset's: 22.43). NCCL's
    // own choice at these sizes is NVLS-tree, whose time the ring rate does not
    // move: told the runs' NCCL_ALGO, the fit gives 19 back; not told, it
    // cannot (the rate changes no row, or no value of it explains them).
    NcclForce ring;
    apply_nccl_algo(ring, "ring", {"test", 0, 0, ""});
    const Preset truth = preset_with({{"nccl.ring-network-channel-bandwidth", 19.0}});
    std::vector<NcclMeasurement> rows;
    for (std::uint64_t bytes = 64ull << 20; bytes <= (16ull << 30); bytes *= 2) {
        NcclMeasurement m;
        m.kind = CollectiveKind::AllReduce;
        m.nodes = 10;
        m.gpus_per_node = 8;
        m.bytes = bytes;
        m.where = {"generated", static_cast<int>(rows.size()) + 1, 0, ""};
        m.time_us = predict_nccl_measurement(truth.system, ring, m).time_ns / 1000.0;
        rows.push_back(m);
    }
    CalibrationOptions options;
    options.leave_one_group_out = false;
    options.nccl_force = ring;
    const CalibrationResult told = calibrate_preset(read_toml_file(kPreset), kPreset, rows, options);
    CHECK(std::abs(constant(told, "nccl.ring-network-channel-bandwidth").after / 19.0 - 1) < 0.001);
    CHECK(group(told, "all-reduce/80gpu/10node").after.max < 0.001);
    options.nccl_force = {};
    const CalibrationResult untold = calibrate_preset(read_toml_file(kPreset), kPreset, rows, options);
    CHECK(std::abs(constant(untold, "nccl.ring-network-channel-bandwidth").after / 19.0 - 1) > 0.01);
    CHECK(group(untold, "all-reduce/80gpu/10node").after.max > 0.01);
}

TEST_CASE("dtcalc calibrate --algo / --proto / --env: the report names them; bad settings exit 2") {
    using dtcalc::testing::run_dtcalc;
    const std::string smoke = std::string(DTCALC_VALIDATION_DIR) + "/nccl/cluster01/smoke";
    // --env takes one value: the input after it stays an input.
    const auto r = run_dtcalc("calibrate --preset h100-ib-ndr400 --algo ring --env NCCL_PROTO=Simple " + smoke +
                              " --no-leave-one-out");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("\n# the runs' NCCL settings: NCCL_ALGO=ring NCCL_PROTO=Simple\n") != std::string::npos);
    const auto json = run_dtcalc("calibrate --preset h100-ib-ndr400 --env NCCL_ALGO=ring " + smoke +
                                 " --no-leave-one-out --format json", false);
    REQUIRE(json.exit_code == 0);
    CHECK(json.out.find("\"nccl_env\": [\"NCCL_ALGO=ring\"]") != std::string::npos);
    const auto plain = run_dtcalc("calibrate --preset h100-ib-ndr400 " + smoke + " --no-leave-one-out --format json", false);
    CHECK(plain.out.find("\"nccl_env\": []") != std::string::npos);
    dtcalc::testing::check_errors({
        {"calibrate --preset h100-ib-ndr400 --algo ring --env NCCL_ALGO=tree " + smoke,
         "--env: 'NCCL_ALGO=tree': NCCL_ALGO is also given by its own option; give one"},
        {"calibrate --preset h100-ib-ndr400 --env NCCL_ALGO= " + smoke,
         "--env: 'NCCL_ALGO=': expected a value after '=' (leave a variable out to keep NCCL's default)"},
        // Training cases alone: nothing for the settings to apply to.
        {"calibrate --preset h100-ib-ndr400 --proto LL128 " + std::string(DTCALC_VALIDATION_DIR) + "/training/cases.csv",
         "--proto: applies to nccl-tests rows, and the inputs hold none (training cases state theirs in columns "
         "nccl_algo, nccl_proto, nccl_env)"},
        {"calibrate --preset h100-ib-ndr400 --env NCCL_BUFFSIZE=1 " + smoke,
         "--env: 'NCCL_BUFFSIZE=1': NCCL_BUFFSIZE is not a setting dtcalc models (it models " +
             nccl_modelled_settings_list() + ")"},
    });
}
