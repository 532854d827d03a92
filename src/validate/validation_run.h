#pragma once
// Running a validation plan: every dataset's cases, a summary per (dataset,
// group) — count, geomean / median / max / mean error, the reference model's
// geomean when the dataset has one — and every gate checked against the groups
// it matches. Groups keep the order they first appear in.
#include <optional>
#include <string>
#include <vector>

#include "validate/dataset_kind.h"
#include "validate/validation_plan.h"

namespace dtcalc {

struct GateCheck {
    ErrorMetric metric = ErrorMetric::Geomean;
    double bound = 0;
    double value = 0;
    bool passed = false;
    std::string why;
};

struct GroupSummary {
    std::string dataset;
    std::string group;
    std::size_t cases = 0;
    double geomean = 0, median = 0, max = 0, mean = 0;
    std::optional<double> reference_geomean;  ///< the reference model's geomean on the same cases
    std::string reference_name;
    std::string x_label;
    bool points_per_model = false;  ///< DatasetResult::points_per_model
    std::string unit;
    std::string note;
    std::vector<GateCheck> gates;
};

struct ValidationReport {
    std::string plan_path;
    std::vector<ValidationCase> cases;
    std::vector<GroupSummary> groups;
    std::vector<std::string> unmatched_gates;  ///< "dataset group-pattern" of gates that matched nothing
    std::vector<std::string> notes;            ///< the datasets' notes (DatasetResult::notes), in order
    int gates_checked = 0;
    int gates_failed = 0;  ///< including unmatched gates

    bool passed() const { return gates_failed == 0; }
};

/// `only`: dataset names to run (empty: all); throws InputError (key
/// "--dataset") for a name the plan does not have. Datasets' own errors
/// (unreadable files, bad rows, unknown presets) propagate as InputError.
ValidationReport run_validation(const ValidationPlan& plan, const ValidationContext& context,
                                const std::vector<std::string>& only = {});

}  // namespace dtcalc
