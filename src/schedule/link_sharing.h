#pragma once
// Communication of different traffic classes on one network dimension (a
// framework's TP, CP, EP, DP and PP traffic: separate communicators on
// separate streams) runs side by side and shares the dimension's links: an op
// that starts while another class's op holds the links moves at half its rate
// until that op ends, then at its full rate. Ops of one class on a dimension
// queue one after another (one stream), as before.
//
// Stated approximation: only the op that starts later is slowed (the one in
// flight keeps its end, which later ops may already have read), and only by
// the other classes' latest op on the dimension; the links' total busy time
// is then underestimated by at most the overlap's half.
#include <algorithm>

namespace dtcalc {

/// The interval a traffic class last held a dimension's links.
struct LaneBusy {
    double start = 0;
    double end = 0;
};

/// When an op of `duration_ns` that starts at `start_ns` ends, the links it
/// crosses being held by other classes over [busy.start, busy.end] (an empty
/// interval when they are idle): full rate before busy.start, half rate while
/// they are held, full rate after.
[[gnu::always_inline]] inline double shared_link_end(double start_ns, double duration_ns, LaneBusy busy) {
    double t = start_ns, left = duration_ns;
    if (left <= 0 || busy.end <= t) return t + left;
    if (busy.start > t) {
        const double alone = std::min(left, busy.start - t);
        t += alone;
        left -= alone;
    }
    if (left > 0 && busy.end > t) {
        const double shared = std::min(2 * left, busy.end - t);
        t += shared;
        left -= shared / 2;
    }
    return t + left;
}

/// The union bound of two busy intervals (the earliest start, the latest end),
/// ignoring an empty one.
inline LaneBusy merge_busy(LaneBusy a, LaneBusy b) {
    if (a.end <= a.start) return b;
    if (b.end <= b.start) return a;
    return {std::min(a.start, b.start), std::max(a.end, b.end)};
}

}  // namespace dtcalc
