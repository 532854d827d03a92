#pragma once
// How a collective on a multi-dimensional group becomes per-dimension phases
// (ASTRA-sim's system layer):
// - all-reduce, localBWAware: reduce-scatter on each spanned dimension but the
//   last (innermost first), all-reduce on the last, all-gather back down; each
//   dimension works on the data left by the ones inside it, so outer
//   dimensions carry chunks shrunk by the inner group sizes.
// - all-reduce, baseline: the whole all-reduce on each dimension in turn.
// - reduce-scatter: dimension by dimension, innermost first, shrinking.
// - all-gather: dimension by dimension, outermost first, growing.
// - all-to-all: dimension by dimension, the whole buffer on each.
// - a flat `one*` algorithm: one phase over the whole group.
#include <cstdint>
#include <vector>

#include "collective/comm_group.h"
#include "core/collective_kind.h"
#include "system/system_config.h"

namespace dtcalc {

struct PlannedPhase {
    int dimension = 0;                 ///< network dimension (for a flat phase: the innermost spanned)
    CollectiveKind kind = CollectiveKind::AllReduce;
    AlgorithmChoice algorithm;
    int npus = 1;                      ///< members taking part (group size for a flat phase)
    std::uint64_t data_bytes = 0;      ///< data this phase works on, per chunk (see algorithm_steps.h)
};

/// Checks that the system's algorithms can run `kind` on `group`: each spanned
/// dimension's algorithm has this collective, and halvingDoubling has a
/// power-of-two number of NPUs there (oneHalvingDoubling: in the whole group). Throws InputError at the implementation
/// entry (SystemConfig::implementation_where: file, line and key; for a system
/// built in code, the key only), so bad input never reaches plan_phases' own
/// checks.
void check_phase_algorithms(CollectiveKind kind, const CommGroup& group, const SystemConfig& system);

/// `chunk_bytes` is one chunk of the collective's buffer (for all-gather, of
/// each NPU's input). Throws std::invalid_argument when the system names an
/// algorithm the collective does not have (a broken contract: callers run
/// check_phase_algorithms first).
std::vector<PlannedPhase> plan_phases(CollectiveKind kind, const CommGroup& group, const SystemConfig& system,
                                      std::uint64_t chunk_bytes);

}  // namespace dtcalc
