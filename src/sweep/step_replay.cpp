#include "sweep/step_replay.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "core/interval_union.h"

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
struct StageState {
    double compute_free = 0;
    double dim_free[kMaxDimensions] = {};
    bool has_chain = false;  // the builder's last_chain
    double chain_end = 0;
    bool has_carry = false;  // overlapped ops the next pass waits for: their latest end
    double carry_end = 0;
    bool has_gradient = false;  // gradient reductions the optimizer waits for: their latest end
    double gradient_end = 0;
    std::size_t next_pass = 0;
    bool done = false;
    // Summaries, as evaluate() and predict() form them.
    double other_end = 0;  // latest end of ops on no stream (receives, collectives of one member)
    double compute_busy = 0;
    bool chain_started = false;
    double chain_first_start = 0, chain_last_end = 0, chain_busy = 0;
    std::vector<std::pair<double, double>>* intervals = nullptr;  // communication, for its busy time
    std::size_t interval_count = 0;

    // Every op on a stream ends no earlier than the one before it there, so
    // the latest end of all is the latest of the streams' last ends.
    double wall(int dims) const {
        double w = std::max(compute_free, other_end);
        for (int d = 0; d < dims; ++d) w = std::max(w, dim_free[d]);
        return w;
    }
};

// What a pass of one global chunk in one direction does, decided once per point.
struct PassPlan {
    double compute_ns = 0, tp_ns = 0, ep_ns = 0, cp_ns = 0;
    bool input = false, output = false;  // a receive first, a send last
    bool zero3 = false;                  // ZeRO-3 gather beside, (backward) reduce-scatter after
    bool bucketed = false;               // on the chunk's last backward pass: cut into buckets
};

struct Replay {
    Replay(const PredictInputs& i, const TrainingStepCosts& c, ReplayScratch& s) : in(i), costs(c), scratch(s) {}
    const PredictInputs& in;
    const TrainingStepCosts& costs;
    ReplayScratch& scratch;
    std::vector<StageState> stages;
    std::vector<PassPlan> plans;  // [global chunk][direction: 0 forward, 1 backward]
    std::uint64_t tp_mask = 0, ep_mask = 0, cp_mask = 0, dp_mask = 0, p2p_mask = 0;
    bool overlap_tp = false;
    int pp = 1, v = 1, global_chunks = 1, dims = 0;
    std::vector<int> last_backward;  // per stage x virtual chunk: index of its last backward pass

    std::size_t tag(long long micro_batch, int global, int direction) const {
        return static_cast<std::size_t>((micro_batch * global_chunks + global) * 2 + direction);
    }

