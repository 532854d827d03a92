#include "calibrate/row_predictor.h"

#include <fmt/format.h>

#include <cmath>

#include "config/preset.h"
#include "predict/predict_options.h"
#include "validate/validation_plan.h"

namespace dtcalc {

std::vector<MeasuredRow> measured_rows(const CalibrationData& data) {
    std::vector<MeasuredRow> rows;
    for (const NcclMeasurement& m : data.collectives) {
        MeasuredRow r;
        r.collective = &m;
        r.group = nccl_group_name(m);
        r.same = fmt::format("{}|{}|{}|{}", static_cast<int>(m.kind), m.nodes, m.gpus_per_node, m.bytes);
        r.label = fmt::format("{} B", m.bytes);
        r.unit = "us";
        r.bytes = m.bytes;
        r.measured = m.time_us;
        r.where = m.where;
        rows.push_back(std::move(r));
    }
    for (std::size_t i = 0; i < data.training.size(); ++i) {
        const TrainingCase& c = data.training[i];
        MeasuredRow r;
        r.training = &c;
        r.training_index = i;
        r.group = training_group_name(c);
        r.same = "training|" + c.id + "|" + c.metric;
        r.label = c.id + " " + c.metric;
        r.unit = training_metric_unit(c.metric);
        r.measured = c.measured;
        r.where = {c.file, c.line, 0, ""};
        rows.push_back(std::move(r));
    }
    return rows;
}

RowPredictor::RowPredictor(const ConfigValue& root, std::string path, const std::vector<MeasuredRow>& rows,
                           const CalibrationData& data, const CalibrationOptions& options)
    : root_(root), path_(std::move(path)), rows_(rows), nccl_force_(options.nccl_force) {
    const Preset preset = preset_from_config(root_, path_);
    constants_ = preset.calibration;
    for (const CalibratedConstant& c : constants_) leaves_.push_back(find_config_path(root_, c.key));
    for (const TrainingCase& c : data.training) {
        PredictOptions o = c.options;
        o.system.preset = path_;  // the preset being fitted, whatever the case was read with
        ResolvedPrediction resolved = [&] {
            try {
                return resolve_prediction(o, options.preset_dirs, options.model_dirs);
            } catch (const OptionError& e) {
                throw InputError({c.file, c.line, 0, e.option()}, e.detail());
            }
        }();
        const PredictResult r = predict(resolved.inputs);
        if (!r.plan_problems.empty()) {
            std::string problems;
            for (const std::string& p : r.plan_problems) problems += (problems.empty() ? "" : "; ") + p;
            throw InputError({c.file, c.line, 0, c.id}, "the case's plan cannot run on preset " + preset.name + ": " + problems);
        }
        training_inputs_.push_back(std::move(resolved.inputs));
    }
}

std::vector<double> RowPredictor::start() const {
    std::vector<double> v;
    for (const CalibratedConstant& c : constants_) v.push_back(c.value);
    return v;
}

void RowPredictor::predict_rows(const std::vector<double>& values, const std::vector<std::size_t>& which,
                                std::vector<double>& out) {
    for (std::size_t k = 0; k < values.size(); ++k) {
        ConfigValue& leaf = *leaves_[k];
        if (constants_[k].integer) {
            leaf.type = ConfigValue::Type::Integer;
            leaf.number = std::round(values[k]);
        } else {
            leaf.type = ConfigValue::Type::Float;
            leaf.number = values[k];
        }
    }
    const Preset preset = preset_from_config(root_, path_);
    for (std::size_t i : which) {
        const MeasuredRow& row = rows_[i];
        if (row.collective) {
            out[i] = predict_nccl_measurement(preset.system, nccl_force_, *row.collective).time_ns / 1000.0;
        } else {
            PredictInputs in = training_inputs_[row.training_index];
            in.system.device = preset.system.device;
            in.system.config = preset.system.config;
            // predict()'s numbers to the last bit, without building the step's DAG (sweep/step_replay.h).
            const PredictResult r = predict_without_schedule(in, scratch_);
            if (!r.plan_problems.empty())
                throw InputError(row.where, "the case's plan cannot run with these values: " + r.plan_problems.front());
            out[i] = training_metric(r, row.training->metric);
        }
        if (!(out[i] > 0) || !std::isfinite(out[i]))
            throw InputError(row.where, "the model predicts nothing for this row, so it cannot be "
                                        "compared on a log scale; leave it out");
    }
}

}  // namespace dtcalc
