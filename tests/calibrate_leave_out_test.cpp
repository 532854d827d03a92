// dtcalc calibrate's out-of-sample refits (leave_out.h): the same on any
// thread count, leaving out one group or one GPUs x nodes shape, and the report
// of refits that cannot place a constant the full fit places.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "calibrate/calibration.h"
#include "calibrate/calibration_report.h"
#include "calibrate_fixtures.h"
#include "config/config_readers.h"
#include "run_dtcalc.h"
#include "validate/nccl_inputs.h"
#include "validate/nccl_tests_csv.h"

using namespace dtcalc;
using namespace dtcalc::testing;

TEST_CASE("leave-one-group-out: the refits come out the same on one thread and on three") {
    // Each refit is its own deterministic search on its own predictor, written
    // to its group's slot: the thread count can change neither a value nor the
    // order (4 fitted groups: 3 threads share them unevenly).
    std::vector<NcclMeasurement> rows = read_nccl_tests_csv(kCsv);
    std::erase_if(rows, [](const NcclMeasurement& m) { return m.nodes > 1; });
    auto run = [&](int threads) {
        CalibrationOptions o;
        o.fit_groups = {"all-reduce/*", "all-to-all/*"};
        o.threads = threads;
        return calibrate_preset(read_toml_file(kPreset), kPreset, rows, o);
    };
    const CalibrationResult one = run(1), three = run(3);
    REQUIRE(one.groups.size() == three.groups.size());
    int refits = 0;
    for (std::size_t g = 0; g < one.groups.size(); ++g) {
        CAPTURE(one.groups[g].group);
        CHECK(one.groups[g].group == three.groups[g].group);
        REQUIRE(one.groups[g].left_out.has_value() == three.groups[g].left_out.has_value());
        CHECK(one.groups[g].left_out.has_value() == (one.groups[g].role == GroupRole::Fit));
        if (!one.groups[g].left_out) continue;
        ++refits;
        CHECK(one.groups[g].left_out->mean == three.groups[g].left_out->mean);
        CHECK(one.groups[g].left_out->max == three.groups[g].left_out->max);
        CHECK(one.groups[g].left_out_values == three.groups[g].left_out_values);
    }
    CHECK(refits == 4);
    CHECK(one.evaluations == three.evaluations);
    const auto bad = run_dtcalc("calibrate --preset h100-ib-ndr400 " + kCsv + " -j -1");
    CHECK(bad.exit_code == 2);
    CHECK(bad.out == "dtcalc: error: --threads: expected 0 (every core) to 1024, got -1\n");
}

