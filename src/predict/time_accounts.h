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
#include <array>
#include <span>
#include <utility>

#include "workload/step_layout.h"

namespace dtcalc {

struct ClassedInterval {
    double start = 0, end = 0;
    TrafficClass traffic = TrafficClass::Tensor;
};

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

/// The accounts of a stage whose last op ends at `wall`, whose compute stream
/// was busy `compute_busy` over `compute` (one stream: in order, disjoint),
/// and whose communication ran over `comm` (any order; sorted here in place).
/// Pure otherwise: the same intervals give the same bits whichever evaluator
/// timed them. Each union is covered_length()'s (core/interval_union.h).
TimeAccounts account_stage_time(double wall, double compute_busy, std::span<const std::pair<double, double>> compute,
                                std::span<ClassedInterval> comm);

/// "tp", "cp", "ep", "dp", "pp": the JSON and CSV names of a class.
const char* traffic_class_key(TrafficClass traffic);

}  // namespace dtcalc
