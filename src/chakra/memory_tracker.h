#pragma once
// Peak local memory of an NPU, as ASTRA-sim's `track-local-mem` computes it
// from the tensors the nodes name in their `inputs` and `outputs` attributes
// (name, size pairs).
//
// Nodes are recorded as they end, in order of their end time (ties: node
// order). A node's outputs are written at its start; a tensor read before any
// node wrote it is taken to exist from tick 0, and a later write of it is
// ignored (ASTRA-sim keeps the first). A tensor lives from its write to the
// end of its last read; one never read lives to the end. Tensors of size 0
// are ignored. The memory in use is evaluated at every tick where a tensor
// appears or dies (appearances first, then deaths) and the peak is the largest.
//
// INVALID and METADATA nodes, which dtcalc leaves out of the graph, record
// nothing here.
#include <cstdint>

#include "chakra/trace_graph.h"
#include "schedule/evaluate.h"

namespace dtcalc::chakra {

/// Peak bytes for the NPUs of `role`.
std::uint64_t peak_local_memory(const TraceGraph& trace, const Schedule& schedule, int role);

}  // namespace dtcalc::chakra
