#include "sweep/step_replay.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>

#include "schedule/link_sharing.h"
#include "workload/step_layout.h"

namespace dtcalc {
namespace {

constexpr double kNotSent = -1;
constexpr int kMaxDimensions = 64;

// The network dimensions a group occupies: those with more than one member
// (evaluate()'s streams of a collective or a send).
std::uint64_t dimension_mask(const CommGroup& group, int dims) {
    std::uint64_t mask = 0;
    for (int d = 0; d < dims && d < static_cast<int>(group.members.size()); ++d)
        if (group.members[static_cast<std::size_t>(d)] > 1) mask |= std::uint64_t{1} << d;
    return mask;
}

bool usable(double v) { return std::isfinite(v) && v >= 0; }

bool costs_usable(const TrainingStepCosts& c) {
    for (const ChunkCosts& cc : c.chunks) {
        for (const PassCost* pc : {&cc.forward, &cc.backward})
            if (!usable(pc->compute_ns) || !usable(pc->tp_comm_ns) || !usable(pc->ep_comm_ns) || !usable(pc->cp_comm_ns) ||
                !usable(pc->flops))
                return false;
        if (!usable(cc.gradient_bucket_ns) || !usable(cc.zero3_gather_ns) || !usable(cc.zero3_reduce_scatter_ns) ||
            cc.gradient_buckets < 1)
            return false;
    }
    for (double ns : c.optimizer_ns)
        if (!usable(ns)) return false;
    return usable(c.send_ns);
}

// One stage's timeline as far as later ops read it, and its summaries.
//
// Every op of one traffic class runs on the same group, so on the same
// network dimensions: the class is one stream over them, and its last op
// there is its last op anywhere. Two classes share links where their groups
// share a dimension. So evaluate()'s per-dimension streams reduce to one
// per class, and the classes an op shares links with are fixed per class.
struct StageState {
    double compute_free = 0;
    LaneBusy lane[kTrafficClasses] = {};  // each traffic class's last op
    StageCursor<double> cursor;  // what the next pass and the optimizer wait for: the latest end of each
    std::size_t next_pass = 0;
    bool done = false;
    // Summaries, as evaluate() and predict() form them.
    double other_end = 0;  // latest end of ops on no stream (receives, collectives of one member)
    StageTimeAccountant* accounts = nullptr;

    // Every op on a stream ends no earlier than the one before it there, so
    // the latest end of all is the latest of the streams' last ends.
    double wall() const {
        double w = std::max(compute_free, other_end);
        for (const LaneBusy& l : lane) w = std::max(w, l.end);
        return w;
    }
};

// The layout's consumer that times each op as evaluate() would: a Deps is the
// latest end of the ops to wait for (0: none; every time is >= 0). ByClass:
// the stages' accounts keep communication by class (ReplayScratch::comm_by_group).
template <bool ByClass>
struct Timer {
    using Deps = double;
    static void join(double& into, const double& more) { into = std::max(into, more); }

    StageState* stage = nullptr;  // the stage being walked (the layout hands over one stage's ops at a time)
    StageTimeAccountant* accounts = nullptr;  // its accounts
    double* send_end = nullptr;
    // Per traffic class: whether its group spans any network dimension (else
    // its ops are on no stream), and the other classes whose groups share one.
    bool on_stream[kTrafficClasses] = {};
    unsigned shares_with[kTrafficClasses] = {};

    /// The network dimensions each class's group spans, by TrafficClass.
    void set_streams(const std::uint64_t (&dimensions)[kTrafficClasses]) {
        for (int c = 0; c < kTrafficClasses; ++c) {
            on_stream[c] = dimensions[c] != 0;
            shares_with[c] = 0;
            for (int o = 0; o < kTrafficClasses; ++o)
                if (o != c && (dimensions[c] & dimensions[o]) != 0) shares_with[c] |= 1u << o;
        }
    }