    // Runs stage s until a pass waits for a send not yet timed, or to its
    // optimizer step. Returns whether anything ran. The state lives in locals
    // inside the loop (the compiler keeps them in registers).
    bool advance(int s) {
        StageState& st = stages[static_cast<std::size_t>(s)];
        const std::vector<Pass>& passes = scratch.passes[static_cast<std::size_t>(s)];
        const std::size_t first = st.next_pass;
        double* __restrict dim = st.dim_free;
        std::pair<double, double>* __restrict intervals = st.intervals->data();
        std::size_t n_intervals = st.interval_count;
        double compute_free = st.compute_free, compute_busy = st.compute_busy, other_end = st.other_end;
        bool has_chain = st.has_chain, has_carry = st.has_carry, has_gradient = st.has_gradient;
        double chain_end = st.chain_end, carry_end = st.carry_end, gradient_end = st.gradient_end;
        bool chain_started = st.chain_started;
        double chain_first_start = st.chain_first_start, chain_last_end = st.chain_last_end, chain_busy = st.chain_busy;
        double* send_end = scratch.send_end.data();

        // An op on the streams in `mask` (none: on no stream), ready at `ready`.
        auto communicate = [&](std::uint64_t mask, double ready, double duration, double& start) {
            start = ready;
            for (std::uint64_t m = mask; m; m &= m - 1) start = std::max(start, dim[std::countr_zero(m)]);
            const double end = start + duration;
            for (std::uint64_t m = mask; m; m &= m - 1) dim[std::countr_zero(m)] = end;
            if (!mask) other_end = std::max(other_end, end);
            if (end > start) intervals[n_intervals++] = {start, end};
            return end;
        };
        auto compute = [&](double ready, double duration, double& start) {
            start = std::max(ready, compute_free);
            compute_free = start + duration;
            compute_busy += compute_free - start;
            return compute_free;
        };
        auto on_chain = [&](double start, double end) {  // predict()'s bubble
            if (!chain_started) {
                chain_started = true;
                chain_first_start = start;
            }
            chain_busy += end - start;
            chain_last_end = end;
        };
        auto gradient = [&](double end) {
            gradient_end = has_gradient ? std::max(gradient_end, end) : end;
            has_gradient = true;
        };

        bool blocked = false;
        std::size_t i = st.next_pass;
        for (; i < passes.size(); ++i) {
            const Pass& pass = passes[i];
            const int global = pass.chunk * pp + s;
            const int direction = pass.forward ? 0 : 1;
            const PassPlan& plan = plans[static_cast<std::size_t>(global * 2 + direction)];
            double ready = 0;
            if (plan.input) {
                const double sent = send_end[tag(pass.micro_batch, global, direction)];
                if (sent == kNotSent) {
                    blocked = true;
                    break;
                }
                other_end = std::max(other_end, sent);  // the receive ends with its send
                ready = sent;
            }
            if (has_carry) ready = std::max(ready, carry_end);
            has_carry = false;
            carry_end = 0;
            if (has_chain) ready = std::max(ready, chain_end);
            const ChunkCosts& cc = costs.chunks[static_cast<std::size_t>(global)];
            double start = 0;
            const bool bucketed = plan.bucketed && static_cast<int>(i) == last_backward[static_cast<std::size_t>(s * v + pass.chunk)];
            if (!bucketed && !plan.zero3 && !overlap_tp) {
                // The usual pass, the same ops as below without their cases:
                // [cp beside] compute [tp] [ep] [send].
                const double beside = plan.cp_ns > 0 ? std::max(ready, communicate(cp_mask, ready, plan.cp_ns, start)) : ready;
                double chain_op = compute(beside, plan.compute_ns, start);
                on_chain(start, chain_op);
                if (plan.tp_ns > 0) {
                    const double end = communicate(tp_mask, chain_op, plan.tp_ns, start);
                    on_chain(start, end);
                    chain_op = end;
                }
                if (plan.ep_ns > 0) {
                    const double end = communicate(ep_mask, chain_op, plan.ep_ns, start);
                    on_chain(start, end);
                    chain_op = end;
                }
                has_chain = true;
                chain_end = chain_op;
                if (plan.output)
                    send_end[tag(pass.micro_batch, pass.forward ? global + 1 : global - 1, direction)] =
                        communicate(p2p_mask, chain_op, costs.send_ns, start);
                continue;
            }
            // Overlapped communication beside the compute.
            double beside = ready;
            if (plan.cp_ns > 0) beside = std::max(beside, communicate(cp_mask, ready, plan.cp_ns, start));
            if (plan.zero3) beside = std::max(beside, communicate(dp_mask, ready, cc.zero3_gather_ns, start));
            const int buckets = bucketed ? cc.gradient_buckets : 1;
            double chain_op = 0;
            for (int b = 0; b < buckets; ++b) {
                const double compute_ready = b == 0 ? beside : chain_op;
                chain_op = compute(compute_ready, plan.compute_ns / buckets, start);
                on_chain(start, chain_op);
                if (plan.tp_ns > 0 && overlap_tp) {
                    const double end = communicate(tp_mask, compute_ready, plan.tp_ns / buckets, start);
                    carry_end = has_carry ? std::max(carry_end, end) : end;
                    has_carry = true;
                } else if (plan.tp_ns > 0) {
                    const double end = communicate(tp_mask, chain_op, plan.tp_ns / buckets, start);
                    on_chain(start, end);
                    chain_op = end;
                }
                if (plan.ep_ns > 0) {
                    const double end = communicate(ep_mask, chain_op, plan.ep_ns / buckets, start);
                    on_chain(start, end);
                    chain_op = end;
                }
                if (bucketed) gradient(communicate(dp_mask, chain_op, cc.gradient_bucket_ns, start));
            }
            if (plan.zero3 && direction == 1) gradient(communicate(dp_mask, chain_op, cc.zero3_reduce_scatter_ns, start));
            has_chain = true;
            chain_end = chain_op;
            if (plan.output)
                send_end[tag(pass.micro_batch, pass.forward ? global + 1 : global - 1, direction)] =
                    communicate(p2p_mask, chain_op, costs.send_ns, start);
        }
        if (!blocked) {
            // Optimizer step: after every gradient reduction, the chain and the overlapped ops.
            double ready = has_gradient ? gradient_end : 0;
            if (has_chain) ready = std::max(ready, chain_end);
            if (has_carry) ready = std::max(ready, carry_end);
            double start = 0;
            compute(ready, costs.optimizer_ns[static_cast<std::size_t>(s)], start);
            st.done = true;
        }
        st.next_pass = i;
        st.interval_count = n_intervals;
        st.compute_free = compute_free;
        st.compute_busy = compute_busy;
        st.other_end = other_end;
        st.has_chain = has_chain;
        st.has_carry = has_carry;
        st.has_gradient = has_gradient;
        st.chain_end = chain_end;
        st.carry_end = carry_end;
        st.gradient_end = gradient_end;
        st.chain_started = chain_started;
        st.chain_first_start = chain_first_start;
        st.chain_last_end = chain_last_end;
        st.chain_busy = chain_busy;
        return st.done || i != first;
    }
};

