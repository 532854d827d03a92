#include "compute/gemm_efficiency.h"

#include <algorithm>
#include <cmath>

namespace dtcalc {

double wave_efficiency(const GemmTiling& t, double m, double n, double batch) {
    double best = 0;
    for (const auto& [tm, tn] : t.tiles) {
        const double tiles = std::ceil(m / tm) * std::ceil(n / tn) * batch;
        const double waves = std::ceil(tiles / t.sms);
        best = std::max(best, m * n * batch / (waves * t.sms * tm * tn));
    }
    return best;
}

double k_fill_efficiency(const GemmTiling& t, double k) { return k / (k + t.k_overhead); }

double plateau_from_benchmark(const GemmTiling& t, double m, double n, double k, double achieved_fraction) {
    return achieved_fraction / (wave_efficiency(t, m, n) * k_fill_efficiency(t, k));
}

double gemm_shape_efficiency(const GemmShapeModel& model, double m, double n, double k, double batch) {
    const double e = model.plateau * wave_efficiency(model.tiling, m, n, batch) * k_fill_efficiency(model.tiling, k);
    return std::min(1.0, e);
}

}  // namespace dtcalc
