#pragma once
// predict()'s numbers without building the training step's DAG, for sweeps.
//
// predict() lays one iteration out as a DAG (workload/training_step.h) and
// walks it once (schedule/evaluate.h): an op starts at the latest end of its
// predecessors and of the streams it occupies (the role's compute stream, or
// every network dimension its group spans); a receive ends when its send does.
// A sweep point with hundreds of micro-batches is thousands of ops, and
// building them costs far more than timing them.
//
// The replay walks the same layout (workload/step_layout.h: the same priced
// pieces, the same schedules, the same function that orders a pass's ops)
// with a consumer that times each op as it comes instead of storing it,
// keeping per stage only what later ops read: when each stream is free, the
// end of the last op on the critical chain, of the overlapped ops the next
// pass waits for, and of the gradient reductions the optimizer waits for; a
// table of send ends per message tag. A stage stops at a receive whose send
// has not been timed yet and the next stage goes on; within a stage every op
// after a receive depends on it, so each stream sees its ops in the order the
// evaluator gives them, and every start, end and sum is the same
// floating-point operation on the same numbers as in evaluate() and
// predict(): the results are identical to the last bit
// (tests/sweep_replay_test.cpp checks it on fixed grids and on random plans).
//
// The wall time of a stage is the latest of its streams' last ends (ops on
// one stream end in order); its time accounts (predict/time_accounts.h) come
// from its compute and communication intervals, as predict() forms them.
#include <utility>
#include <vector>

#include "predict/predict.h"
#include "predict/time_accounts.h"
#include "plan/pipeline_schedule.h"
#include "workload/step_costs.h"

namespace dtcalc {

/// Buffers one caller reuses between replays (one per thread); they hold no results.
struct ReplayScratch {
    std::vector<StageTimeAccountant> accounts;  ///< per stage
    bool comm_by_group = false;  ///< also keep the communication accounts by group (PredictResult::comm_by_class)
    std::vector<double> send_end;                                   ///< per message tag
    struct ScheduleKey {
        PipelineSchedule schedule = PipelineSchedule::OneFOneB;
        int pp = 0, vpp = 0;
        long long micro_batches = 0;
        int stages = 0;
        bool layer_list = false;
        bool operator==(const ScheduleKey&) const = default;
    };
    /// One pass of a stage's schedule with what the replay asks of it before laying it out.
    struct ScheduledPass {
        Pass pass;
        long long receive_tag = -1;  ///< the message it waits for (-1: none)
        bool last_backward = false;  ///< its chunk's last backward pass
    };
    ScheduleKey passes_for;                          ///< the plan `passes` were made for
    std::vector<std::vector<ScheduledPass>> passes;  ///< per stage
};

/// predict(in) without `step` and `schedule` (left empty). Falls back to
/// predict() itself for what the replay does not cover (more than 64 network
/// dimensions, a non-finite cost, a receive that never arrives), so it throws
/// exactly when predict() throws.
/// `prices` (optional) remembers collective times between calls on the same
/// network, system and backend (price_training_step's CollectivePriceCache).
PredictResult predict_without_schedule(const PredictInputs& in, ReplayScratch& scratch, CollectivePriceCache* prices = nullptr);

/// predict()'s numbers, communication by group included, without `step` and
/// `schedule`: for callers that show no timeline and no per-layer table
/// (`predict` without --trace and --layers, the C ABI, Python). The same bits
/// as predict(), in a fraction of its time.
PredictResult predict_numbers(const PredictInputs& in);

}  // namespace dtcalc