// evaluate()'s union of intervals: sorted by (start, end), merged, the merged
// lengths summed in that order. The intervals come nearly sorted (out of
// order only where gradient reductions queue), so an insertion sort is cheap.
double union_length(std::pair<double, double>* intervals, std::size_t count) {
    auto before = [](const std::pair<double, double>& a, const std::pair<double, double>& b) {
        return a.first < b.first || (a.first == b.first && a.second < b.second);
    };
    for (std::size_t i = 1; i < count; ++i) {
        if (!before(intervals[i], intervals[i - 1])) continue;
        const std::pair<double, double> moving = intervals[i];
        std::size_t j = i;
        for (; j > 0 && before(moving, intervals[j - 1]); --j) intervals[j] = intervals[j - 1];
        intervals[j] = moving;
    }
    return covered_length({intervals, count});
}

PredictResult full_prediction(const PredictInputs& in) {
    PredictResult r = predict(in);
    r.step = {};
    r.schedule = {};
    return r;
}

// The stages' schedules, kept while consecutive plans share them.
void prepare_schedules(const ParallelPlan& p, int stages, ReplayScratch& scratch) {
    const ReplayScratch::ScheduleKey key{p.schedule, p.pp, p.vpp, p.micro_batches(), stages};
    if (scratch.passes_for == key && static_cast<int>(scratch.passes.size()) == stages) return;
    scratch.passes.resize(static_cast<std::size_t>(stages));
    for (int s = 0; s < stages; ++s) scratch.passes[static_cast<std::size_t>(s)] = stage_schedule(p, s);
    scratch.passes_for = key;
}

}  // namespace

