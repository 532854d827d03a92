#pragma once
// The ops of one training step, in order: written once, read by every
// evaluator of the step. The DAG builder (workload/training_step.h) turns each
// op into a graph node for predict(), its trace and its per-layer report; the
// sweep's timer (sweep/step_replay.h) times each op as it comes without
// storing it. Both walk the same passes with the same function below, so
// what a pass does, on which stream and after which other ops, is said here
// and nowhere else.
//
// One role per pipeline stage: every data-, tensor-, context- and
// expert-parallel rank of a stage does the same work at the same time. Per
// stage, the pipeline schedule (plan/pipeline_schedule.h) orders forward and
// backward passes of micro-batches and virtual chunks. Each pass is
//
//   [receive from the neighbouring chunk]
//   before the compute: the first piece of the context-parallel key/value
//       exchange (one ring step of one layer) and of the ZeRO-3 parameter
//       all-gather (the first layer's parameters); the rest of each runs
//       beside the compute, and the next pass waits for it, as Megatron's
//       ring attention and FSDP's one-layer-ahead prefetch overlap them
//   compute -> tensor-parallel collectives (blocking; with tp_comm_overlap
//       only the first of tp chunks blocks, as Transformer Engine's
//       userbuffers pipeline each collective in tp chunks with the GEMM, and
//       the rest runs beside the compute; the next pass waits for it)
//           -> expert all-to-alls (blocking)
//   [send to the neighbouring chunk]
//
// So an overlapped piece of communication c beside compute g costs
// first piece + max(0, c - first piece - g) on top of g.
//
// Each traffic class (TrafficClass: TP, CP, EP, DP, PP) is its own lane: its
// ops queue one after another on each dimension they cross, and ops of
// different classes on one dimension run side by side sharing its links
// (schedule/link_sharing.h), as frameworks run each parallelism's
// communicator on its own stream: a gradient bucket slows a pipeline send
// while both are in flight instead of making it wait.
//
// after the previous pass's last blocking op and its overlapped ops. The last
// backward pass of each chunk is cut into gradient buckets: each part's
// compute and collectives, then its gradient reduction over data parallelism
// (reduce-scatter with ZeRO >= 1, else all-reduce), overlapping the rest of
// the pass. With ZeRO-3 every backward pass ends with a gradient
// reduce-scatter instead. The optimizer step follows every gradient
// reduction, the last pass and its overlapped ops.
//
// ZeRO 1-2 (Megatron's distributed optimizer) then gathers the updated
// parameters over dp x cp, one all-gather per gradient bucket. Without
// overlap_param_gather they run one after another after the optimizer step
// (distrib_optimizer.py step_with_ready_grads: synchronous start_param_sync).
// With it, each chunk's gathers run at the start of its first forward pass
// of the step (the next iteration's, in steady state): the first bucket's
// before the compute, each next one dispatched when the one before it is
// waited on, so beside the compute (param_and_grad_buffer.py
// finish_param_sync: next_param_gather_bucket_group.start_param_sync(),
// called from the forward pre-hook of distributed_data_parallel.py). With
// an interleaved schedule Megatron aligns the gathers over the pipeline's
// stages and dispatches them ahead of the chunks that need them (schedules.py
// forward_backward_pipelining_with_interleaving: param_sync_func for the
// first two chunks before the first pass, each later one a chunk ahead;
// --align-param-gather is on unless --no-align-param-gather): a chunk's
// gathers are laid out after the stage's previous pass without waiting for
// the pass's receive (the first chunk's from the step's start, during the
// pipeline's fill), and its first forward waits for its first bucket.
// In fp8 that first forward pass also casts the chunk's weights, once per
// step (model/fp8_casts.h).
//
// A consumer `Out` supplies:
//   using Deps = ...;                         a set of ops to wait for ({} = none)
//   static void join(Deps& into, const Deps& more);
//   Deps op(const StepOp& op, const Deps& after);   lays out one op, returns it as a Deps
// Ops of one stage arrive in the order the stage runs them.
#include <cstddef>
#include <vector>

#include "plan/parallel_plan.h"
#include "plan/pipeline_schedule.h"
#include "workload/step_costs.h"

