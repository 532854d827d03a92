#pragma once
// ASTRA-sim's way of running a Chakra trace, as a list scheduler over a
// workload DAG: what `evaluate` does when EvaluationSystem::issue is
// IssuePolicy::ReadyLowestIndex.
//
// Streams per role, after ASTRA-sim's HardwareResource (one op of each class
// in flight per NPU): accelerator compute; host compute (Op::host); one
// communication stream shared by collectives, sends and memory ops. A receive
// holds no stream.
//
// Time moves from event to event. Whenever an op of a role ends, each free
// stream of that role starts its ready op with the lowest index (ASTRA-sim
// issues the dependency-free node with the lowest id first). An op's interval
// runs from its issue to its end:
//     compute, memory, send:  end = issue + duration
//     receive:                end = max(issue, end of the matching send)
//     collective with a sync id (its group spans several roles): every
//                             member ends at max(issue of the members) + duration
//     any other collective:   end = issue + duration
// So a receive's interval includes its wait for the sender, as ASTRA-sim
// counts it in "Comm time". Dependencies are the graph's edges; the send ->
// receive and sync couplings act only through the rules above, so a role
// never stalls its own streams for another role's progress until it has to.
//
// Durations: duration_ns when given (>= 0), else as `evaluate` prices them
// (roofline, memory bandwidth, the collective engine).
//
// An op that never starts -- a dependency cycle, or a deadlock such as two
// roles issuing two collectives in opposite orders on their one
// communication stream -- is an input error naming it.
#include "schedule/evaluate.h"

namespace dtcalc {

Schedule evaluate_in_issue_order(const WorkloadGraph& graph, const EvaluationSystem& system);

}  // namespace dtcalc
