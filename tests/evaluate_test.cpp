// The critical-path evaluator on hand-built graphs with exact start and end
// times, its properties on random graphs, and its input errors.
//
// Network for every case: one Switch dimension of 4 NPUs whose bandwidth is
// 1e9 / 2^30 GB/s, i.e. exactly B = 1 byte per ns in ASTRA-sim's units, and
// 5 ns per hop; ring algorithms, 1 chunk, 1 active chunk, no endpoint delay,
// a local memory so fast that reductions cost floor(bytes / 1e12) = 0.
// Then a ring all-reduce of 400 bytes on 4 NPUs is 2(4-1) = 6 steps of
// floor(2 hops x 5 ns + 100 B / 1 B/ns) = 110 ns: 660 ns. A send of 90 bytes
// across the switch is one message: floor(2 x 5 + 90) = 100 ns.
#include <doctest/doctest.h>

#include <random>

#include "core/error.h"
#include "schedule/evaluate.h"

using namespace dtcalc;

namespace {

struct Fixture {
    System machine;
    Network& network = machine.network;
    SystemConfig& system = machine.config;
    EvaluationSystem eval;
    CommGroup all;

    Fixture() {
        network.dimensions.push_back({Topology::Switch, 4, 1e9 / 1073741824.0, 5.0});
        for (auto& list : system.implementation) list.assign(1, {AlgorithmKind::Ring, false});
        system.preferred_dataset_splits = 1;
        system.active_chunks_per_dimension = 1;
        system.endpoint_delay_ns = 0;
        system.local_mem_bw_gbps = 1e12;
        eval.system = &machine;
        machine.backend = NetworkBackend::AstraUnaware;
        all = whole_network_group(network);
    }
};

Op compute(double ns, int role = 0) {
    Op op;
    op.kind = OpKind::Compute;
    op.duration_ns = ns;
    op.role = role;
    return op;
}

Op all_reduce(int group, std::uint64_t bytes, int role = 0, int sync = -1) {
    Op op;
    op.kind = OpKind::Collective;
    op.collective = CollectiveKind::AllReduce;
    op.group = group;
    op.comm_bytes = bytes;
    op.role = role;
    op.sync = sync;
    return op;
}

Op send(int group, std::uint64_t bytes, int role, int to, int tag) {
    Op op;
    op.kind = OpKind::Send;
    op.group = group;
    op.comm_bytes = bytes;
    op.role = role;
    op.peer_role = to;
    op.tag = tag;
    return op;
}

Op recv(int role, int from, int tag) {
    Op op;
    op.kind = OpKind::Recv;
    op.role = role;
    op.peer_role = from;
    op.tag = tag;
    return op;
}

void check_span(const Schedule& s, int op, double start, double end) {
    CAPTURE(op);
    CHECK(s.ops[static_cast<std::size_t>(op)].start_ns == doctest::Approx(start));
    CHECK(s.ops[static_cast<std::size_t>(op)].end_ns == doctest::Approx(end));
}

}  // namespace

TEST_CASE("a chain runs back to back") {
    Fixture f;
    WorkloadGraph g;
    const int a = g.add(compute(10));
    const int b = g.add(compute(20), {a});
    const int c = g.add(compute(5), {b});
    const Schedule s = evaluate(g, f.eval);
    check_span(s, a, 0, 10);
    check_span(s, b, 10, 30);
    check_span(s, c, 30, 35);
    CHECK(s.wall_ns == 35);
    CHECK(s.roles[0].compute_busy_ns == 35);
    CHECK(s.roles[0].exposed_comm_ns == 0);
    CHECK(s.critical_path == std::vector<int>{a, b, c});
}

TEST_CASE("independent compute ops still share the compute stream") {
    Fixture f;
    WorkloadGraph g;
    const int a = g.add(compute(10));
    const int b = g.add(compute(20));  // no dependency, but one stream: after a
    const Schedule s = evaluate(g, f.eval);
    check_span(s, a, 0, 10);
    check_span(s, b, 10, 30);
    CHECK(s.ops[static_cast<std::size_t>(b)].bound_by == a);
}

