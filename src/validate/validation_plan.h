#pragma once
// The validation plan: which datasets `dtcalc validate` runs and the error
// bounds it holds them to (validation/gates.toml).
//
//   [[dataset]]  name, kind (dataset_kind.h), file (relative to the gates
//                file's folder), preset (a name, or a .toml path relative like
//                `file`; kinds that predict through a preset need it), optional algorithm / protocol
//                (nccl: NCCL_ALGO / NCCL_PROTO values, collective/nccl/nccl_force.h), env (nccl:
//                the runs' other NCCL settings, ["NCCL_MAX_CTAS=8", ...]), inputs (a table of
//                further files a kind needs, relative like `file`), description
//   [[gate]]     dataset, group (a name, or a pattern where '*' matches any
//                run of characters: "*" is every group, "all-to-all/*"),
//                metric (geomean | median | max | mean of |pred/meas - 1|),
//                bound (a fraction: 0.05 = 5 %), why (optional, shown)
// A gate is checked on every group of its dataset it matches; a gate that
// matches no group fails.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "validate/dataset_kind.h"
#include "validate/error_metrics.h"

namespace dtcalc {

struct Gate {
    std::string dataset;
    std::string group;  ///< pattern
    ErrorMetric metric = ErrorMetric::Geomean;
    double bound = 0;
    std::string why;
    InputLocation where;
};

struct ValidationPlan {
    std::string path;
    std::vector<DatasetSpec> datasets;
    std::vector<Gate> gates;
};

/// Throws InputError naming the file, line and key for anything malformed:
/// unknown keys or kinds, duplicate dataset names, gates naming no dataset,
/// bounds outside (0, 10].
ValidationPlan load_validation_plan(const std::string& path);

/// '*' matches any run of characters (including none); everything else itself.
bool group_matches(std::string_view pattern, std::string_view group);

}  // namespace dtcalc
