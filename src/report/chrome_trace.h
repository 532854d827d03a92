#pragma once
// The evaluated timeline as Chrome trace-event JSON (opens in Perfetto and
// chrome://tracing): one process per role, one thread (track) per stream —
// compute, memory, and communication per network dimension — and one
// complete ("X") event per op, named as in the workload.
#include <ostream>

#include "schedule/evaluate.h"
#include "workload/workload_graph.h"

namespace dtcalc {

void write_chrome_trace(std::ostream& out, const WorkloadGraph& graph, const Schedule& schedule);

}  // namespace dtcalc
