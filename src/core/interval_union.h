#pragma once
// How long a set of busy intervals covers, overlaps counted once: the
// communication time of a role, whatever runs at the same time.
#include <span>
#include <utility>

namespace dtcalc {

/// The total length of `sorted` intervals (start, end), sorted by start then
/// end: overlapping and touching intervals are merged and the merged lengths
/// summed in order, so the same intervals give the same bits every time.
double covered_length(std::span<const std::pair<double, double>> sorted);

}  // namespace dtcalc
