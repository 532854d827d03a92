// Communication overlapped with the compute (workload/step_layout.h): the
// first piece before the compute, the rest beside it, the next pass waiting
// for it. Timed by hand with a minimal consumer: one FIFO stream for compute
// and one per op kind, each op starting when its stream is free and its
// dependencies have ended.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "predict/option_schema.h"
#include "predict/predict.h"
#include "predict/predict_options.h"
#include "schedule/evaluate.h"
#include "schedule/link_sharing.h"
#include "workload/step_layout.h"

namespace {

using namespace dtcalc;

struct HandTimer {
    using Deps = double;  // the latest end to wait for
    static void join(Deps& into, const Deps& more) { into = std::max(into, more); }
    std::map<int, double> stream_free;  // compute = -1, else the op kind
    struct Timed {
        StepOpKind kind;
        double start, end;
        bool overlapped;
    };
    std::vector<Timed> ops;
    Deps op(const StepOp& s, const Deps& after) {
        const bool compute = s.kind == StepOpKind::Compute || s.kind == StepOpKind::OptimizerStep;
        double& free = stream_free[compute ? -1 : static_cast<int>(s.kind)];
        const double start = std::max(free, after);
        free = start + s.duration_ns;
        ops.push_back({s.kind, start, free, s.overlapped});
        return free;
    }
};

// One stage, one forward pass then the optimizer step (0 ns).
HandTimer run_one_pass(const PassLayout& pl, bool overlap_tp) {
    StepLayout layout;
    layout.overlap_tp = overlap_tp;
    layout.passes = {pl, PassLayout{}};
    layout.optimizer_ns = {0};
    HandTimer timer;
    StageCursor<double> cursor;
    const Pass pass{true, 0, 0};
    lay_out_pass(layout, 0, pass, false, cursor, timer);
    lay_out_optimizer(layout, 0, cursor, timer);
    return timer;
}

}  // namespace

TEST_CASE("context-parallel ring: one step before the compute, the rest beside it") {
    // 4 layers, cp 3: 2 ring steps per layer, 8 steps of 1.5 ns = 12 ns in all.
    // The first step (1.5) before the compute (10 ns): compute [1.5, 11.5];
    // the other 10.5 ns beside it, [1.5, 12]: 0.5 ns past the compute.
    // Exposed = 1.5 + max(0, 10.5 - 10) = 2 ns; the step ends at 12.
    PassLayout pl;
    pl.compute_ns = 10;
    pl.cp_ns = 12;
    pl.cp_first_ns = 1.5;
    const HandTimer t = run_one_pass(pl, false);
    REQUIRE(t.ops.size() == 4);  // first, rest, compute, optimizer
    CHECK(t.ops[0].kind == StepOpKind::ContextExchange);
    CHECK(t.ops[0].end == 1.5);
    CHECK(t.ops[1].kind == StepOpKind::ContextExchange);
    CHECK(t.ops[1].overlapped);
    CHECK(t.ops[1].start == 1.5);
    CHECK(t.ops[1].end == 12);
    CHECK(t.ops[2].kind == StepOpKind::Compute);
    CHECK(t.ops[2].start == 1.5);
    CHECK(t.ops[2].end == 11.5);
    CHECK(t.ops[3].kind == StepOpKind::OptimizerStep);
    CHECK(t.ops[3].start == 12);  // waits for the rest of the exchange
}

TEST_CASE("FSDP prefetch: the first layer's gather is exposed, the others hide behind the compute") {
    // ZeRO-3 gather of 8 layers, 16 ns: the first layer's 2 ns before the
    // compute (20 ns), the other 14 ns beside it: hidden. Step = 2 + 20 = 22.
    PassLayout pl;
    pl.compute_ns = 20;
    pl.zero3 = true;
    pl.zero3_gather_ns = 16;
    pl.zero3_gather_first_ns = 2;
    const HandTimer t = run_one_pass(pl, false);
    REQUIRE(t.ops.size() == 4);
    CHECK(t.ops[0].kind == StepOpKind::Zero3Gather);
    CHECK(t.ops[0].end == 2);
    CHECK(t.ops[1].end == 16);  // the rest, beside
    CHECK(t.ops[2].kind == StepOpKind::Compute);
    CHECK(t.ops[2].start == 2);
    CHECK(t.ops[3].start == 22);
}

