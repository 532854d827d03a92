#pragma once
// How a parallelization strategy splits one GEMM layer over the NPUs, and the
// collectives each training phase needs (the rules of ASTRA-sim's workload
// generator, gen_astrasim_workload_input.py, written out in general form).
//
// The layer: out[M x N] = X[M x K] . W[K x N] (M the batch, N the output
// features, K the input features). With a data-parallel degree D (splits M)
// and a model-parallel degree T (splits N: each NPU holds W[:, N/T columns]),
// one NPU computes, with m = M/D, n = N/T and s = datatype bytes:
//   forward          out[m x n] = X[m x K] . W[K x n]          GEMM (m, n, K)
//   input gradient   dX[m x K]  = dOut[m x n] . W[K x n]^T     GEMM (m, K, n)
//   weight gradient  dW[K x n]  = X[m x K]^T . dOut[m x n]     GEMM (K, n, m)
// (GEMM (a, b, c): an a x b result summed over c.) Collectives, per phase:
//   forward   ALLGATHER inside the model-parallel group (T > 1): each NPU holds
//             out[m x n] and the next layer needs all N columns;
//             size = each NPU's input, m.n.s = M.N.s / (D.T)
//   input     REDUCESCATTER inside the model-parallel group (T > 1): each NPU
//   gradient  holds a partial sum of dX over its n columns; the previous layer
//             needs only its own share; size = the whole buffer, m.K.s = M.K.s / D
//   weight    ALLREDUCE across the data-parallel group (D > 1): the D replicas
//   gradient  of W[:, n columns] sum their gradients; size = K.n.s = K.N.s / T
// A collective over a group of one NPU is NONE.
//
// Degrees, for P NPUs in `packages` packages of P/packages NPUs each (the
// generator's meaning: a package is a block of consecutive NPU ids):
//   DATA               D = P,            T = 1
//   MODEL              D = 1,            T = P
//   HYBRID_DATA_MODEL  D = packages,     T = P/packages  (model-parallel inside a
//                                         package, data-parallel between packages)
//   HYBRID_MODEL_DATA  D = P/packages,   T = packages    (model-parallel between
//                                         packages, data-parallel inside a package)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gemm/mnk_table.h"
#include "workload/astra_v1_workload.h"

namespace dtcalc {

enum class GemmStrategy { Data, Model, HybridDataModel, HybridModelData };

/// "DATA", "MODEL", "HYBRID_DATA_MODEL", "HYBRID_MODEL_DATA" (exactly, as the generator spells them).
std::optional<GemmStrategy> parse_gemm_strategy(std::string_view name);
std::string_view gemm_strategy_name(GemmStrategy strategy);

struct ParallelDegrees {
    std::int64_t data = 1;   ///< D: replicas that split M
    std::int64_t model = 1;  ///< T: NPUs that split N
};

/// Throws InputError (key "--npus" or "--packages") for npus < 1, packages < 1,
/// or packages not dividing npus.
ParallelDegrees parallel_degrees(GemmStrategy strategy, std::int64_t npus, std::int64_t packages);

/// An a x b result summed over c: `rows` x `cols` output, `depth` reduction.
struct LocalGemm {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t depth = 0;
    double flops() const { return 2.0 * static_cast<double>(rows) * static_cast<double>(cols) * static_cast<double>(depth); }
};

/// One NPU's share of a layer: the three GEMMs and the three collectives.
struct LayerSplit {
    LocalGemm forward;
    LocalGemm input_gradient;
    LocalGemm weight_gradient;
    V1Comm forward_comm;
    V1Comm input_gradient_comm;
    V1Comm weight_gradient_comm;
    std::uint64_t weight_bytes = 0;  ///< the NPU's weight shard, K.n.s
};

/// Throws InputError at the layer's file:line (key "m" or "n") when D does not
/// divide M or T does not divide N, and (key "layer") when a size overflows.
LayerSplit split_layer(const GemmLayer& layer, const std::string& path, ParallelDegrees degrees, int datatype_bytes);

}  // namespace dtcalc
