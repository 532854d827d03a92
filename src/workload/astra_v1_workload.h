#pragma once
// ASTRA-sim 1.0's text workloads, and the training loop they describe.
//
// The file: line 1 the parallelism (DATA, MODEL, HYBRID_DATA_MODEL,
// HYBRID_MODEL_DATA, HYBRID_TRANSFORMER, HYBRID_DLRM), optionally followed by
// an integer (after a space or '_'): the model-parallel group size for the
// hybrids, the last bottom-MLP layer for HYBRID_DLRM. Line 2 the layer count.
// Then one line per layer, 12 fields:
//   name reserved fwd_compute fwd_comm_type fwd_comm_size
//   ig_compute ig_comm_type ig_comm_size wg_compute wg_comm_type wg_comm_size update_time
// Compute and update times are cycles (1 ns); comm types ALLREDUCE, ALLGATHER,
// REDUCESCATTER, ALLTOALL or NONE; sizes in bytes (ALLGATHER's is each NPU's
// input, as in ASTRA-sim; dtcalc converts it to the gathered output).
//
// The training loop built from it, for each pass:
// - forward, layers 0..L-1: the layer waits for its own weight-gradient
//   collective of the previous pass and then its weight update (update_time on
//   the compute stream); forward compute; its forward collective, if any,
//   blocks the next layer.
// - backward, layers L-1..0: input-gradient compute (not for layer 0, which
//   has no input to differentiate) and its blocking collective; weight-gradient
//   compute; its weight-gradient collective is issued without blocking.
// - after the last pass every outstanding collective is awaited and every
//   layer's update applied, so the wall time covers all the work.
// Groups: DATA and MODEL use every NPU for every collective. HYBRID_DATA_MODEL
// (and HYBRID_TRANSFORMER) runs forward and input-gradient collectives inside
// the model-parallel group (the first M NPUs) and weight-gradient ones across
// the data-parallel group (the other dimensions); HYBRID_MODEL_DATA the other
// way round. HYBRID_DLRM: the embedding layer (0) exchanges by all-to-all over
// every NPU without blocking; its forward exchange is awaited by the first top
// MLP layer (the one after the last bottom layer), and its backward exchange is
// issued once the top MLP's input gradients are done and awaited by the
// embedding's weight-gradient compute; the MLPs are data-parallel.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/collective_kind.h"
#include "network/network.h"
#include "workload/workload_graph.h"

namespace dtcalc {

enum class V1Parallelism { Data, Model, HybridDataModel, HybridModelData, HybridDlrm };

struct V1Comm {
    std::optional<CollectiveKind> kind;  ///< nullopt for NONE
    std::uint64_t bytes = 0;             ///< as written in the file
};

struct V1Layer {
    std::string name;
    double fwd_compute_ns = 0;
    V1Comm fwd;
    double ig_compute_ns = 0;
    V1Comm ig;
    double wg_compute_ns = 0;
    V1Comm wg;
    double update_ns = 0;
    int line = 0;
};

struct V1Workload {
    std::string path;
    V1Parallelism parallelism = V1Parallelism::Data;
    int parameter = 0;  ///< model-parallel group size, or DLRM's last bottom layer; 0 when absent
    int parallelism_line = 1;  ///< the line of the parallelism (the first non-blank line)
    std::vector<V1Layer> layers;
};

/// Throws InputError with file:line for a wrong field count, an unknown
/// parallelism or comm type, a negative or non-numeric value, a size over
/// 1 PiB or a time over 1e18 cycles (out of range, core/units.h), or a layer
/// count that does not match the lines.
V1Workload parse_v1_workload(const std::string& path);
V1Workload parse_v1_workload_text(const std::string& text, const std::string& path);

/// The training loop above for `passes` passes, one role (every NPU does the
/// same). Throws InputError when the model-parallel size does not fit the
/// network, or an all-gather's output (each NPU's input x the group) passes 1 PiB.
WorkloadGraph build_v1_training_graph(const V1Workload& workload, const Network& network, int passes);

}  // namespace dtcalc
