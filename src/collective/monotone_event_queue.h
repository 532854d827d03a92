#pragma once
// A monotone priority queue (radix heap) of events by time, for event passes
// whose events are never scheduled before the last one taken. Bucket i holds
// the events whose time (whole ns) differs from that last time first in bit
// i-1. Events of one time always share a bucket and keep their order of
// scheduling, as ASTRA-sim's event queue runs them; taking one is O(1)
// amortised.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dtcalc {

/// `Event` has a `double time` in whole ns, at or after the last one popped.
template <class Event>
class MonotoneEventQueue {
public:
    bool empty() const { return size_ == 0; }
    void reset() {
        for (auto& b : buckets_) b.clear();
        head_ = 0;
        size_ = 0;
        last_ = 0;
    }
    void push(const Event& e) {
        buckets_[bucket_of(key(e.time))].push_back(e);
        ++size_;
    }
    Event pop() {
        if (head_ >= buckets_[0].size()) {
            buckets_[0].clear();
            head_ = 0;
            std::size_t i = 1;
            while (buckets_[i].empty()) ++i;
            double least = buckets_[i].front().time;
            for (const Event& e : buckets_[i]) least = std::min(least, e.time);
            last_ = key(least);
            for (const Event& e : buckets_[i]) buckets_[bucket_of(key(e.time))].push_back(e);
            buckets_[i].clear();
        }
        --size_;
        return buckets_[0][head_++];
    }

private:
    static std::uint64_t key(double time) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(time)); }
    std::size_t bucket_of(std::uint64_t k) const { return static_cast<std::size_t>(std::bit_width(k ^ last_)); }
    std::vector<Event> buckets_[65];
    std::size_t head_ = 0;
    std::size_t size_ = 0;
    std::uint64_t last_ = 0;
};

}  // namespace dtcalc
