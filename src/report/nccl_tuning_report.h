#pragma once
// The text table of `dtcalc collective --tuning`: NCCL's own latency and
// bandwidth for every algorithm and protocol of one collective on one
// communicator (collective/nccl/nccl_model.h, nccl_tuning_table), laid out as
// NCCL_DEBUG_SUBSYS=TUNING prints its table, so that a run's log can be set
// beside it.
#include <ostream>

#include "collective/nccl/nccl_model.h"
#include "core/collective_kind.h"

namespace dtcalc {

void write_nccl_tuning_table(std::ostream& out, CollectiveKind kind, const NcclTuningTable& table);

}  // namespace dtcalc