TEST_CASE("communication overlaps compute, and what is not hidden is exposed") {
    Fixture f;
    WorkloadGraph g;
    const int group = g.add_group(f.all);
    SUBCASE("hidden behind a long compute") {
        const int a = g.add(compute(100));
        const int ar = g.add(all_reduce(group, 400), {a});  // 100 .. 760
        const int b = g.add(compute(1000), {a});            // 100 .. 1100, overlaps the all-reduce
        const int c = g.add(compute(10), {ar, b});          // 1100 .. 1110
        const Schedule s = evaluate(g, f.eval);
        check_span(s, ar, 100, 760);
        check_span(s, b, 100, 1100);
        check_span(s, c, 1100, 1110);
        CHECK(s.wall_ns == 1110);
        CHECK(s.roles[0].compute_busy_ns == 1110);
        CHECK(s.roles[0].comm_busy_ns == 660);
        CHECK(s.roles[0].exposed_comm_ns == 0);
    }
    SUBCASE("exposed behind a short compute") {
        const int a = g.add(compute(100));
        const int ar = g.add(all_reduce(group, 400), {a});  // 100 .. 760
        const int b = g.add(compute(50), {a});              // 100 .. 150
        const int c = g.add(compute(10), {ar, b});          // waits for the all-reduce: 760 .. 770
        const Schedule s = evaluate(g, f.eval);
        check_span(s, c, 760, 770);
        CHECK(s.wall_ns == 770);
        CHECK(s.roles[0].compute_busy_ns == 160);
        CHECK(s.roles[0].exposed_comm_ns == 610);           // 770 - 160
        CHECK(s.exposed_ns[static_cast<std::size_t>(ar)] == 610);  // c waited 760 - 150
        CHECK(s.critical_path == std::vector<int>{a, ar, c});
    }
    SUBCASE("two collectives on the same dimension queue in issue order") {
        const int a = g.add(compute(100));
        const int ar1 = g.add(all_reduce(group, 400), {a});  // 100 .. 760
        const int ar2 = g.add(all_reduce(group, 400), {a});  // dimension busy: 760 .. 1420
        const Schedule s = evaluate(g, f.eval);
        check_span(s, ar1, 100, 760);
        check_span(s, ar2, 760, 1420);
        CHECK(s.roles[0].comm_busy_ns == 1320);
    }
}

TEST_CASE("a collective waits for its slowest member") {
    Fixture f;
    WorkloadGraph g;
    g.roles = 2;
    g.role_npus = {2, 2};
    const int group = g.add_group(f.all);
    const int a0 = g.add(compute(100, 0));
    const int a1 = g.add(compute(300, 1));
    const int c0 = g.add(all_reduce(group, 400, 0, 7), {a0});
    const int c1 = g.add(all_reduce(group, 400, 1, 7), {a1});
    const int d0 = g.add(compute(10, 0), {c0});
    const int d1 = g.add(compute(10, 1), {c1});
    const Schedule s = evaluate(g, f.eval);
    check_span(s, c0, 300, 960);  // both start when role 1 arrives at 300
    check_span(s, c1, 300, 960);
    check_span(s, d0, 960, 970);
    check_span(s, d1, 960, 970);
    CHECK(s.roles[0].exposed_comm_ns == 860);  // 970 - 110
    CHECK(s.roles[1].exposed_comm_ns == 660);  // 970 - 310
}

