#pragma once
// Achieved fraction of a device's dense peak for one GEMM of shape (m x k) times
// (k x n), repeated `batch` times in one launch, as tiled GEMM kernels run it:
//
//   eff(m, n, k) = plateau x waves(m, n) x fill(k)
//
//   waves(m, n)  tile and wave quantisation: a kernel with tile_m x tile_n output
//                tiles covers the m x n output with ceil(m / tile_m) x
//                ceil(n / tile_n) tiles (x batch), one tile per SM at a time, so
//                it runs ceil(tiles / sms) waves of sms x tile_m x tile_n outputs;
//                waves = m n batch / that area. The library picks among its
//                tiles per shape: the best of the device's tile list.
//   fill(k)      k / (k + k_overhead): each tile pays a fixed prologue (filling
//                the operand pipeline) and epilogue (writing its output) worth
//                k_overhead steps of its K loop.
//   plateau      what a large, well-shaped GEMM reaches: taken from a published
//                benchmark point (m, n, k, achieved fraction), divided by the
//                waves and fill this model gives that shape, so the model
//                reproduces the benchmark there.
//
// The tile and SM count are hardware and library facts of the device; the
// benchmark point is per device and precision (the preset names its source).

#include <utility>
#include <vector>

namespace dtcalc {

struct GemmTiling {
    std::vector<std::pair<double, double>> tiles =
        std::vector<std::pair<double, double>>(1, {128.0, 256.0});  ///< output tiles (rows, columns) the library picks from
    double sms = 0;          ///< streaming multiprocessors (tiles running at once)
    double k_overhead = 0;   ///< per-tile prologue + epilogue, in elements of K
};

/// Tile and wave quantisation in (0, 1]; m, n, batch > 0.
double wave_efficiency(const GemmTiling& t, double m, double n, double batch = 1);
/// Pipeline fill k / (k + k_overhead) in (0, 1]; k > 0.
double k_fill_efficiency(const GemmTiling& t, double k);

struct GemmShapeModel {
    GemmTiling tiling;
    double plateau = 0;   ///< 0: not given (the device's FLOPs curve is used instead)
    bool given() const { return plateau > 0; }
};

/// The plateau that makes the model reproduce a benchmark: achieved / (waves x fill) at its shape.
double plateau_from_benchmark(const GemmTiling& t, double m, double n, double k, double achieved_fraction);

/// eff(m, n, k) as above, capped at 1.
double gemm_shape_efficiency(const GemmShapeModel& model, double m, double n, double k, double batch = 1);

}  // namespace dtcalc