namespace dtcalc {

enum class StepOpKind : unsigned char {
    Receive,             ///< the neighbouring chunk's activation (forward) or gradient (backward)
    ContextExchange,     ///< context-parallel key/value exchange, beside the compute
    Zero3Gather,         ///< ZeRO-3 parameter all-gather, beside the compute
    ParamGather,         ///< ZeRO 1-2 parameter all-gather after the optimizer step (per bucket)
    Compute,             ///< the pass (or one gradient bucket's part of it)
    TensorCollectives,   ///< tensor-parallel collectives of the pass (or part)
    ExpertAllToAll,      ///< expert dispatch and combine (layer lists: embedding exchange)
    GradientBucket,      ///< one bucket's gradient reduction over data parallelism
    Zero3ReduceScatter,  ///< ZeRO-3 gradient reduce-scatter after a backward pass
    Send,                ///< to the neighbouring chunk
    OptimizerStep,
};

/// Whose communication an op is: the parallelism whose group it runs on.
enum class TrafficClass : unsigned char { Tensor, Context, Expert, Data, Pipeline };
inline constexpr int kTrafficClasses = 5;

/// The class of a communication op's traffic; Compute, OptimizerStep and
/// Receive (whose time is its send's) have none: -1.
constexpr int traffic_class(StepOpKind kind) {
    switch (kind) {
        case StepOpKind::ContextExchange: return static_cast<int>(TrafficClass::Context);
        case StepOpKind::TensorCollectives: return static_cast<int>(TrafficClass::Tensor);
        case StepOpKind::ExpertAllToAll: return static_cast<int>(TrafficClass::Expert);
        case StepOpKind::Zero3Gather:
        case StepOpKind::ParamGather:
        case StepOpKind::GradientBucket:
        case StepOpKind::Zero3ReduceScatter: return static_cast<int>(TrafficClass::Data);
        case StepOpKind::Send: return static_cast<int>(TrafficClass::Pipeline);
        default: return -1;
    }
}

/// One op of the step as the layout hands it to a consumer.
struct StepOp {
    StepOpKind kind = StepOpKind::Compute;
    int stage = 0;
    const Pass* pass = nullptr;  ///< nullptr for the optimizer step
    int global_chunk = 0;
    int part = 0, parts = 1;     ///< gradient bucket b of `parts` (Compute, TensorCollectives, ExpertAllToAll)
    double duration_ns = 0;
    double flops = 0;            ///< Compute
    bool overlapped = false;     ///< beside the compute: TensorCollectives (tp_comm_overlap), the rest of a ContextExchange, Zero3Gather or ParamGather
    int peer_stage = -1;         ///< Receive, Send
    long long tag = 0;           ///< Receive, Send: the message (micro-batch, receiving chunk, direction)
};

/// What one pass of one global chunk in one direction does, decided once per plan.
struct PassLayout {
    double compute_ns = 0, flops = 0, tp_ns = 0, ep_ns = 0, cp_ns = 0;
    /// The first pieces the compute waits for (the rest runs beside it):
    /// one ring step of one layer's key/value exchange, the first layer's
    /// ZeRO-3 gather, and with tp_comm_overlap the first of tp chunks.
    double cp_first_ns = 0, zero3_gather_first_ns = 0, tp_first_ns = 0;
    bool input = false, output = false;  ///< a receive first, a send last
    bool zero3 = false;                  ///< ZeRO-3 gather beside; backward: reduce-scatter after
    bool bucketed = false;               ///< the chunk's last backward pass is cut into gradient buckets
    int buckets = 1;
    double bucket_ns = 0, zero3_gather_ns = 0, zero3_reduce_scatter_ns = 0;
    /// Forward passes of the step's first micro-batch only: the parameter
    /// all-gather beside the compute (overlap_param_gather; its first bucket
    /// before it) and compute done once per step (fp8 weight casts).
    double param_gather_ns = 0, param_gather_first_ns = 0, once_per_step_ns = 0;
};

struct StepLayout {
    int stages = 1;          ///< pp (1 for layer-list models)
    int virtual_chunks = 1;  ///< vpp (1 for layer-list models)
    int global_chunks = 1;
    bool overlap_tp = false;
    std::vector<PassLayout> passes;  ///< [global chunk x 2 + direction (0 forward, 1 backward)]
    double send_ns = 0;
    double send_bytes = 0;
    std::vector<double> optimizer_ns;  ///< per stage
    std::vector<double> param_gather_after_step_ns;  ///< per stage: ZeRO 1-2's all-gathers after the step (0 with overlap_param_gather)