    [[gnu::always_inline]] double op(const StepOp& s, double ready) {
        StageState& st = *stage;
        double start = 0, end = 0;
        switch (s.kind) {
            case StepOpKind::Receive: {  // ends with its send
                const double sent = send_end[s.tag];
                st.other_end = std::max(st.other_end, sent);
                accounts->receive(sent);
                return sent;
            }
            case StepOpKind::Compute:
            case StepOpKind::OptimizerStep:
                start = std::max(ready, st.compute_free);
                end = start + s.duration_ns;
                st.compute_free = end;
                accounts->template compute_as<ByClass>(start, end);
                return end;
            default: {  // on its class's stream (none: the group spans no dimension)
                const int own = traffic_class(s.kind);
                if (on_stream[own]) {
                    start = std::max(ready, st.lane[own].end);
                    // Other classes on the same dimensions share the links
                    // (schedule/link_sharing.h) while in flight. Most ops start
                    // after all communication so far has ended: then no lane is
                    // looked up, and the end is shared_link_end()'s with idle links.
                    if (accounts->communication_end() <= start) {
                        end = start + s.duration_ns;
                    } else {
                        LaneBusy busy;
                        for (unsigned u = shares_with[own]; u; u &= u - 1) {
                            const LaneBusy& other = st.lane[std::countr_zero(u)];
                            if (other.end > start) busy = merge_busy(busy, other);
                        }
                        end = shared_link_end(start, s.duration_ns, busy);
                    }
                    st.lane[own] = {start, end};
                } else {
                    start = ready;
                    end = start + s.duration_ns;
                    st.other_end = std::max(st.other_end, end);
                }
                accounts->template communicate_as<ByClass>(start, end, static_cast<TrafficClass>(own));
                if (s.kind == StepOpKind::Send) send_end[s.tag] = end;
                return end;
            }
        }
    }
};

// Runs stage s until a pass waits for a send not yet timed, or to its
// optimizer step. Returns whether anything ran.
template <bool ByClass>
bool advance(const StepLayout& layout, const ReplayScratch& scratch, int s, StageState& st, Timer<ByClass>& timer) {
    const std::span<const ReplayScratch::ScheduledPass> passes = scratch.passes[static_cast<std::size_t>(s)];
    timer.stage = &st;
    timer.accounts = st.accounts;
    const double* const send_end = timer.send_end;
    const std::size_t first = st.next_pass;
    std::size_t i = first;
    for (; i < passes.size(); ++i) {
        const ReplayScratch::ScheduledPass& p = passes[i];
        if (p.receive_tag >= 0 && send_end[p.receive_tag] == kNotSent) break;
        lay_out_pass(layout, s, p.pass, p.last_backward, st.cursor, timer);
    }
    st.next_pass = i;
    if (i == passes.size()) {
        lay_out_optimizer(layout, s, st.cursor, timer);
        st.done = true;
    }
    return st.done || i != first;
}

PredictResult full_prediction(const PredictInputs& in) {
    PredictResult r = predict(in);
    r.step = {};
    r.schedule = {};
    return r;
}

// The stages' schedules, kept while consecutive plans share them.
void prepare_schedules(const ParallelPlan& p, const StepLayout& layout, bool layer_list, ReplayScratch& scratch) {
    const int stages = layout.stages;
    const ReplayScratch::ScheduleKey key{p.schedule, p.pp, p.vpp, p.micro_batches(), stages, layer_list};
    if (scratch.passes_for == key && static_cast<int>(scratch.passes.size()) == stages) return;
    scratch.passes.resize(static_cast<std::size_t>(stages));
    for (int s = 0; s < stages; ++s) {
        const std::vector<Pass> passes = stage_schedule(p, s);
        const std::vector<int> last_backward = last_backward_passes(passes, p.vpp);
        std::vector<ReplayScratch::ScheduledPass>& out = scratch.passes[static_cast<std::size_t>(s)];
        out.resize(passes.size());
        for (std::size_t i = 0; i < passes.size(); ++i) {
            const Pass& pass = passes[i];
            const int global = pass.chunk * stages + s;
            out[i].pass = pass;
            out[i].receive_tag = layout.pass(global, pass.forward).input ? layout.tag(pass.micro_batch, global, pass.forward) : -1;
            out[i].last_backward = !pass.forward && last_backward[static_cast<std::size_t>(pass.chunk)] == static_cast<int>(i);
        }
    }
    scratch.passes_for = key;
}

// Times every stage's ops (`stages` fresh, with their accounts); false where
// a receive never gets its send.
template <bool ByClass>
bool run_stages(const StepLayout& layout, ReplayScratch& scratch, const std::uint64_t (&dimensions)[kTrafficClasses],
                std::vector<StageState>& stages) {
    Timer<ByClass> timer;
    timer.set_streams(dimensions);
    timer.send_end = scratch.send_end.data();
    // The stages in turn, each as far as its receives allow, until all are
    // done: first to last (activations flow down), then last to first
    // (gradients flow up), so that each visit finds work. The order changes
    // no number: a stage's ops wait only for its own streams and for sends.
    const int pp = layout.stages;
    for (int remaining = pp, round = 0; remaining > 0; ++round) {
        bool progressed = false;
        for (int k = 0; k < pp; ++k) {
            const int s = round % 2 == 0 ? k : pp - 1 - k;
            StageState& st = stages[static_cast<std::size_t>(s)];
            if (st.done) continue;
            if (advance(layout, scratch, s, st, timer)) progressed = true;
            if (st.done) --remaining;
        }
        if (!progressed) return false;
    }
    return true;
}

}  // namespace

PredictResult predict_without_schedule(const PredictInputs& in, ReplayScratch& scratch, CollectivePriceCache* prices) {
    PredictResult r;
    r.npus = in.system.network.total_npus();
    r.plan_problems = plan_problems(in.model, in.plan, r.npus);
    if (!r.plan_problems.empty()) return r;
    const int dims = static_cast<int>(in.system.network.dimensions.size());
    if (dims > kMaxDimensions) return full_prediction(in);

    const TrainingStepInputs step_in{&in.model, &in.plan, &in.system, prices, in.nccl};
    const TrainingStepCosts costs = naming_nccl_options(in, [&] { return price_training_step(step_in); });
    if (!costs_usable(costs)) return full_prediction(in);

    const ParallelPlan& p = in.plan;
    const bool layer_list = in.model.kind == ModelKind::LayerList;
    const StepLayout layout = make_step_layout(costs, p, layer_list);
    const int pp = layout.stages;
    const ParallelGroups& g = costs.groups;
    std::uint64_t dimensions[kTrafficClasses] = {};
    dimensions[static_cast<int>(TrafficClass::Tensor)] = dimension_mask(g.tp, dims);
    dimensions[static_cast<int>(TrafficClass::Context)] = dimension_mask(g.cp, dims);
    dimensions[static_cast<int>(TrafficClass::Expert)] = dimension_mask(layer_list ? g.dp : g.ep, dims);
    dimensions[static_cast<int>(TrafficClass::Data)] = dimension_mask(g.dp_cp, dims);  // ZeRO-3 gathers and reduce-scatters, gradient buckets
    dimensions[static_cast<int>(TrafficClass::Pipeline)] = dimension_mask(g.pp_neighbour, dims);
    std::vector<StageState> stages(static_cast<std::size_t>(pp));
    prepare_schedules(p, layout, layer_list, scratch);
    if (scratch.accounts.size() < static_cast<std::size_t>(pp)) scratch.accounts.resize(static_cast<std::size_t>(pp));
    for (int s = 0; s < pp; ++s) {
        scratch.accounts[static_cast<std::size_t>(s)].clear(scratch.comm_by_group);
        stages[static_cast<std::size_t>(s)].accounts = &scratch.accounts[static_cast<std::size_t>(s)];
    }
    scratch.send_end.assign(pp > 1 && !layer_list ? static_cast<std::size_t>(layout.tags(p.micro_batches())) : 0, kNotSent);
    const bool ran = scratch.comm_by_group ? run_stages<true>(layout, scratch, dimensions, stages)
                                           : run_stages<false>(layout, scratch, dimensions, stages);
    if (!ran) return full_prediction(in);  // a receive without its send: predict() reports it

    int slowest = 0;
    double slowest_wall = 0;
    for (int s = 0; s < pp; ++s) {
        const double wall = stages[static_cast<std::size_t>(s)].wall();
        r.iteration_ns = std::max(r.iteration_ns, wall);
        if (s == 0 || wall > slowest_wall) {
            slowest = s;
            slowest_wall = wall;
        }
    }
    set_time_accounts(stages[static_cast<std::size_t>(slowest)].accounts->finish(slowest_wall), r);
    r.comm_by_class_known = scratch.comm_by_group;
    complete_prediction(in.model, in.plan, in.system.device, in.memory_limit_bytes, r);
    return r;
}

PredictResult predict_numbers(const PredictInputs& in) {
    ReplayScratch scratch;
    scratch.comm_by_group = true;
    return predict_without_schedule(in, scratch);
}

}  // namespace dtcalc
