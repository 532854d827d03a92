#include "workload/training_step.h"

#include <span>
#include <string>
#include <vector>


namespace dtcalc {
namespace {

// Graph ops to wait for: most sets hold one to three, so they live inline;
// a longer one (a stage's gradient buckets) moves to the heap.
class OpList {
public:
    OpList() = default;
    explicit OpList(int op) : size_(1) { inline_[0] = op; }

    void append(const OpList& more) {
        for (int op : more.span()) push_back(op);
    }
    void push_back(int op) {
        if (size_ < kInline) {
            inline_[size_++] = op;
            return;
        }
        if (size_ == kInline) heap_.assign(inline_, inline_ + kInline);
        heap_.push_back(op);
        ++size_;
    }
    std::span<const int> span() const {
        return size_ <= kInline ? std::span<const int>(inline_, size_) : std::span<const int>(heap_);
    }

private:
    static constexpr std::size_t kInline = 6;
    int inline_[kInline] = {};
    std::size_t size_ = 0;
    std::vector<int> heap_;
};

// The layout's consumer that adds each op to the graph: a Deps is the list of
// graph ops to wait for, in the order the layout joins them.
class GraphBuilder {
public:
    using Deps = OpList;

    GraphBuilder(TrainingStep& step, const StepLayout& layout, const ParallelPlan& plan, bool layer_list)
        : step_(step), graph_(step.graph), layout_(layout), plan_(plan), layer_list_(layer_list) {
        const ParallelGroups& g = step.groups;
        tp_group_ = graph_.add_group(g.tp);
        ep_group_ = graph_.add_group(layer_list ? g.dp : g.ep);
        cp_group_ = graph_.add_group(g.cp);
        dp_group_ = graph_.add_group(g.dp_cp);
        p2p_group_ = graph_.add_group(g.pp_neighbour);
        forward_name_ = graph_.name_id("F");
        backward_name_ = graph_.name_id("B");
        send_activation_name_ = graph_.name_id("send activation");
        send_gradient_name_ = graph_.name_id("send gradient");
    }

    static void join(Deps& into, const Deps& more) { into.append(more); }

    Deps op(const StepOp& s, const Deps& after) {
        const bool forward = s.pass == nullptr || s.pass->forward;
        const OpPhase phase = s.pass == nullptr ? OpPhase::Update : forward ? OpPhase::Forward : OpPhase::InputGradient;
        Op o;
        o.role = s.stage;
        o.phase = phase;
        o.duration_ns = s.duration_ns;
        const CollectiveKind tp_kind = plan_.sequence_parallel ? CollectiveKind::AllGather : CollectiveKind::AllReduce;
        const CollectiveKind dp_kind = plan_.zero >= 1 ? CollectiveKind::ReduceScatter : CollectiveKind::AllReduce;
        switch (s.kind) {
            case StepOpKind::Receive:
                o = Op{};
                o.kind = OpKind::Recv;
                o.role = s.stage;
                o.peer_role = s.peer_stage;
                o.tag = static_cast<int>(s.tag);
                o.phase = phase;
                break;
            case StepOpKind::ContextExchange:
                collective(o,
                           forward ? (s.overlapped ? "cp kv all-gather (overlapped)" : "cp kv all-gather")
                                   : (s.overlapped ? "cp kv reduce-scatter (overlapped)" : "cp kv reduce-scatter"),
                           cp_group_, CollectiveKind::AllGather);
                break;
            case StepOpKind::Zero3Gather:
                collective(o, s.overlapped ? "zero-3 parameter all-gather (prefetched)" : "zero-3 parameter all-gather",
                           dp_group_, CollectiveKind::AllGather);
                break;
            case StepOpKind::ParamGather:
                collective(o, s.overlapped ? "dp parameter all-gather (beside the forward)" : "dp parameter all-gather",
                           dp_group_, CollectiveKind::AllGather);
                break;
            case StepOpKind::Compute:
                o.kind = OpKind::Compute;
                o.flops = s.flops;
                o.name = s.parts > 1 ? graph_.name_id((forward ? "F part " : "B part ") + std::to_string(s.part))
                                     : forward ? forward_name_ : backward_name_;
                o.micro_batch = s.pass->micro_batch;
                o.chunk = layout_.virtual_chunks > 1 ? s.pass->chunk : -1;
                break;
            case StepOpKind::TensorCollectives:
                collective(o, s.overlapped ? "tp collectives (overlapped)" : "tp collectives", tp_group_, tp_kind);
                break;
            case StepOpKind::ExpertAllToAll:
                collective(o, layer_list_ ? "embedding all-to-all" : "expert all-to-all", ep_group_, CollectiveKind::AllToAll);
                break;
            case StepOpKind::GradientBucket:
                collective(o, "dp gradient bucket", dp_group_, dp_kind);
                o.phase = OpPhase::WeightGradient;
                break;
            case StepOpKind::Zero3ReduceScatter:
                collective(o, "zero-3 gradient reduce-scatter", dp_group_, CollectiveKind::ReduceScatter);
                o.phase = OpPhase::WeightGradient;
                break;
            case StepOpKind::Send:
                o.kind = OpKind::Send;
                o.group = p2p_group_;
                o.comm_bytes = static_cast<std::uint64_t>(layout_.send_bytes);
                o.peer_role = s.peer_stage;
                o.tag = static_cast<int>(s.tag);
                o.name = forward ? send_activation_name_ : send_gradient_name_;
                o.micro_batch = s.pass->micro_batch;
                break;
            case StepOpKind::OptimizerStep:
                o.kind = OpKind::Compute;
                o.name = name_of("optimizer step");
                break;
        }
        if (o.kind == OpKind::Collective || o.kind == OpKind::Send) o.lane = traffic_class(s.kind);
        const int id = graph_.add(o, after.span());
        step_.op_traffic.push_back(static_cast<signed char>(traffic_class(s.kind)));
        return OpList(id);
    }

private:
    void collective(Op& o, const char* name, int group, CollectiveKind kind) {
        o.kind = OpKind::Collective;
        o.group = group;
        o.collective = kind;
        o.name = name_of(name);
    }
    // A fixed name's index, interned at its first use (the graph's names in
    // the order the ops first use them).
    int name_of(const char* name) {
        for (const auto& [text, id] : names_)
            if (text == name) return id;
        const int id = graph_.name_id(name);
        names_.emplace_back(name, id);
        return id;
    }

