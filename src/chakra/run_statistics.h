#pragma once
// ASTRA-sim's end-of-run statistics for every NPU of an evaluated trace
// (its Statistics and Workload::report), from the timeline of each role:
//
//   finished  = when the NPU's last node ends
//   exposed   = finished - the sum of its accelerator COMP nodes' durations
//   Wall time = the latest end of any node
//   GPU / CPU / Comm / Remote mem time = the union of the intervals of that
//       kind of node (Comm: collectives, sends and receives, a receive's
//       interval starting when it was issued, so its wait counts)
//   with roofline-enabled, weighting each COMP node by its duration d, over
//   T = 1 + sum of d (ASTRA-sim's guard against dividing by zero):
//       compute bound %      = 100 x sum of d over compute-bound nodes / T
//       compute utilization  = 100 x sum of d x perf / peak / T
//       memory utilization   = 100 x sum of d x (perf / OI) / local-mem-bw / T
//       operation intensity  = sum of d x OI / T
//   peak memory (with track-local-mem): memory_tracker.h.
// Times are whole cycles (1 ns).
#include <vector>

#include "chakra/trace_graph.h"
#include "report/astra_log.h"
#include "schedule/evaluate.h"
#include "system/system_config.h"

namespace dtcalc::chakra {

/// One entry per NPU, in rank order.
std::vector<AstraRankStats> astra_statistics(const TraceGraph& trace, const Schedule& schedule,
                                             const SystemConfig& system);

}  // namespace dtcalc::chakra