PredictResult predict_without_schedule(const PredictInputs& in, ReplayScratch& scratch, CollectivePriceCache* prices) {
    PredictResult r;
    r.npus = in.network.total_npus();
    r.plan_problems = plan_problems(in.model, in.plan, r.npus);
    if (!r.plan_problems.empty()) return r;
    const int dims = static_cast<int>(in.network.dimensions.size());
    if (dims > kMaxDimensions) return full_prediction(in);

    const TrainingStepInputs step_in{&in.model, &in.plan, &in.device, &in.network, &in.system, in.backend, prices};
    const TrainingStepCosts costs = price_training_step(step_in);
    if (!costs_usable(costs)) return full_prediction(in);

    const ParallelPlan& p = in.plan;
    Replay replay(in, costs, scratch);
    const bool layered = in.model.kind == ModelKind::LayerList;
    replay.pp = costs.stages;
    replay.v = costs.virtual_chunks;
    replay.global_chunks = replay.pp * replay.v;
    replay.dims = dims;
    const ParallelGroups& g = costs.groups;
    replay.tp_mask = dimension_mask(g.tp, dims);
    replay.ep_mask = dimension_mask(layered ? g.dp : g.ep, dims);
    replay.cp_mask = dimension_mask(g.cp, dims);
    replay.dp_mask = dimension_mask(g.dp, dims);
    replay.p2p_mask = dimension_mask(g.pp_neighbour, dims);
    replay.overlap_tp = p.tp_comm_overlap;
    const bool dp_many = g.dp.size() > 1;
    replay.plans.resize(static_cast<std::size_t>(replay.global_chunks) * 2);
    int most_buckets = 1;
    for (int global = 0; global < replay.global_chunks; ++global) {
        const ChunkCosts& cc = costs.chunks[static_cast<std::size_t>(global)];
        most_buckets = std::max(most_buckets, cc.gradient_buckets);
        for (int direction = 0; direction < 2; ++direction) {
            const bool forward = direction == 0;
            const PassCost& cost = forward ? cc.forward : cc.backward;
            PassPlan& plan = replay.plans[static_cast<std::size_t>(global * 2 + direction)];
            plan.compute_ns = cost.compute_ns;
            plan.tp_ns = cost.tp_comm_ns;
            plan.ep_ns = cost.ep_comm_ns;
            plan.cp_ns = cost.cp_comm_ns;
            plan.input = !layered && (forward ? global > 0 : global < replay.global_chunks - 1);
            plan.output = !layered && (forward ? global < replay.global_chunks - 1 : global > 0);
            plan.zero3 = p.zero >= 3 && cc.parameters > 0 && dp_many;
            plan.bucketed = !forward && p.zero < 3 && dp_many && cc.parameters > 0;
        }
    }
    replay.stages.resize(static_cast<std::size_t>(replay.pp));
    prepare_schedules(p, replay.pp, scratch);
    if (scratch.intervals.size() < static_cast<std::size_t>(replay.pp)) scratch.intervals.resize(static_cast<std::size_t>(replay.pp));
    replay.last_backward.assign(static_cast<std::size_t>(replay.pp * replay.v), -1);
    for (int s = 0; s < replay.pp; ++s) {
        const std::vector<Pass>& passes = scratch.passes[static_cast<std::size_t>(s)];
        for (std::size_t i = passes.size(); i-- > 0;) {
            int& last = replay.last_backward[static_cast<std::size_t>(s * replay.v + passes[i].chunk)];
            if (!passes[i].forward && last < 0) last = static_cast<int>(i);
        }
        // Room for every communication op: at most 3 per pass (beside ops,
        // the tp and ep collectives, the send), 3 per gradient bucket, and the
        // ZeRO-3 reduce-scatter.
        std::vector<std::pair<double, double>>& room = scratch.intervals[static_cast<std::size_t>(s)];
        room.resize(passes.size() * 6 + static_cast<std::size_t>(replay.v) * (static_cast<std::size_t>(most_buckets) * 3 + 1));
        replay.stages[static_cast<std::size_t>(s)].intervals = &room;
    }
    const std::size_t tags = static_cast<std::size_t>(p.micro_batches()) * static_cast<std::size_t>(replay.global_chunks) * 2;
    scratch.send_end.assign(replay.pp > 1 && !layered ? tags : 0, kNotSent);

    // The stages in turn, each as far as its receives allow, until all are
    // done: first to last (activations flow down), then last to first
    // (gradients flow up), so that each visit finds work. The order changes
    // no number: a stage's ops wait only for its own streams and for sends.
    for (int remaining = replay.pp, round = 0; remaining > 0; ++round) {
        bool progressed = false;
        for (int k = 0; k < replay.pp; ++k) {
            const int s = round % 2 == 0 ? k : replay.pp - 1 - k;
            if (replay.stages[static_cast<std::size_t>(s)].done) continue;
            if (replay.advance(s)) progressed = true;
            if (replay.stages[static_cast<std::size_t>(s)].done) --remaining;
        }
        if (!progressed) return full_prediction(in);  // a receive without its send: predict() reports it
    }

    int slowest = 0;
    double slowest_wall = 0;
    for (int s = 0; s < replay.pp; ++s) {
        const double wall = replay.stages[static_cast<std::size_t>(s)].wall(dims);
        r.iteration_ns = std::max(r.iteration_ns, wall);
        if (s == 0 || wall > slowest_wall) {
            slowest = s;
            slowest_wall = wall;
        }
    }
    const StageState& role = replay.stages[static_cast<std::size_t>(slowest)];
    r.compute_ns = role.compute_busy;
    r.comm_ns = union_length(role.intervals->data(), role.interval_count);
    r.exposed_comm_ns = std::max(0.0, slowest_wall - role.compute_busy);
    double worst = 0;
    for (const StageState& st : replay.stages)
        if (st.chain_started) worst = std::max(worst, st.chain_last_end - st.chain_first_start - st.chain_busy);
    r.bubble_ns = std::max(0.0, worst);
    complete_prediction(in.model, in.plan, in.device, in.memory_limit_bytes, r);
    return r;
}

}  // namespace dtcalc