    TrainingStep& step_;
    WorkloadGraph& graph_;
    const StepLayout& layout_;
    const ParallelPlan& plan_;
    bool layer_list_;
    int tp_group_, ep_group_, cp_group_, dp_group_, p2p_group_;
    int forward_name_, backward_name_, send_activation_name_, send_gradient_name_;
    std::vector<std::pair<const char*, int>> names_;
};

}  // namespace

TrainingStep build_training_step(const TrainingStepInputs& in) {
    const ParallelPlan& p = *in.plan;
    const bool layer_list = in.model->kind == ModelKind::LayerList;
    const TrainingStepCosts costs = price_training_step(in);
    const StepLayout layout = make_step_layout(costs, p, layer_list);

    TrainingStep step;
    step.groups = costs.groups;
    const int pp = layout.stages;
    step.graph.roles = pp;
    step.graph.lanes = kTrafficClasses;  // TP, CP, EP, DP and PP traffic side by side on shared links
    step.graph.role_npus.assign(static_cast<std::size_t>(pp), p.npus() / pp);
    for (int c = 0; c < layout.virtual_chunks; ++c) {
        step.forward_ns_per_microbatch += costs.chunks[static_cast<std::size_t>(c * pp)].forward.compute_ns;
        step.backward_ns_per_microbatch += costs.chunks[static_cast<std::size_t>(c * pp)].backward.compute_ns;
    }

    GraphBuilder builder(step, layout, p, layer_list);
    // Stage by stage, each in schedule order; the order across stages comes
    // from the sends and receives.
    for (int s = 0; s < pp; ++s) {
        const std::vector<Pass> passes = stage_schedule(p, s);
        const std::vector<int> last_backward = last_backward_passes(passes, layout.virtual_chunks);
        StageCursor<GraphBuilder::Deps> cursor;
        for (std::size_t i = 0; i < passes.size(); ++i) {
            const Pass& pass = passes[i];
            const bool last = !pass.forward && last_backward[static_cast<std::size_t>(pass.chunk)] == static_cast<int>(i);
            lay_out_pass(layout, s, pass, last, cursor, builder);
        }
        lay_out_optimizer(layout, s, cursor, builder);
    }
    return step;
}

}  // namespace dtcalc
