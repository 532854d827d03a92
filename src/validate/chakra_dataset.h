#pragma once
// Dataset kind "chakra-astrasim": a Chakra trace run the way `dtcalc astra`
// runs it (chakra/astra_run.h, congestion-unaware), against ASTRA-sim's own
// per-NPU output for the same files (`file`: a CSV with sys_id, wall_cycles,
// exposed_comm_cycles; 1 cycle = 1 ns). Inputs: workload (the trace prefix),
// comm-groups, system, network, remote-memory. Groups: "wall" and
// "exposed-comm"; x: NPU id + 1; values in us.
#include "validate/dataset_kind.h"

namespace dtcalc {

DatasetResult run_chakra_dataset(const DatasetSpec& spec, const ValidationContext& context);

}  // namespace dtcalc
