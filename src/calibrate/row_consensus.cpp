#include "calibrate/row_consensus.h"

#include <algorithm>
#include <numeric>

namespace dtcalc {

RowConsensus row_consensus(const std::vector<double>& values, double ratio) {
    RowConsensus out;
    const std::size_t n = values.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    // The widest window of the sorted values whose largest / smallest < ratio.
    std::size_t best_lo = 0, best_len = 0;
    double best_spread = 0;
    for (std::size_t lo = 0, hi = 0; lo < n; ++lo) {
        if (hi < lo) hi = lo;
        while (hi + 1 < n && values[order[hi + 1]] < ratio * values[order[lo]]) ++hi;
        const std::size_t len = hi - lo + 1;
        const double spread = values[order[hi]] / values[order[lo]];
        if (len > best_len || (len == best_len && spread < best_spread)) {
            best_lo = lo;
            best_len = len;
            best_spread = spread;
        }
    }
    if (2 * best_len <= n) {
        out.contradictory = true;
        return out;
    }
    for (std::size_t k = 0; k < n; ++k)
        (k >= best_lo && k < best_lo + best_len ? out.kept : out.outliers).push_back(order[k]);
    std::sort(out.kept.begin(), out.kept.end());
    std::sort(out.outliers.begin(), out.outliers.end());
    return out;
}

double median_of(const std::vector<double>& values, const std::vector<std::size_t>& rows) {
    std::vector<double> v;
    v.reserve(rows.size());
    for (std::size_t r : rows) v.push_back(values[r]);
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2.0;
}

}  // namespace dtcalc