TEST_CASE("a send/recv pipeline of three stages and two micro-batches") {
    Fixture f;
    WorkloadGraph g;
    g.roles = 3;
    g.role_npus = {1, 1, 1};
    const int p2p = g.add_group(f.all);
    // stage 0
    const int f0a = g.add(compute(100, 0));
    const int s0a = g.add(send(p2p, 90, 0, 1, 0), {f0a});
    const int f0b = g.add(compute(100, 0));
    const int s0b = g.add(send(p2p, 90, 0, 1, 1), {f0b});
    // stage 1
    const int r1a = g.add(recv(1, 0, 0));
    const int f1a = g.add(compute(100, 1), {r1a});
    const int s1a = g.add(send(p2p, 90, 1, 2, 0), {f1a});
    const int r1b = g.add(recv(1, 0, 1));
    const int f1b = g.add(compute(100, 1), {r1b});
    const int s1b = g.add(send(p2p, 90, 1, 2, 1), {f1b});
    // stage 2
    const int r2a = g.add(recv(2, 1, 0));
    const int f2a = g.add(compute(100, 2), {r2a});
    const int r2b = g.add(recv(2, 1, 1));
    const int f2b = g.add(compute(100, 2), {r2b});
    const Schedule s = evaluate(g, f.eval);
    check_span(s, f0a, 0, 100);
    check_span(s, s0a, 100, 200);
    check_span(s, f0b, 100, 200);
    check_span(s, s0b, 200, 300);   // the link is busy with micro-batch a until 200
    check_span(s, f1a, 200, 300);
    check_span(s, s1a, 300, 400);
    check_span(s, f1b, 300, 400);
    check_span(s, s1b, 400, 500);
    check_span(s, f2a, 400, 500);
    check_span(s, f2b, 500, 600);
    CHECK(s.wall_ns == 600);
    CHECK(s.roles[2].exposed_comm_ns == 400);  // stage 2 idles 0..400 (the pipeline fill)
    (void)s1a;
}

TEST_CASE("a two-stage GPipe step has its bubble") {
    Fixture f;
    WorkloadGraph g;
    g.roles = 2;
    g.role_npus = {1, 1};
    const int p2p = g.add_group(f.all);
    // Forward 100 ns and backward 200 ns per micro-batch per stage, sends 100 ns.
    const int f0a = g.add(compute(100, 0));
    g.add(send(p2p, 90, 0, 1, 0), {f0a});
    const int f0b = g.add(compute(100, 0));
    g.add(send(p2p, 90, 0, 1, 1), {f0b});
    const int r1a = g.add(recv(1, 0, 0));
    const int f1a = g.add(compute(100, 1), {r1a});
    const int r1b = g.add(recv(1, 0, 1));
    const int f1b = g.add(compute(100, 1), {r1b});
    const int b1b = g.add(compute(200, 1), {f1b});
    g.add(send(p2p, 90, 1, 0, 11), {b1b});
    const int b1a = g.add(compute(200, 1), {f1a});
    g.add(send(p2p, 90, 1, 0, 10), {b1a});
    const int r0b = g.add(recv(0, 1, 11));
    const int b0b = g.add(compute(200, 0), {r0b, f0b});
    const int r0a = g.add(recv(0, 1, 10));
    const int b0a = g.add(compute(200, 0), {r0a, f0a});
    const Schedule s = evaluate(g, f.eval);
    // Stage 1: F a 200..300, F b 300..400, B b 400..600, B a 600..800; sends back end 700 and 900.
    check_span(s, f1a, 200, 300);
    check_span(s, b1b, 400, 600);
    check_span(s, b1a, 600, 800);
    // Stage 0: B b waits for its gradient until 700, B a until 900.
    check_span(s, b0b, 700, 900);
    check_span(s, b0a, 900, 1100);
    CHECK(s.wall_ns == 1100);
    CHECK(s.roles[0].compute_busy_ns == 600);
    CHECK(s.roles[0].exposed_comm_ns == 500);  // the bubble: 1100 - 600
}

TEST_CASE("ops given out of order are evaluated in dependency order") {
    Fixture f;
    WorkloadGraph g;
    const int late = g.add(compute(5));  // depends on the next op
    const int early = g.add(compute(10));
    g.add_dependency_list(early, {});
    g.ops[static_cast<std::size_t>(late)].dep_count = 0;
    WorkloadGraph h;
    const int x = h.add(compute(5), {1});
    const int y = h.add(compute(10));
    const Schedule s = evaluate(h, f.eval);
    check_span(s, y, 0, 10);
    check_span(s, x, 10, 15);
    (void)late;
}

