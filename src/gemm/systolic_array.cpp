#include "gemm/systolic_array.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/error.h"
#include "core/name_key.h"

namespace dtcalc {

std::optional<Dataflow> parse_dataflow(std::string_view name) {
    const std::string n = ascii_lower(name);
    if (n == "ws") return Dataflow::WeightStationary;
    if (n == "os") return Dataflow::OutputStationary;
    if (n == "is") return Dataflow::InputStationary;
    return std::nullopt;
}

std::string_view dataflow_name(Dataflow dataflow) {
    switch (dataflow) {
        case Dataflow::WeightStationary: return "ws";
        case Dataflow::OutputStationary: return "os";
        case Dataflow::InputStationary: return "is";
    }
    return "ws";
}

void validate_systolic_array(const SystolicArray& a, const std::string& source) {
    if (a.rows < 1 || a.cols < 1 || a.rows > 65536 || a.cols > 65536)
        throw InputError({source, 0, 0, ""}, "array rows and columns must be 1 to 65536 (got " + std::to_string(a.rows) +
                                                 "x" + std::to_string(a.cols) + ")");
    if (!(a.dram_words_per_cycle >= 1e-6 && a.dram_words_per_cycle <= 1e9))
        throw InputError({"--dram-bw", 0, 0, ""},
                         "expected 1e-6 to 1e9 words per cycle, got " + fmt::format("{}", a.dram_words_per_cycle));
    if (!(a.clock_ghz >= 1e-6 && a.clock_ghz <= 1e6))
        throw InputError({"--clock-ghz", 0, 0, ""}, "expected 1e-6 to 1e6 GHz, got " + fmt::format("{}", a.clock_ghz));
}

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

double words(std::int64_t a, std::int64_t b) { return static_cast<double>(a) * static_cast<double>(b); }

/// ws and is: stationary S (Sr x Sc), moving X (T x Sr), partial sums Y (T x Sc).
double stationary_operand_traffic(std::int64_t sr, std::int64_t sc, std::int64_t t, std::int64_t r, std::int64_t c,
                                  std::int64_t row_folds, std::int64_t col_folds, double x_capacity, double y_capacity) {
    const double s = words(sr, sc);
    const double x_once = words(t, sr);
    const double y_once = words(t, sc);
    const double x_refetched = x_once * static_cast<double>(col_folds);
    const double y_spilled = static_cast<double>(2 * row_folds - 1) * y_once;
    const double row_major = s + (words(t, r) <= x_capacity ? x_once : x_refetched) + (y_once <= y_capacity ? y_once : y_spilled);
    const double col_major = s + (x_once <= x_capacity ? x_once : x_refetched) + (words(t, c) <= y_capacity ? y_once : y_spilled);
    return std::min(row_major, col_major);
}

/// os: result Y (Sr x Sc) written once, X1 (Sr x T), X2 (T x Sc).
double output_stationary_traffic(std::int64_t sr, std::int64_t sc, std::int64_t t, std::int64_t r, std::int64_t c,
                                 std::int64_t row_folds, std::int64_t col_folds, double x1_capacity, double x2_capacity) {
    const double y = words(sr, sc);
    const double x1_once = words(sr, t);
    const double x2_once = words(t, sc);
    const double x1_refetched = x1_once * static_cast<double>(col_folds);
    const double x2_refetched = x2_once * static_cast<double>(row_folds);
    const double row_major = y + (words(r, t) <= x1_capacity ? x1_once : x1_refetched) + (x2_once <= x2_capacity ? x2_once : x2_refetched);
    const double col_major = y + (x1_once <= x1_capacity ? x1_once : x1_refetched) + (words(t, c) <= x2_capacity ? x2_once : x2_refetched);
    return std::min(row_major, col_major);
}

}  // namespace

SystolicCost systolic_gemm_cost(const SystolicArray& a, const LocalGemm& g, int word_bytes) {
    SystolicCost cost;
    const double w = word_bytes;
    const double ifmap = std::floor(static_cast<double>(a.ifmap_sram_bytes) / w);
    const double filter = std::floor(static_cast<double>(a.filter_sram_bytes) / w);
    const double ofmap = std::floor(static_cast<double>(a.ofmap_sram_bytes) / w);
    switch (a.dataflow) {
        case Dataflow::WeightStationary: cost.spatial_rows = g.depth, cost.spatial_cols = g.cols, cost.temporal = g.rows; break;
        case Dataflow::OutputStationary: cost.spatial_rows = g.rows, cost.spatial_cols = g.cols, cost.temporal = g.depth; break;
        case Dataflow::InputStationary: cost.spatial_rows = g.depth, cost.spatial_cols = g.rows, cost.temporal = g.cols; break;
    }
    const std::int64_t r = a.rows, c = a.cols;
    cost.row_folds = ceil_div(cost.spatial_rows, r);
    cost.col_folds = ceil_div(cost.spatial_cols, c);
    cost.folds = cost.row_folds * cost.col_folds;
    cost.cycles_per_fold = 2 * r + c + cost.temporal - 2;
    cost.compute_cycles = static_cast<double>(cost.folds) * static_cast<double>(cost.cycles_per_fold);
    const std::int64_t sr = cost.spatial_rows, sc = cost.spatial_cols, t = cost.temporal;
    switch (a.dataflow) {
        case Dataflow::WeightStationary:  // X = A (ifmap), Y = out (ofmap)
            cost.dram_words = stationary_operand_traffic(sr, sc, t, r, c, cost.row_folds, cost.col_folds, ifmap, ofmap);
            break;
        case Dataflow::InputStationary:  // X = B^T (filter), Y = out^T (ofmap)
            cost.dram_words = stationary_operand_traffic(sr, sc, t, r, c, cost.row_folds, cost.col_folds, filter, ofmap);
            break;
        case Dataflow::OutputStationary:  // X1 = A (ifmap), X2 = B (filter)
            cost.dram_words = output_stationary_traffic(sr, sc, t, r, c, cost.row_folds, cost.col_folds, ifmap, filter);
            break;
    }
    cost.memory_cycles = std::ceil(cost.dram_words / a.dram_words_per_cycle);
    cost.stall_cycles = std::max(0.0, cost.memory_cycles - cost.compute_cycles);
    cost.total_cycles = cost.compute_cycles + cost.stall_cycles;
    cost.ns = cost.total_cycles / a.clock_ghz;
    return cost;
}

}  // namespace dtcalc
