#include "validate/training_dataset.h"

#include <filesystem>

namespace dtcalc {

ValidationCase training_validation_case(const TrainingCase& c, const std::string& dataset,
                                        const ValidationContext& context) {
    const TrainingCaseResult r = evaluate_training_case(c, context.preset_dirs, context.model_dirs);
    ValidationCase v;
    v.dataset = dataset;
    v.group = c.metric;
    v.label = c.id;
    v.source = c.source;
    v.x = static_cast<double>(c.options.system.nodes.value_or(1) * c.options.system.gpus_per_node.value_or(1));
    v.measured = c.measured;
    v.predicted = r.predicted;
    v.unit = training_metric_unit(c.metric);
    v.model = std::filesystem::path(c.options.model).stem().string();
    return v;
}

DatasetResult run_training_dataset(const DatasetSpec& spec, const ValidationContext& context) {
    if (spec.preset.empty()) {
        InputLocation at = spec.where;
        at.key = "preset";
        throw InputError(at, "missing: the training kind needs a preset");
    }
    DatasetResult out;
    out.x_label = "GPUs";
    out.points_per_model = true;  // each row is its own model and plan: no line joins them
    for (const TrainingCase& c : read_training_cases(spec.file, spec.preset))
        out.cases.push_back(training_validation_case(c, spec.name, context));
    return out;
}

}  // namespace dtcalc
