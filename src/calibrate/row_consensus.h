#pragma once
// Which of several measurements of one thing (one collective, shape and size;
// one training case and metric) a fit may trust. Runs that agree are within
// `ratio` of each other (largest / smallest below it). When they do not all
// agree, the largest set of runs that do, if it is more than half of them,
// is the consensus: a node pair with a failing link, a run on a busy node,
// is an outlier beside it, left out and named. Without such a majority (two
// runs 2.5x apart; two pairs against two) nothing says which is right: the
// rows contradict each other and all of them are left out.
//
// Example (ratio 2): 1280, 1290, 1300, 2540 us: 2540 / 1280 = 1.98, so all
// four agree and all are kept; 1280, 1290, 1300, 5000: the three agree and
// 5000 is an outlier; 180, 450: no majority, contradictory.
#include <cstddef>
#include <vector>

namespace dtcalc {

struct RowConsensus {
    std::vector<std::size_t> kept;      ///< indices into the values, ascending
    std::vector<std::size_t> outliers;  ///< left out beside a consensus, ascending
    bool contradictory = false;         ///< no majority agrees: every row left out (kept and outliers empty)
};

/// `values` > 0, `ratio` > 1. Among equally large agreeing sets, the one of
/// the smallest spread (largest / smallest), then of the smallest values.
RowConsensus row_consensus(const std::vector<double>& values, double ratio);

/// The median of values[i] for i in `rows` (the mean of the middle two for an
/// even count); `rows` non-empty.
double median_of(const std::vector<double>& values, const std::vector<std::size_t>& rows);

}  // namespace dtcalc
