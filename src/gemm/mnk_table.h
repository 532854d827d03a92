#pragma once
// The GEMM list ASTRA-sim's workload generator reads (its `--mnk` CSV): a
// header `Layer,m,n,k`, then one layer per line, `name,m,n,k`, where the
// layer computes out[m x n] = in[m x k] . W[k x n]:
//   m  rows of the input: the mini-batch (tokens for a transformer); data
//      parallelism splits it,
//   n  output features; model parallelism splits it,
//   k  input features (the reduction dimension).
// Fields are trimmed; empty trailing fields (a spreadsheet's empty columns),
// blank lines, lines of commas only and lines starting with '#' are skipped.
// The header is optional: the first line is taken as one when its second
// field is "m" (any case). Per-layer strategies (the generator's
// HYBRID_CUSTOMIZED fifth column) are not accepted: --parallel applies to
// every layer.
#include <cstdint>
#include <string>
#include <vector>

namespace dtcalc {

/// The largest m, n or k accepted, so that products stay exact in 64 bits.
inline constexpr std::int64_t kMaxGemmDimension = 2147483647;  // 2^31 - 1

struct GemmLayer {
    std::string name;
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    int line = 0;  ///< 1-based line in the CSV
};

struct MnkTable {
    std::string path;
    std::vector<GemmLayer> layers;
};

/// Throws InputError with file:line and the column name for a missing or
/// extra column, an empty or whitespace-containing name, an m/n/k that is not
/// a whole number in [1, 2^31 - 1], a wrong header, or a file without layers.
MnkTable parse_mnk_csv(const std::string& path);
MnkTable parse_mnk_csv_text(const std::string& text, const std::string& path);

}  // namespace dtcalc
