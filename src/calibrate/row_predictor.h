#pragma once
// The rows `dtcalc calibrate` fits to, and their predictions with candidate
// values of a preset's calibrated constants.
#include <cstdint>
#include <string>
#include <vector>

#include "calibrate/calibration.h"
#include "config/calibration_table.h"
#include "config/config_value.h"
#include "predict/predict.h"
#include "sweep/step_replay.h"

namespace dtcalc {

/// One measured row: an nccl-tests row or a training case.
struct MeasuredRow {
    const NcclMeasurement* collective = nullptr;
    const TrainingCase* training = nullptr;
    std::size_t training_index = 0;  // its slot among the training cases
    std::string group;
    std::string same;  // rows with the same key measure the same thing (contradictions)
    std::string label;
    std::string unit;
    std::uint64_t bytes = 0;
    double measured = 0;
    InputLocation where;
};

/// The rows of `data`: its nccl-tests rows, then its training cases, each with
/// its group, label and unit.
std::vector<MeasuredRow> measured_rows(const CalibrationData& data);

/// Predictions of rows with candidate values of the calibrated constants: the
/// values are set in a copy of the parsed preset, which is read again with
/// every check load_preset makes. A training case keeps its model, plan and
/// network shape (resolved once, on the preset as given) and takes its device
/// and system from the candidate preset: no calibrated key can name a network's
/// value (those are lists), so nothing else of the case depends on the values.
class RowPredictor {
public:
    /// Resolves every training case once on the preset as given; a case whose
    /// plan cannot run is an InputError at its file and line.
    RowPredictor(const ConfigValue& root, std::string path, const std::vector<MeasuredRow>& rows,
                 const CalibrationData& data, const CalibrationOptions& options);

    const std::vector<CalibratedConstant>& constants() const { return constants_; }
    /// The preset's own values of the constants.
    std::vector<double> start() const;
    /// Predicted value (us for nccl-tests rows, the metric for training cases)
    /// of rows `which`, written to `out[i]` for each i in `which`.
    void predict_rows(const std::vector<double>& values, const std::vector<std::size_t>& which, std::vector<double>& out);

private:
    ConfigValue root_;
    std::string path_;
    const std::vector<MeasuredRow>& rows_;
    std::vector<CalibratedConstant> constants_;
    std::vector<ConfigValue*> leaves_;
    NcclForce nccl_force_;  ///< the runs' NCCL settings (CalibrationOptions::nccl_force)
    std::vector<PredictInputs> training_inputs_;
    ReplayScratch scratch_;
};

}  // namespace dtcalc