TEST_CASE("--leave-out shape: each refit leaves out every group of one GPUs x nodes shape") {
    CHECK(hold_out_shape("all-reduce/8gpu/1node") == "8gpu/1node");
    CHECK(hold_out_shape("send-recv/16gpu/2node") == "16gpu/2node");
    CHECK(hold_out_shape("training/nemo-gpt3") == "training/nemo-gpt3");
    // The single-node rows of h100_nccl_tests.csv are two shapes, 8 and 4 GPUs,
    // five collectives each. Left out by shape, the 8-GPU groups' out-of-sample
    // error is that of the constants fitted on the 4-GPU groups alone: the same
    // as fitting those (--fit) and checking the 8-GPU ones (--check).
    std::vector<NcclMeasurement> rows = read_nccl_tests_csv(kCsv);
    std::erase_if(rows, [](const NcclMeasurement& m) { return m.nodes > 1; });
    CalibrationOptions by_shape;
    by_shape.hold_out = HoldOut::Shape;
    const CalibrationResult r = calibrate_preset(read_toml_file(kPreset), kPreset, rows, by_shape);
    CHECK(r.hold_out == HoldOut::Shape);
    CalibrationOptions split;
    split.fit_groups = {"*/4gpu/1node"};
    split.check_groups = {"*/8gpu/1node"};
    split.leave_one_group_out = false;
    const CalibrationResult held = calibrate_preset(read_toml_file(kPreset), kPreset, rows, split);
    int compared = 0;
    for (const GroupFit& g : r.groups) {
        CAPTURE(g.group);
        REQUIRE(g.left_out.has_value());
        if (hold_out_shape(g.group) != "8gpu/1node") continue;
        ++compared;
        CHECK(g.left_out->mean == group(held, g.group).after.mean);
        CHECK(g.left_out->max == group(held, g.group).after.max);
    }
    CHECK(compared == 5);
    // One shape fitted: nothing to leave out.
    CalibrationOptions one_shape = by_shape;
    one_shape.fit_groups = {"*/8gpu/1node"};
    for (const GroupFit& g : calibrate_preset(read_toml_file(kPreset), kPreset, rows, one_shape).groups)
        CHECK_FALSE(g.left_out.has_value());
    std::ostringstream json;
    write_calibration_json(json, {}, r);
    CHECK(json.str().find("\"left_out_by\": \"shape\"") != std::string::npos);
    // 10 x 8 (h100_nccl_tests.csv) and 10 x 4 (cluster01): only the 10 x 8 rings pin
    // the ring channel's rate (two channels per NIC, not full; on 10 x 4 four
    // channels fill each NIC at every size: "a constant the fitted rows do not
    // pin", above). Without the 10 x 8 shape the refit cannot move it and keeps
    // the preset's value; the report says so.
    std::vector<NcclMeasurement> ten = read_nccl_tests_csv(kCsv);  // its 10 x 8 rows
    std::erase_if(ten, [](const NcclMeasurement& m) { return m.nodes != 10; });
    for (const NcclMeasurement& m : read_nccl_inputs(
             {std::string(DTCALC_VALIDATION_DIR) + "/nccl/cluster01/multi-node/nccl_N10_G4.log"}))
        ten.push_back(m);
    const CalibrationResult rings = calibrate_preset(read_toml_file(kPreset), kPreset, ten, by_shape);
    std::size_t ring_rate = 0;
    while (rings.constants[ring_rate].key != "nccl.ring-network-channel-bandwidth") ++ring_rate;
    REQUIRE(rings.constants[ring_rate].pinned);
    const GroupFit& ag = group(rings, "all-gather/80gpu/10node");
    REQUIRE(ag.left_out_kept.size() == rings.constants.size());
    CHECK(ag.left_out_kept[ring_rate]);
    CHECK(ag.left_out_values[ring_rate] == rings.constants[ring_rate].before);
    CHECK_FALSE(group(rings, "all-gather/40gpu/10node").left_out_kept[ring_rate]);
    std::ostringstream rings_table;
    write_calibration_table(rings_table, {}, rings);
    CHECK(rings_table.str().find("  without 80gpu/10node: ") != std::string::npos);
    CHECK(rings_table.str().find("nccl.ring-network-channel-bandwidth kept at 22.43 (not pinned)") != std::string::npos);
    const auto bad = run_dtcalc("calibrate --preset h100-ib-ndr400 " + kCsv + " --leave-out node");
    CHECK(bad.exit_code == 2);
    CHECK(bad.out == "dtcalc: error: --leave-out: expected group or shape, got 'node'\n");
}

TEST_CASE("the report names the refits that cannot place a constant the full fit places: at a bound, or kept") {
    // A result made by hand: two fitted constants, inside their bounds in the
    // fit on every group; without group "a" the first goes to its upper bound,
    // without "b" the second stays where it was and the first sits at its lower
    // bound, which the full fit also reached (not news: not listed).
    CalibrationResult r;
    ConstantFit loop;
    loop.key = "nccl.nvls-chunk-overhead-us";
    loop.low = 0.01, loop.high = 2.5, loop.before = 0.33, loop.after = 0.33, loop.fitted = true, loop.pinned = true;
    ConstantFit rate;
    rate.key = "nccl.ring-network-channel-bandwidth";
    rate.low = 4, rate.high = 100, rate.before = 4, rate.after = 4, rate.fitted = true;
    r.constants = {loop, rate};
    GroupFit a, b;
    a.group = "a", b.group = "b";
    a.left_out = ErrorStats{10, 0.17, 0.63};
    a.left_out_values = {2.5, 5};
    b.left_out = ErrorStats{10, 0.01, 0.02};
    b.left_out_values = {0.34, 4};
    // Without "c" neither constant moves a row left: both kept at the preset's
    // values. Only the first is news: the full fit pins it, not the second.
    GroupFit c;
    c.group = "c";
    c.left_out = ErrorStats{10, 0.05, 0.08};
    c.left_out_values = {0.33, 4};
    c.left_out_kept = {true, true};
    r.groups = {a, b, c};
    std::ostringstream table;
    write_calibration_table(table, {}, r);
    CHECK(table.str().find("  without a: nccl.nvls-chunk-overhead-us 0.33 -> 2.5 (upper bound)\n") != std::string::npos);
    CHECK(table.str().find("without b") == std::string::npos);
    CHECK(table.str().find("  without c: nccl.nvls-chunk-overhead-us kept at 0.33 (not pinned)\n") != std::string::npos);
    std::ostringstream json;
    write_calibration_json(json, {}, r);
    CHECK(json.str().find("\"constants\": [2.5, 5], \"at_bound\": [\"nccl.nvls-chunk-overhead-us\"], \"kept\": []}") !=
          std::string::npos);
    CHECK(json.str().find("\"constants\": [0.34, 4], \"at_bound\": [], \"kept\": []}") != std::string::npos);
    CHECK(json.str().find("\"constants\": [0.33, 4], \"at_bound\": [], \"kept\": [\"nccl.nvls-chunk-overhead-us\"]}") !=
          std::string::npos);
}
