#include "validate/nccl_tests_dataset.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
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
    if (spec.algorithm.empty() && spec.protocol.empty() && spec.env.empty()) return {};
    auto at = [&](const InputLocation& where, const char* key) {
        if (where.line > 0 || !where.file.empty()) return where;  // a gates key, or a flag
        InputLocation entry = spec.where;  // a spec built in code: the entry, with the key
        entry.key = key;
        return entry;
    };
    return nccl_run_settings(system, spec.algorithm, spec.protocol, spec.env, at(spec.algorithm_where, "algorithm"),
                             at(spec.protocol_where, "protocol"), at(spec.env_where, "env"));
}

DatasetResult run_nccl_tests_dataset(const DatasetSpec& spec, const ValidationContext& context) {
    const MeasuredInputs inputs = read_measured_inputs({spec.file}, spec.shape, spec.preset, spec.skip_failed_runs);
    const std::vector<NcclMeasurement>& rows = inputs.collectives;
    const System system = load_preset(spec.preset, context.preset_dirs).system;
    const NcclForce force = dataset_nccl_force(system, spec);

    DatasetResult out;
    for (const NcclTestsRunFailed& failed : inputs.failed_runs) out.notes.push_back(failed_run_note(failed));
    // Per group: the sizes whose log names NCCL's own choice, and where dtcalc chose otherwise.
    struct Choices {
        int named = 0, same = 0, same_channels = 0;
        std::string first_difference;
    };
    std::map<std::string, Choices> choices;
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
        c.measured_model = row.nccl_ran;
        if (!row.nccl_ran.empty()) {
            Choices& g = choices[c.group];
            ++g.named;
            if (row.nccl_ran == c.model) {
                ++g.same;
                if (row.nccl_ran_channels == result.channels) ++g.same_channels;
            } else if (g.first_difference.empty()) {
                g.first_difference = fmt::format("at {} NCCL ran {} on {} channels, dtcalc chose {}", c.label,
                                                 row.nccl_ran, row.nccl_ran_channels, c.model);
            }
        }
        out.cases.push_back(std::move(c));
    }
    // Rows of 0 bytes, left out: say so, per group.
    std::map<std::string, int> discarded;
    for (const NcclMeasurement& row : inputs.discarded) ++discarded[nccl_group_name(row)];
    for (const auto& [group, count] : discarded) out.group_notes.emplace_back(group, nccl_discarded_note(count));
    // Runs where one thread drove several GPUs (nccl-tests -g G): say so.
    std::map<std::string, int> driven;
    for (const NcclMeasurement& row : rows) {
        if (row.gpus_per_thread <= 1) continue;
        int& most = driven[nccl_group_name(row)];
        most = std::max(most, row.gpus_per_thread);
    }
    for (const auto& [group, g] : driven)
        out.group_notes.emplace_back(group, nccl_thread_launch_note(g));
    // NCCL settings the runs state that dtcalc does not model: say which.
    std::map<std::string, std::vector<std::string>> unmodelled;
    for (const NcclMeasurement& row : rows)
        for (const std::string& setting : row.unmodelled_settings) {
            std::vector<std::string>& named = unmodelled[nccl_group_name(row)];
            if (std::find(named.begin(), named.end(), setting) == named.end()) named.push_back(setting);
        }
    for (const auto& [group, settings] : unmodelled)
        out.group_notes.emplace_back(group, nccl_unmodelled_settings_note(settings));
    for (const auto& [group, g] : choices)
        out.group_notes.emplace_back(
            group, fmt::format("NCCL's log names its choice at {} size(s): dtcalc makes the same at {} ({} on as many "
                               "channels){}",
                               g.named, g.same, g.same_channels,
                               g.first_difference.empty() ? "" : "; first difference " + g.first_difference));
    // Training cases among the inputs (validate --dataset my-runs/), each in its metric's group.
    for (const TrainingCase& c : inputs.training) out.cases.push_back(training_validation_case(c, spec.name, context));
    return out;
}

}  // namespace dtcalc