    const PassLayout& pass(int global_chunk, bool forward) const {
        return passes[static_cast<std::size_t>(global_chunk * 2 + (forward ? 0 : 1))];
    }
    /// The message of micro-batch `micro_batch` arriving at `global_chunk` in one direction.
    long long tag(long long micro_batch, int global_chunk, bool forward) const {
        return (micro_batch * global_chunks + global_chunk) * 2 + (forward ? 0 : 1);
    }
    long long tags(long long micro_batches) const { return micro_batches * global_chunks * 2; }
};

StepLayout make_step_layout(const TrainingStepCosts& costs, const ParallelPlan& plan, bool layer_list);

/// Per virtual chunk, the index in `passes` of its last backward pass (-1 for none).
std::vector<int> last_backward_passes(const std::vector<Pass>& passes, int virtual_chunks);

/// Where one stage is in its walk: what the next pass and the optimizer wait for.
template <class Deps>
struct StageCursor {
    Deps last_chain{};  ///< the previous pass's last blocking op
    Deps carry{};       ///< its overlapped ops the next pass waits for
    Deps gradient{};    ///< gradient reductions the optimizer waits for
};

/// Communication overlapped with the compute: its first piece (after `deps`)
/// joins `before` (the compute waits for it), the rest follows it beside the
/// compute and joins `carry` (the next pass waits for it).
template <class Out>
[[gnu::always_inline]] inline void lay_out_first_then_beside(StepOpKind kind, double total_ns, double first_ns,
                                                             const typename Out::Deps& deps, StepOp& op,
                                                             typename Out::Deps& before, typename Out::Deps& carry,
                                                             Out& out) {
    using Deps = typename Out::Deps;
    op.kind = kind;
    const bool split = first_ns > 0 && first_ns < total_ns;
    op.duration_ns = split ? first_ns : total_ns;
    const Deps first = out.op(op, deps);
    Out::join(before, first);
    if (!split) return;
    op.duration_ns = total_ns - first_ns;
    op.overlapped = true;
    Out::join(carry, out.op(op, first));
    op.overlapped = false;
}

/// Lays out pass `pass` of stage `stage`; `last_backward` says whether it is
/// its chunk's last backward pass (the one cut into gradient buckets).
template <class Out>
[[gnu::always_inline]] inline void lay_out_pass(const StepLayout& layout, int stage, const Pass& pass, bool last_backward,
                  StageCursor<typename Out::Deps>& cursor, Out& out) {
    using Deps = typename Out::Deps;
    const int pp = layout.stages;
    const int global = pass.chunk * pp + stage;
    const PassLayout& pl = layout.pass(global, pass.forward);
    StepOp op;
    op.stage = stage;
    op.pass = &pass;
    op.global_chunk = global;

    Deps deps = std::move(cursor.carry);
    cursor.carry = Deps{};
    Out::join(deps, cursor.last_chain);
    // Communication overlapped with the compute: its first piece before it,
    // the rest beside it (the next pass waits for that).
    Deps beside{};
    const bool first_of_step = pass.forward && pass.micro_batch == 0;
    // The parameter all-gathers: interleaved, dispatched ahead, not waiting for the
    // pass's receive (so laid out before it); else by the first forward's pre-hook, after it.
    const bool gather = first_of_step && pl.param_gather_ns > 0;
    if (gather && layout.virtual_chunks > 1)
        lay_out_first_then_beside(StepOpKind::ParamGather, pl.param_gather_ns, pl.param_gather_first_ns, deps, op, beside,
                                  cursor.carry, out);
    if (pl.input) {
        op.kind = StepOpKind::Receive;
        op.peer_stage = pass.forward ? (stage + pp - 1) % pp : (stage + 1) % pp;
        op.tag = layout.tag(pass.micro_batch, global, pass.forward);
        Out::join(deps, out.op(op, Deps{}));
        op.peer_stage = -1;
        op.tag = 0;
    }
    if (pl.cp_ns > 0)
        lay_out_first_then_beside(StepOpKind::ContextExchange, pl.cp_ns, pl.cp_first_ns, deps, op, beside, cursor.carry, out);
    if (pl.zero3)
        lay_out_first_then_beside(StepOpKind::Zero3Gather, pl.zero3_gather_ns, pl.zero3_gather_first_ns, deps, op, beside,
                                  cursor.carry, out);
    if (gather && layout.virtual_chunks == 1)
        lay_out_first_then_beside(StepOpKind::ParamGather, pl.param_gather_ns, pl.param_gather_first_ns, deps, op, beside,
                                  cursor.carry, out);
    const bool bucketed = last_backward && pl.bucketed;
    const int buckets = bucketed ? pl.buckets : 1;
    op.parts = buckets;
    Deps chain{};
    for (int b = 0; b < buckets; ++b) {
        op.part = b;
        Deps compute_deps{};
        if (b == 0) {
            compute_deps = deps;
            Out::join(compute_deps, beside);
        } else {
            compute_deps = chain;
        }
        op.kind = StepOpKind::Compute;
        op.duration_ns = pl.compute_ns / buckets + (first_of_step ? pl.once_per_step_ns : 0.0);
        op.flops = pl.flops / buckets;
        chain = out.op(op, compute_deps);
        op.flops = 0;
        if (pl.tp_ns > 0) {
            op.kind = StepOpKind::TensorCollectives;
            op.duration_ns = pl.tp_ns / buckets;
            if (layout.overlap_tp) {  // pipelined with the GEMMs: the rest beside the compute, then the first chunk blocks
                // (the rest is issued first: a stream runs its ops in the order they come)
                op.duration_ns = (pl.tp_ns - pl.tp_first_ns) / buckets;
                op.overlapped = true;
                Out::join(cursor.carry, out.op(op, compute_deps));
                op.overlapped = false;
                if (pl.tp_first_ns > 0) {
                    op.duration_ns = pl.tp_first_ns / buckets;
                    chain = out.op(op, chain);
                }
            } else {
                chain = out.op(op, chain);
            }
        }
        if (pl.ep_ns > 0) {
            op.kind = StepOpKind::ExpertAllToAll;
            op.duration_ns = pl.ep_ns / buckets;
            chain = out.op(op, chain);
        }
        if (bucketed) {
            op.kind = StepOpKind::GradientBucket;
            op.duration_ns = pl.bucket_ns;
            Out::join(cursor.gradient, out.op(op, chain));
        }
    }
    op.part = 0;
    op.parts = 1;
    if (pl.zero3 && !pass.forward) {
        op.kind = StepOpKind::Zero3ReduceScatter;
        op.duration_ns = pl.zero3_reduce_scatter_ns;
        Out::join(cursor.gradient, out.op(op, chain));
    }
    if (pl.output) {
        op.kind = StepOpKind::Send;
        op.duration_ns = layout.send_ns;
        op.peer_stage = pass.forward ? (stage + 1) % pp : (stage + pp - 1) % pp;
        op.tag = layout.tag(pass.micro_batch, pass.forward ? global + 1 : global - 1, pass.forward);
        out.op(op, chain);
    }
    cursor.last_chain = std::move(chain);
}

/// Lays out stage `stage`'s optimizer step, after its last pass, and the
/// parameter all-gathers that follow it when they are not overlapped.
template <class Out>
void lay_out_optimizer(const StepLayout& layout, int stage, StageCursor<typename Out::Deps>& cursor, Out& out) {
    typename Out::Deps deps = cursor.gradient;
    Out::join(deps, cursor.last_chain);
    Out::join(deps, cursor.carry);
    StepOp op;
    op.kind = StepOpKind::OptimizerStep;
    op.stage = stage;
    op.duration_ns = layout.optimizer_ns[static_cast<std::size_t>(stage)];
    const typename Out::Deps step = out.op(op, deps);
    const auto s = static_cast<std::size_t>(stage);
    if (s < layout.param_gather_after_step_ns.size() && layout.param_gather_after_step_ns[s] > 0) {
        op.kind = StepOpKind::ParamGather;
        op.duration_ns = layout.param_gather_after_step_ns[s];
        out.op(op, step);
    }
}

}  // namespace dtcalc
