#pragma once
// Writers for `dtcalc validate`: a table for a person (every case with its
// measured and predicted time and signed error, then a summary per group
// against its gates, then PASS/FAIL), CSV (one row per case) and JSON (cases,
// groups with their gates, the verdict).
#include <ostream>

#include "validate/validation_run.h"

namespace dtcalc {

/// The summary per group first, then (with `per_case`) every case, then the verdict.
void write_validation_table(std::ostream& out, const ValidationReport& report, bool per_case = false);
void write_validation_csv(std::ostream& out, const ValidationReport& report);
void write_validation_json(std::ostream& out, const ValidationReport& report);

}  // namespace dtcalc