TEST_CASE("partial TP overlap: the rest beside the GEMMs, then the first chunk blocks") {
    // tp 4: 8 ns of TP collectives, the first chunk 2 ns. The rest (6 ns)
    // runs beside the compute (10 ns) from its start, [0, 6]; the first chunk
    // after the compute, [10, 12]. Exposed = 2 + max(0, 6 - 10) = 2.
    PassLayout pl;
    pl.compute_ns = 10;
    pl.tp_ns = 8;
    pl.tp_first_ns = 2;
    const HandTimer t = run_one_pass(pl, true);
    REQUIRE(t.ops.size() == 4);
    CHECK(t.ops[1].kind == StepOpKind::TensorCollectives);
    CHECK(t.ops[1].overlapped);
    CHECK(t.ops[1].start == 0);
    CHECK(t.ops[1].end == 6);
    CHECK(t.ops[2].kind == StepOpKind::TensorCollectives);
    CHECK(!t.ops[2].overlapped);
    CHECK(t.ops[2].start == 10);
    CHECK(t.ops[2].end == 12);
    CHECK(t.ops[3].start == 12);
    // Communication longer than the compute: the rest, 26 ns of 28, ends at
    // 26 > 10; the first chunk waits behind it on the stream, [26, 28].
    // Exposed = 2 + (26 - 10) = 18: the step ends at 28.
    pl.tp_ns = 28;
    const HandTimer slow = run_one_pass(pl, true);
    CHECK(slow.ops[3].start == 28);
}

TEST_CASE("predict: with TP overlap exactly one of tp chunks of the TP communication is exposed") {
    // Llama-2 7B on one HGX H100 (tp 8, dp 1, pp 1: no other traffic shares
    // the NVLinks): each pass's TP collectives are pipelined in 8 chunks with
    // GEMMs that take longer, so exposed TP = communication / 8.
    PredictOptions o;
    o.model = "llama2-7b";
    o.system.preset = "hgx-h100";
    o.tp = 8;
    o.sequence_parallel = true;
    o.tp_comm_overlap = true;
    const PredictResult r = predict(resolve_prediction(o, {DTCALC_PRESETS_DIR}, {std::string(DTCALC_SOURCE_DIR) + "/models"}).inputs);
    const TrafficTime& tp = r.comm_by_class[static_cast<std::size_t>(TrafficClass::Tensor)];
    REQUIRE(tp.comm_ns > 0);
    CHECK(tp.exposed_ns == doctest::Approx(tp.comm_ns / 8).epsilon(1e-9));
}

TEST_CASE("traffic classes on one dimension share its links: half rate while both are in flight") {
    // An op of 10 ns starting at 0 while another class holds the links over
    // [4, 8]: 4 ns alone, then [4, 8] at half rate (2 ns of work), then the
    // remaining 4 ns alone: ends at 12.
    CHECK(shared_link_end(0, 10, {4, 8}) == 12);
    // Held from before it starts until 6: 6 ns at half rate (3 of work), 7 alone: 13.
    CHECK(shared_link_end(0, 10, {-5, 6}) == 13);
    // Held for longer than the op takes at half rate: twice its time.
    CHECK(shared_link_end(1, 10, {0, 100}) == 21);
    // Idle links (the other class ended before it starts): its own time.
    CHECK(shared_link_end(5, 10, {0, 5}) == 15);
    // Held only after it ends: its own time.
    CHECK(shared_link_end(0, 10, {10, 20}) == 10);
    // Two other classes: the span from the first one's start to the last one's end.
    const LaneBusy both = merge_busy({2, 4}, {3, 9});
    CHECK(both.start == 2);
    CHECK(both.end == 9);
    CHECK(merge_busy({}, {3, 9}).start == 3);
}

TEST_CASE("the evaluator: two traffic classes on one dimension share it, one class queues") {
    // One Switch of 4 NPUs at exactly 1 byte per ns, 5 ns per hop, ring, 1
    // chunk: an all-reduce of 400 B is 6 steps of floor(2 x 5 + 100) = 110 ns,
    // 660 ns. Two all-reduces ready at 0:
    // - one lane (as ASTRA-sim's one queue per dimension): [0, 660], [660, 1320];
    // - two lanes (DP and PP traffic): the first [0, 660] at its own rate, the
    //   second at half rate while the first holds the links: 660 ns give 330
    //   of its work, the other 330 alone: [0, 990].
    System machine;
    Network& network = machine.network;
    network.dimensions.push_back({Topology::Switch, 4, 1e9 / 1073741824.0, 5.0});
    SystemConfig& system = machine.config;
    for (auto& list : system.implementation) list.assign(1, {AlgorithmKind::Ring, false});
    system.preferred_dataset_splits = 1;
    system.active_chunks_per_dimension = 1;
    system.endpoint_delay_ns = 0;
    system.local_mem_bw_gbps = 1e12;
    EvaluationSystem eval;
    eval.system = &machine;
    machine.backend = NetworkBackend::AstraUnaware;
    for (const int lanes : {1, 2}) {
        WorkloadGraph g;
        g.lanes = lanes;
        const int group = g.add_group(whole_network_group(network));
        Op a;
        a.kind = OpKind::Collective;
        a.group = group;
        a.comm_bytes = 400;
        Op b = a;
        b.lane = lanes - 1;
        const int first = g.add(a), second = g.add(b);
        const Schedule s = evaluate(g, eval);
        CAPTURE(lanes);
        CHECK(s.ops[static_cast<std::size_t>(first)].end_ns == 660);
        CHECK(s.ops[static_cast<std::size_t>(second)].start_ns == (lanes == 1 ? 660 : 0));
        CHECK(s.ops[static_cast<std::size_t>(second)].end_ns == (lanes == 1 ? 1320 : 990));
    }
}
