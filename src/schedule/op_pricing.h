#pragma once
// What both schedulers (evaluate.h's graph order and issue_order.h's
// ASTRA-sim issue rule) share: checking a graph's references, pricing every
// op once, and summing a finished schedule into per-role figures, roofline
// statistics and the critical path.
#include <vector>

#include "schedule/evaluate.h"

namespace dtcalc {

[[noreturn]] void fail_on_op(const WorkloadGraph& graph, int op, const std::string& message);

/// Roles, dependencies, peers and costs in range; a Collective or Send needs
/// a valid group unless it is already priced and `priced_needs_group` is false.
void check_op_references(const WorkloadGraph& graph, bool priced_needs_group);

struct OpPrices {
    std::vector<double> ns;                  ///< each op's duration
    std::vector<signed char> compute_bound;  ///< -1: not timed by the roofline
};

/// duration_ns when given (>= 0; a receive always takes 0), else the roofline,
/// the memory stream, or the collective engine (one query per distinct collective).
OpPrices price_ops(const WorkloadGraph& graph, const EvaluationSystem& system);

/// Fills `out.roles`, `out.wall_ns`, `out.roofline` and `out.critical_path`
/// from `out.ops`. Host compute (Op::host) does not count as compute busy.
void summarize_schedule(const WorkloadGraph& graph, const EvaluationSystem& system, const OpPrices& prices,
                        Schedule& out);

}  // namespace dtcalc
