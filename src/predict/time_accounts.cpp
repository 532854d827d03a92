#include "predict/time_accounts.h"

#include <algorithm>
#include <bit>


namespace dtcalc {
namespace {

bool before(const ClassedInterval& a, const ClassedInterval& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end < b.end;
    return a.traffic < b.traffic;
}

// Sorts by (start, end, class). Evaluators hand the intervals over nearly in
// order (out of order only where collectives queue), so an insertion sort
// does it in about one pass; one that has to move too far gives way to std::sort.
void sort_intervals(std::span<ClassedInterval> v) {
    std::size_t moves = 0;
    const std::size_t budget = 8 * v.size() + 64;
    for (std::size_t i = 1; i < v.size(); ++i) {
        if (!before(v[i], v[i - 1])) continue;
        const ClassedInterval moving = v[i];
        std::size_t j = i;
        for (; j > 0 && before(moving, v[j - 1]); --j) v[j] = v[j - 1];
        v[j] = moving;
        moves += i - j;
        if (moves > budget) {
            std::sort(v.begin(), v.end(), before);
            return;
        }
    }
}

// covered_length() (core/interval_union.h) one interval at a time, for
// intervals fed in (start, end) order.
struct RunningUnion {
    double total = 0, start = 0, end = -1;
    bool open = false;
    void add(double s, double e) {
        if (open && s <= end) {
            end = std::max(end, e);
            return;
        }
        if (open) total += end - start;
        start = s;
        end = e;
        open = true;
    }
    double length() const { return open ? total + (end - start) : total; }
};

}  // namespace

TimeAccounts account_stage_time(double wall, double compute_busy, std::span<const std::pair<double, double>> compute,
                                std::span<ClassedInterval> comm) {
    sort_intervals(comm);
    unsigned present = 0;  // the classes with any interval
    for (const ClassedInterval& c : comm) present |= 1u << static_cast<unsigned>(c.traffic);
    const bool one_class = (present & (present - 1)) == 0;
    // One sweep over communication and compute in (start, end) order (ties:
    // communication first), keeping each union the accounts need. With one
    // class of traffic its unions are the totals.
    RunningUnion all, all_and_compute;
    std::array<RunningUnion, kTrafficClasses> by_class{}, class_and_compute{};
    std::size_t i = 0, j = 0;
    while (i < comm.size() || j < compute.size()) {
        const bool take_comm = j == compute.size() ||
                               (i < comm.size() && !(compute[j].first < comm[i].start ||
                                                     (compute[j].first == comm[i].start && compute[j].second < comm[i].end)));
        if (take_comm) {
            const ClassedInterval& c = comm[i++];
            all.add(c.start, c.end);
            all_and_compute.add(c.start, c.end);
            if (one_class) continue;
            const auto k = static_cast<std::size_t>(c.traffic);
            by_class[k].add(c.start, c.end);
            class_and_compute[k].add(c.start, c.end);
        } else {
            const auto [start, end] = compute[j++];
            all_and_compute.add(start, end);
            if (one_class) continue;
            for (unsigned m = present; m; m &= m - 1) class_and_compute[static_cast<std::size_t>(std::countr_zero(m))].add(start, end);
        }
    }
    if (one_class && present) {
        const auto k = static_cast<std::size_t>(std::countr_zero(present));
        by_class[k] = all;
        class_and_compute[k] = all_and_compute;
    }
    TimeAccounts out;
    out.compute_ns = compute_busy;
    out.comm_ns = all.length();
    out.exposed_comm_ns = std::clamp(all_and_compute.length() - compute_busy, 0.0, out.comm_ns);
    out.bubble_ns = std::max(0.0, wall - (compute_busy + out.exposed_comm_ns));
    out.idle_ns = std::max(0.0, wall - compute_busy);
    for (std::size_t k = 0; k < by_class.size(); ++k) {
        if (!by_class[k].open) continue;
        TrafficTime& t = out.by_class[k];
        t.comm_ns = by_class[k].length();
        t.exposed_ns = std::clamp(class_and_compute[k].length() - compute_busy, 0.0, t.comm_ns);
    }
    return out;
}

const char* traffic_class_key(TrafficClass traffic) {
    switch (traffic) {
        case TrafficClass::Tensor: return "tp";
        case TrafficClass::Context: return "cp";
        case TrafficClass::Expert: return "ep";
        case TrafficClass::Data: return "dp";
        case TrafficClass::Pipeline: return "pp";
    }
    return "?";
}

}  // namespace dtcalc
