#include "predict/time_accounts.h"

#include <algorithm>

#include "core/interval_union.h"

namespace dtcalc {

namespace {

// covered_length() of intervals nearly in order already (out of order only
// where collectives queue): an insertion sort, which gives way to std::sort
// when it has to move too far.
double union_length(std::vector<std::pair<double, double>>& all) {
    std::size_t moves = 0;
    const std::size_t budget = 8 * all.size() + 64;
    for (std::size_t i = 1; i < all.size(); ++i) {
        if (!(all[i] < all[i - 1])) continue;
        const std::pair<double, double> moving = all[i];
        std::size_t j = i;
        for (; j > 0 && moving < all[j - 1]; --j) all[j] = all[j - 1];
        all[j] = moving;
        moves += i - j;
        if (moves > budget) {
            std::sort(all.begin(), all.end());
            break;
        }
    }
    return covered_length(all);
}

}  // namespace

void StageTimeAccountant::clear(bool by_class) {
    by_class_ = by_class;
    frontier_ = bubble_ = compute_busy_ = compute_end_ = 0;
    all_.clear();
    run_ = {};
    unions_ = {};
    pending_.clear();
    exposed_ = {};
}

void StageTimeAccountant::settle(double from, double to) {
    std::size_t kept = 0;
    for (const Pending& p : pending_) {
        const double lo = std::max(p.start, from);
        const double hi = std::min(p.end, to);
        if (hi > lo) exposed_[p.traffic] += hi - lo;
        if (p.end > to) pending_[kept++] = p;
    }
    pending_.resize(kept);
}

TimeAccounts StageTimeAccountant::finish(double wall) {
    if (wall > compute_end_) settle(compute_end_, wall);
    TimeAccounts out;
    out.compute_ns = compute_busy_;
    if (run_.in_order) {
        out.comm_ns = run_.open ? run_.closed_total + (run_.end - run_.start) : run_.closed_total;
    } else {
        if (run_.open) {
            all_.emplace_back(run_.start, run_.end);
            run_.open = false;
        }
        out.comm_ns = union_length(all_);
    }
    for (std::size_t k = 0; k < out.by_class.size(); ++k) {
        TrafficTime& t = out.by_class[k];
        t.comm_ns = unions_[k].length();
        t.exposed_ns = std::min(exposed_[k], t.comm_ns);
    }
    const double bubble = bubble_ + std::max(0.0, wall - std::max(frontier_, compute_end_));
    out.idle_ns = std::max(0.0, wall - compute_busy_);
    out.exposed_comm_ns = std::clamp(out.idle_ns - bubble, 0.0, out.comm_ns);
    out.bubble_ns = std::max(0.0, out.idle_ns - out.exposed_comm_ns);
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
