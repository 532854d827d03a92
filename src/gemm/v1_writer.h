#pragma once
// Prints a V1Workload in ASTRA-sim 1.0's text format (astra_v1_workload.h):
// the parallelism line (with the model-parallel group size or DLRM's last
// bottom layer after a space, when there is one), the layer count, then per
// layer the 12 fields separated by single spaces, the reserved field as -1.
// Sizes are printed as stored (ALLGATHER: each NPU's input). Times print in
// their shortest exact form, so parse_v1_workload_text reads back the same
// values (whole numbers print without a decimal point).
#include <ostream>
#include <string>

#include "workload/astra_v1_workload.h"

namespace dtcalc {

void write_v1_workload(std::ostream& out, const V1Workload& workload);
std::string v1_workload_text(const V1Workload& workload);

}  // namespace dtcalc