TEST_CASE("bad graphs are input errors, not hangs") {
    Fixture f;
    SUBCASE("a cycle") {
        WorkloadGraph g;
        g.add(compute(1), {1});
        g.add(compute(1), {0});
        CHECK_THROWS_WITH_AS(evaluate(g, f.eval), "workload: op 0: is part of a dependency cycle", InputError);
    }
    SUBCASE("a dangling dependency") {
        WorkloadGraph g;
        g.add(compute(1), {5});
        CHECK_THROWS_WITH_AS(evaluate(g, f.eval), "workload: op 0: depends on op 5, which does not exist", InputError);
    }
    SUBCASE("an unmatched receive and an unmatched send") {
        WorkloadGraph g;
        g.roles = 2;
        g.role_npus = {1, 1};
        g.add(recv(1, 0, 3));
        CHECK_THROWS_WITH_AS(evaluate(g, f.eval), "workload: op 0: receive from role 0 with tag 3 has no matching send",
                             InputError);
        WorkloadGraph h;
        h.roles = 2;
        h.role_npus = {1, 1};
        const int group = h.add_group(f.all);
        h.add(send(group, 8, 0, 1, 4));
        CHECK_THROWS_WITH_AS(evaluate(h, f.eval), "workload: op 0: send to role 1 with tag 4 has no matching receive",
                             InputError);
    }
    SUBCASE("a collective without a group, a role that does not exist") {
        WorkloadGraph g;
        g.add(all_reduce(3, 8));
        CHECK_THROWS_WITH_AS(evaluate(g, f.eval), "workload: op 0: has no valid communicator group", InputError);
        WorkloadGraph h;
        h.add(compute(1, 2));
        CHECK_THROWS_WITH_AS(evaluate(h, f.eval), "workload: op 0: role 2 does not exist", InputError);
    }
    SUBCASE("a roofline op on a device without a peak") {
        WorkloadGraph g;
        Op op;
        op.kind = OpKind::Compute;
        op.flops = 1e9;
        g.add(op);
        CHECK_THROWS_AS(evaluate(g, f.eval), InputError);
    }
}

// Longest path through the graph counting compute durations only.
static double critical_compute_path(const WorkloadGraph& g) {
    std::vector<double> finish(g.ops.size(), 0);
    double best = 0;
    for (std::size_t i = 0; i < g.ops.size(); ++i) {
        double start = 0;
        for (std::uint32_t p : g.predecessors(static_cast<int>(i))) start = std::max(start, finish[p]);
        const Op& op = g.ops[i];
        finish[i] = start + (op.kind == OpKind::Compute ? op.duration_ns : 0);
        best = std::max(best, finish[i]);
    }
    return best;
}

TEST_CASE("properties on random single-role graphs") {
    Fixture f;
    std::mt19937 rng(12345);
    for (int trial = 0; trial < 200; ++trial) {
        WorkloadGraph g;
        const int group = g.add_group(f.all);
        const int n = 2 + static_cast<int>(rng() % 30);
        for (int i = 0; i < n; ++i) {
            std::vector<int> deps;
            for (int j = 0; j < i; ++j)
                if (rng() % 4 == 0) deps.push_back(j);
            if (rng() % 3 == 0) g.add(all_reduce(group, 4 * (1 + rng() % 1000)), deps);
            else g.add(compute(static_cast<double>(1 + rng() % 500)), deps);
        }
        CAPTURE(trial);
        const Schedule s = evaluate(g, f.eval);
        const RoleSummary& r = s.roles[0];
        CHECK(s.wall_ns >= critical_compute_path(g) - 1e-9);
        CHECK(r.exposed_comm_ns <= r.comm_busy_ns + 1e-9);
        CHECK(r.exposed_comm_ns >= 0);
        // Without communication the compute stream never idles.
        WorkloadGraph only_compute;
        for (std::size_t i = 0; i < g.ops.size(); ++i) {
            Op op = g.ops[i];
            if (op.kind != OpKind::Compute) op = compute(0);
            std::vector<int> deps;
            for (std::uint32_t p : g.predecessors(static_cast<int>(i))) deps.push_back(static_cast<int>(p));
            only_compute.add(op, deps);
        }
        const Schedule c = evaluate(only_compute, f.eval);
        CHECK(c.wall_ns == doctest::Approx(c.roles[0].compute_busy_ns));
        CHECK(c.roles[0].exposed_comm_ns == doctest::Approx(0));
    }
}
