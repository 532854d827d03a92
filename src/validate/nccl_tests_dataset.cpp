#include "validate/nccl_tests_dataset.h"

#include <memory>
#include <string>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_parameters.h"
#include "config/preset.h"
#include "config/system_source.h"
#include "core/units.h"
#include "validate/nccl_inputs.h"
#include "validate/training_dataset.h"

namespace dtcalc {

NcclForce dataset_nccl_force(const System& system, const DatasetSpec& spec) {
    if (spec.algorithm.empty() && spec.protocol.empty()) return {};
    auto at = [&](const InputLocation& where, const char* key) {
        if (where.line > 0 || !where.file.empty()) return where;  // a gates key, or a flag
        InputLocation entry = spec.where;  // a spec built in code: the entry, with the key
        entry.key = key;
        return entry;
    };
    const InputLocation algorithm_at = at(spec.algorithm_where, "algorithm");
    const InputLocation protocol_at = at(spec.protocol_where, "protocol");
    return nccl_force_option(system, spec.algorithm, spec.protocol, algorithm_at, protocol_at);
}

DatasetResult run_nccl_tests_dataset(const DatasetSpec& spec, const ValidationContext& context) {
    const MeasuredInputs inputs = read_measured_inputs({spec.file}, spec.shape, spec.preset);
    const std::vector<NcclMeasurement>& rows = inputs.collectives;
    const System system = load_preset(spec.preset, context.preset_dirs).system;
    const NcclForce force = dataset_nccl_force(system, spec);

    DatasetResult out;
    for (const NcclMeasurement& row : rows) {
        const CollectiveResult result = predict_nccl_measurement(system, force, row);
        ValidationCase c;
        c.dataset = spec.name;
        c.group = nccl_group_name(row);
        c.label = row.bytes % 1048576 == 0 ? format_byte_size(row.bytes) : std::to_string(row.bytes) + " B";
        c.source = row.source;
        c.x = static_cast<double>(row.bytes);
        c.measured = row.time_us;
        c.predicted = result.time_ns / 1000.0;
        c.model = std::string(result.algorithm);
        out.cases.push_back(std::move(c));
    }
    // Training cases among the inputs (validate --dataset my-runs/), each in its metric's group.
    for (const TrainingCase& c : inputs.training) out.cases.push_back(training_validation_case(c, spec.name, context));
    return out;
}

}  // namespace dtcalc
