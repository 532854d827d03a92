#pragma once
// A closed-form model of a GEMM on an R x C systolic array (R rows, C columns
// of multiply-accumulate units), after SCALE-Sim's analytical model
// (Samajdar et al., "A Systematic Methodology for Characterizing Scalability
// of DNN Accelerators using SCALE-Sim", ISPASS 2020), with a first-order
// off-chip traffic model added.
//
// The GEMM is out[M x N] = A[M x K] . B[K x N]. A dataflow keeps one operand
// in the array and maps two dimensions onto it, spatially: Sr onto the rows,
// Sc onto the columns; the third, T, is streamed in time:
//   weight-stationary (ws)  B stays    Sr = K, Sc = N, T = M
//   output-stationary (os)  out stays  Sr = M, Sc = N, T = K
//   input-stationary  (is)  A stays    Sr = K, Sc = M, T = N
// Folds: the Sr x Sc plane is cut into R x C tiles,
//   folds = ceil(Sr / R) . ceil(Sc / C).
// Cycles per fold (every fold pays the whole array's, as SCALE-Sim pads each
// tile to the array):
//   fill   R          the stationary operand shifts in through the R rows
//                     (os: the finished outputs shift out through them)
//   stream T          one vector of the moving operand enters per cycle
//   drain  R + C - 2  the skewed wavefront crosses the rest of the array
//   -> 2R + C + T - 2 per fold; compute = folds . (2R + C + T - 2).
// (Check, ws: weights load in R cycles; input row t enters array row j at
// cycle t + j and reaches column c at t + j + c; the partial sum of (t, c)
// leaves the last row at t + (R - 1) + c + 1, so the last one, t = T - 1,
// c = C - 1, leaves at T + R + C - 2 after the fill.)
//
// Off-chip traffic, in words (one word = one element of `word_bytes`). A sits
// in the ifmap SRAM, B in the filter SRAM, out in the ofmap SRAM. Folds are
// visited in one of two orders and the cheaper is taken:
//   row-major (row folds outer) or column-major (column folds outer).
// ws and is (stationary S = Sr x Sc, moving X = T x Sr, result Y = T x Sc whose
// partial sums add up over the ceil(Sr/R) row folds):
//   S            Sr.Sc, read once (each fold loads its own tile)
//   X            T.Sr if it stays on chip while it is reused, else T.Sr.ceil(Sc/C):
//                row-major reuses one strip (T.R words must fit),
//                column-major reuses all of X (T.Sr words must fit)
//   Y            T.Sc if the partial sums stay on chip while they accumulate,
//                else (2.ceil(Sr/R) - 1).T.Sc (each row fold writes its partial
//                sums, each but the first reads the previous ones back):
//                row-major keeps all of Y (T.Sc words must fit),
//                column-major one tile column (T.C words must fit)
// os (result Y = Sr x Sc stays in the array until done; X1 = A = Sr x T,
// X2 = B = T x Sc):
//   Y            Sr.Sc, written once
//   X1           Sr.T, times ceil(Sc/C) unless kept: row-major keeps a strip
//                (R.T must fit), column-major all of it (Sr.T must fit)
//   X2           T.Sc, times ceil(Sr/R) unless kept: column-major keeps a strip
//                (T.C must fit), row-major all of it (T.Sc must fit)
// The transfers overlap computation (double-buffered SRAMs), so
//   memory  = ceil(words / bandwidth)           (bandwidth in words per cycle)
//   stalls  = max(0, memory - compute)
//   cycles  = compute + stalls
// and ns = cycles / clock_GHz.
//
// Assumptions, stated: the whole capacity of each SRAM holds its operand (no
// half kept back for double buffering); the stationary tile (R.C words) always
// fits; the first fold's operand load is not charged separately (it overlaps
// like the rest); folds do not overlap each other in the array; one word per
// element, whatever the datatype size.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gemm/parallel_split.h"

namespace dtcalc {

enum class Dataflow { WeightStationary, OutputStationary, InputStationary };

/// "ws", "os", "is" (any case).
std::optional<Dataflow> parse_dataflow(std::string_view name);
std::string_view dataflow_name(Dataflow dataflow);  ///< "ws", "os", "is"

struct SystolicArray {
    std::int64_t rows = 32;     ///< R
    std::int64_t cols = 32;     ///< C
    Dataflow dataflow = Dataflow::WeightStationary;
    std::uint64_t ifmap_sram_bytes = 1024 * 1024;   ///< holds A
    std::uint64_t filter_sram_bytes = 1024 * 1024;  ///< holds B
    std::uint64_t ofmap_sram_bytes = 128 * 1024;    ///< holds out
    double dram_words_per_cycle = 10;  ///< off-chip interface bandwidth
    double clock_ghz = 1;
};

struct SystolicCost {
    std::int64_t spatial_rows = 0;  ///< Sr
    std::int64_t spatial_cols = 0;  ///< Sc
    std::int64_t temporal = 0;      ///< T
    std::int64_t row_folds = 0;     ///< ceil(Sr / R)
    std::int64_t col_folds = 0;     ///< ceil(Sc / C)
    std::int64_t folds = 0;
    std::int64_t cycles_per_fold = 0;  ///< 2R + C + T - 2
    double compute_cycles = 0;
    double dram_words = 0;     ///< the cheaper fold order's traffic
    double memory_cycles = 0;  ///< ceil(dram_words / bandwidth)
    double stall_cycles = 0;
    double total_cycles = 0;
    double ns = 0;
};

/// `word_bytes` converts SRAM capacities to words. The caller checks the
/// array (rows, cols, bandwidth, clock > 0; see validate_systolic_array).
SystolicCost systolic_gemm_cost(const SystolicArray& array, const LocalGemm& gemm, int word_bytes);

/// Throws InputError naming `source` (e.g. "--array") for a side outside 1 to
/// 65536, and naming --dram-bw or --clock-ghz for a bandwidth outside 1e-6 to
/// 1e9 words per cycle or a clock outside 1e-6 to 1e6 GHz (NaN included).
void validate_systolic_array(const SystolicArray& array, const std::string& source);

}  // namespace dtcalc
