// dtcalc calibrate's speed: 1,000 measured rows (5 cluster shapes x 5
// collectives x 40 sizes, timed by the model with its constants moved and 3 %
// noise) fitted on h100-ib-ndr400's calibrated constants; once the fit
// alone, once with the leave-one-group-out refits (one more fit per group).
// And the published training cases (validation/training/cases.csv, 27 rows in
// 4 families) with their refits: every case predicted once per objective evaluation.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "calibrate/calibration.h"
#include "config/calibration_table.h"
#include "config/config_readers.h"
#include "config/preset.h"
#include "predict/training_cases.h"

namespace {

using namespace dtcalc;

const std::string kPreset = std::string(DTCALC_SOURCE_DIR) + "/presets/h100-ib-ndr400.toml";

// The preset is composed of the hardware catalogue: calibrate fits its expanded form.
ConfigValue expanded_preset() { return load_preset(kPreset, {std::string(DTCALC_SOURCE_DIR) + "/presets"}).tree; }

std::vector<NcclMeasurement> thousand_rows() {
    ConfigValue root = expanded_preset();
    find_config_path(root, "nccl.alltoall-nvlink-efficiency")->number = 0.82;
    find_config_path(root, "nccl.network-p2p-efficiency")->number = 0.85;
    find_config_path(root, "nccl.p2p.network-channel-bandwidth")->number = 18.0;
    const Preset preset = preset_from_config(root, kPreset);
    std::vector<NcclMeasurement> rows;
    int k = 0;
    for (const auto [nodes, gpn] : {std::pair{1, 4}, std::pair{1, 8}, std::pair{2, 1}, std::pair{2, 8}, std::pair{10, 8}})
        for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
                                    CollectiveKind::AllToAll, CollectiveKind::SendRecv})
            for (int i = 0; i < 40; ++i) {
                NcclMeasurement m;
                m.kind = kind;
                m.nodes = nodes;
                m.gpus_per_node = gpn;
                m.bytes = static_cast<std::uint64_t>(std::llround(1024.0 * std::pow(2.0, i * 0.6)));  // 1 KiB .. ~13 GiB
                m.where = {"generated", ++k, 0, ""};
                const double s = static_cast<double>((k * 7919) % 201 - 100) / 100.0;
                m.time_us = predict_nccl_measurement(preset.system, {}, m).time_ns / 1000.0 * (1 + 0.03 * s);
                rows.push_back(m);
            }
    return rows;
}

void fit(benchmark::State& state, bool leave_one_out, int threads) {
    const ConfigValue root = expanded_preset();
    const std::vector<NcclMeasurement> rows = thousand_rows();
    CalibrationOptions options;
    options.leave_one_group_out = leave_one_out;
    options.threads = threads;
    for (auto _ : state) {
        const CalibrationResult r = calibrate_preset(root, kPreset, rows, options);
        benchmark::DoNotOptimize(r.objective_after);
        state.counters["rows"] = static_cast<double>(r.rows_used);
        state.counters["evaluations"] = r.evaluations;
    }
}

// The fit the written preset comes from: 1,000 rows, four constants.
void BM_Calibrate_1000Rows(benchmark::State& state) { fit(state, false, 1); }
BENCHMARK(BM_Calibrate_1000Rows)->Unit(benchmark::kMillisecond)->Iterations(3);

// The same with the leave-one-group-out refits (25 groups: 26 fits), the
// refits on 1 thread and on every core (argument 0).
void BM_Calibrate_1000Rows_LeaveOneGroupOut(benchmark::State& state) {
    fit(state, true, static_cast<int>(state.range(0)));
}
BENCHMARK(BM_Calibrate_1000Rows_LeaveOneGroupOut)
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// The published training cases, every constant the preset marks, with the 4 refits.
void BM_Calibrate_TrainingCases_LeaveOneGroupOut(benchmark::State& state) {
    const ConfigValue root = expanded_preset();
    CalibrationData data;
    data.training = read_training_cases(std::string(DTCALC_SOURCE_DIR) + "/validation/training/cases.csv", kPreset);
    CalibrationOptions options;
    options.preset_dirs = {std::string(DTCALC_SOURCE_DIR) + "/presets"};
    options.model_dirs = {std::string(DTCALC_SOURCE_DIR) + "/models"};
    for (auto _ : state) {
        const CalibrationResult r = calibrate_preset(root, kPreset, data, options);
        benchmark::DoNotOptimize(r.objective_after);
        state.counters["rows"] = static_cast<double>(r.rows_used);
        state.counters["evaluations"] = r.evaluations;
    }
}
BENCHMARK(BM_Calibrate_TrainingCases_LeaveOneGroupOut)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
