#pragma once
// Where one pipeline stage's iteration goes, from the intervals its ops ran:
//
//   wall = compute + exposed communication + bubble
//
//   compute                 the compute stream busy
//   communication           any of its communication in flight (overlaps counted once)
//   exposed communication   communication in flight while the compute stream idles:
//                           |communication U compute| - compute, never above communication
//   bubble                  neither computing nor communicating: waiting for another
//                           stage's activations or gradients (pipeline fill and drain);
//                           0 without a pipeline
//   idle                    wall - compute = exposed + bubble (what ASTRA-sim calls exposed
//                           communication, and `run` and `astra` print under that name)
//
// Per traffic class (TP, CP, EP, DP, PP) the same two numbers: its time in
// flight and its time in flight while compute idles. Classes in flight at the
// same time each count it, so their exposed times can add up to more than the
// total.
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "workload/step_layout.h"

namespace dtcalc {

struct TrafficTime {
    double comm_ns = 0;
    double exposed_ns = 0;
};

struct TimeAccounts {
    double compute_ns = 0;
    double comm_ns = 0;
    double exposed_comm_ns = 0;
    double bubble_ns = 0;
    double idle_ns = 0;
    std::array<TrafficTime, kTrafficClasses> by_class{};  ///< indexed by TrafficClass
};

/// Keeps one stage's accounts as its ops are handed over in the order the
/// stage runs them (the step layout's order), each op once, with its timing,
/// in constant time per op (amortised).
///
/// An op starts when its predecessors and its streams are done, and every op
/// the stage runs after a receive waits for it; so the stage falls idle with
/// nothing in flight only while it waits for a receive, for exactly the time
/// between the latest end so far and the message's arrival (the bubble). And
/// any communication in flight while the compute stream idles before a
/// compute op was handed over before that op (later ops start no earlier than
/// it), so each class's exposed time is settled at every compute gap from the
/// intervals still in flight. One class's ops share its streams: they
/// come in order and do not overlap, so its busy time is their running union.
/// Unions follow covered_length()'s rule (core/interval_union.h).
class StageTimeAccountant {
public:
    /// Starts over; without `by_class` only the totals are kept (the per-class
    /// accounts cost about half again the time of timing the step: the sweep
    /// asks for them only when its rows show them).
    void clear(bool by_class = true);
    void compute(double start, double end) { by_class_ ? compute_as<true>(start, end) : compute_as<false>(start, end); }
    void communicate(double start, double end, TrafficClass traffic) {
        by_class_ ? communicate_as<true>(start, end, traffic) : communicate_as<false>(start, end, traffic);
    }
    /// compute() and communicate() for a caller that knows clear()'s
    /// `by_class` at compile time: the sweep's timer, which makes one loop
    /// for each and spares the test per op.
    template <bool ByClass>
    [[gnu::always_inline]] void compute_as(double start, double end) {
        if (ByClass && start > compute_end_ && !pending_.empty()) settle(compute_end_, start);
        compute_end_ = end;  // compute ops end in order: the frontier takes it when it is read
        compute_busy_ += end - start;
    }
    template <bool ByClass>
    [[gnu::always_inline]] void communicate_as(double start, double end, TrafficClass traffic) {
        frontier_ = std::max(frontier_, end);
        if (!(end > start)) return;
        const auto k = static_cast<std::size_t>(traffic);
        run_.add(start, end, all_);
        if (!ByClass) return;
        unions_[k].add(start, end);
        pending_.push_back({start, end, k});
    }
    void receive(double arrival) {
        const double frontier = std::max(frontier_, compute_end_);
        if (arrival > frontier) {
            bubble_ += arrival - frontier;
            frontier_ = arrival;
        }
    }
    /// No communication handed over so far ends later, nor any receive's arrival.
    double communication_end() const { return frontier_; }
    /// The accounts of a stage whose last op ends at `wall`.
    TimeAccounts finish(double wall);

private:
    // covered_length() one interval at a time, for intervals in (start, end) order.
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
    // The union of every class's intervals so far, merged as they come: a run
    // of intervals in start order (each merged into the run while it starts
    // within it, covered_length()'s rule, else the run is closed into the
    // list); one that starts before the run goes into the list as it is. The
    // list and the open run have the same union as the intervals, so the
    // finished union is the same merged runs, summed in the same order.
    // While no interval has come out of order, the list is its own merged
    // runs in order (each closed run ends before the next starts), and their
    // lengths summed as they close are covered_length()'s sum.
    struct MergingRun {
        double start = 0, end = -1;
        bool open = false;
        bool in_order = true;     // no interval has gone into the list as it is
        double closed_total = 0;  // the closed runs' lengths, summed in order
        [[gnu::always_inline]] void add(double s, double e, std::vector<std::pair<double, double>>& closed) {
            if (open && s >= start) {
                if (s <= end) {
                    end = std::max(end, e);
                    return;
                }
                closed.emplace_back(start, end);
                closed_total += end - start;
            } else if (open) {
                closed.emplace_back(s, e);
                in_order = false;
                return;
            }
            start = s;
            end = e;
            open = true;
        }
    };
    // Adds to each class's exposed time its overlap with the compute gap
    // [from, to); what ends by `to` is settled for good (later gaps start later).
    void settle(double from, double to);
    struct Pending {
        double start, end;
        std::size_t traffic;
    };

    bool by_class_ = true;
    double frontier_ = 0;  // latest end so far
    double bubble_ = 0;
    double compute_busy_ = 0;
    double compute_end_ = 0;  // the compute stream is free from here
    std::vector<std::pair<double, double>> all_;  // the union's closed runs and out-of-order intervals
    MergingRun run_;                              // the union's open run
    std::array<RunningUnion, kTrafficClasses> unions_{};
    std::vector<Pending> pending_;  // communication that may still overlap a compute gap
    std::array<double, kTrafficClasses> exposed_{};
};

/// "tp", "cp", "ep", "dp", "pp": the JSON and CSV names of a class.
const char* traffic_class_key(TrafficClass traffic);

}  // namespace dtcalc
