// The ASTRA-sim issue policy (schedule/issue_order.h) on hand-built graphs
// with exact times worked out in the comments.
#include <doctest/doctest.h>

#include "core/error.h"
#include "schedule/evaluate.h"

using namespace dtcalc;

namespace {

struct Fixture {
    System machine;
    Network& network = machine.network;
    SystemConfig& system = machine.config;
    EvaluationSystem eval;
    WorkloadGraph g;
    int all = 0;

    Fixture() {
        network.dimensions.push_back({Topology::Switch, 4, 1e9 / 1073741824.0, 5.0});
        for (auto& list : system.implementation) list.assign(1, {AlgorithmKind::Ring, false});
        system.preferred_dataset_splits = 1;
        system.active_chunks_per_dimension = 1;
        system.local_mem_bw_gbps = 1e12;
        eval.system = &machine;
        eval.issue = IssuePolicy::ReadyLowestIndex;
        all = g.add_group(whole_network_group(network));
    }

    int add(OpKind kind, double ns, std::initializer_list<int> deps = {}, int role = 0, const char* name = nullptr) {
        Op op;
        op.kind = kind;
        op.duration_ns = ns;
        op.role = role;
        op.group = all;
        if (name) op.name = g.intern_name(name);
        return g.add(op, deps);
    }
};

}  // namespace

TEST_CASE("a freed stream takes the lowest-index op that is ready then, not the next in graph order") {
    Fixture f;
    // 0: compute A 100; 1: collective X 150; 2: compute B 10 after X; 3: compute C 20.
    // t=0: compute takes A (A, C ready), communication takes X.
    // t=100: A ends; ready compute ops: C only (B waits for X) -> C [100, 120].
    // t=150: X ends -> B [150, 160]. Wall 160.
    const int a = f.add(OpKind::Compute, 100);
    const int x = f.add(OpKind::Collective, 150);
    const int b = f.add(OpKind::Compute, 10, {x});
    const int c = f.add(OpKind::Compute, 20);
    const Schedule s = evaluate(f.g, f.eval);
    CHECK(s.ops[static_cast<std::size_t>(a)].end_ns == 100);
    CHECK(s.ops[static_cast<std::size_t>(c)].start_ns == 100);
    CHECK(s.ops[static_cast<std::size_t>(c)].end_ns == 120);
    CHECK(s.ops[static_cast<std::size_t>(b)].start_ns == 150);
    CHECK(s.wall_ns == 160);
    // The topological pass runs B before C on the compute stream: 180.
    f.eval.issue = IssuePolicy::GraphOrder;
    CHECK(evaluate(f.g, f.eval).wall_ns == 180);
}

TEST_CASE("one communication stream for collectives, sends and memory ops; host ops beside the accelerator") {
    Fixture f;
    // Collective 100, send 50 and memory 30 all ready at 0 on role 0: one after another
    // in index order: [0,100], [100,150], [150,180]. A host compute of 70 and an
    // accelerator compute of 40 run at once from 0.
    const int x = f.add(OpKind::Collective, 100);
    Op s;
    s.kind = OpKind::Send;
    s.duration_ns = 50;
    s.group = f.all;
    s.peer_role = 1;
    s.tag = 3;
    const int send = f.g.add(s);
    const int mem = f.add(OpKind::Memory, 30);
    Op host;
    host.kind = OpKind::Compute;
    host.host = true;
    host.duration_ns = 70;
    const int h = f.g.add(host);
    const int gpu = f.add(OpKind::Compute, 40);
    f.g.roles = 2;
    f.g.role_npus = {1, 1};
    Op r;
    r.kind = OpKind::Recv;
    r.role = 1;
    r.peer_role = 0;
    r.tag = 3;
    const int recv = f.g.add(r);
    const Schedule sch = evaluate(f.g, f.eval);
    CHECK(sch.ops[static_cast<std::size_t>(x)].end_ns == 100);
    CHECK(sch.ops[static_cast<std::size_t>(send)].start_ns == 100);
    CHECK(sch.ops[static_cast<std::size_t>(send)].end_ns == 150);
    CHECK(sch.ops[static_cast<std::size_t>(mem)].start_ns == 150);
    CHECK(sch.ops[static_cast<std::size_t>(mem)].end_ns == 180);
    CHECK(sch.ops[static_cast<std::size_t>(h)].start_ns == 0);
    CHECK(sch.ops[static_cast<std::size_t>(gpu)].start_ns == 0);
    // The receive is issued at 0 and ends when the message arrives (150): its
    // interval covers the wait.
    CHECK(sch.ops[static_cast<std::size_t>(recv)].start_ns == 0);
    CHECK(sch.ops[static_cast<std::size_t>(recv)].end_ns == 150);
    // Exposed = wall - accelerator compute busy: 180 - 40 (the host op does not count).
    CHECK(sch.roles[0].compute_busy_ns == 40);
    CHECK(sch.roles[0].exposed_comm_ns == 140);
}

TEST_CASE("a receive issued after its message arrived ends at once") {
    Fixture f;
    f.g.roles = 2;
    f.g.role_npus = {1, 1};
    Op s;
    s.kind = OpKind::Send;
    s.duration_ns = 50;
    s.group = f.all;
    s.peer_role = 1;
    const int send = f.g.add(s);
    const int work = f.add(OpKind::Compute, 80, {}, 1);
    Op r;
    r.kind = OpKind::Recv;
    r.role = 1;
    r.peer_role = 0;
    const int recv = f.g.add(r, {work});
    const Schedule sch = evaluate(f.g, f.eval);
    CHECK(sch.ops[static_cast<std::size_t>(send)].end_ns == 50);
    CHECK(sch.ops[static_cast<std::size_t>(recv)].start_ns == 80);
    CHECK(sch.ops[static_cast<std::size_t>(recv)].end_ns == 80);
}

TEST_CASE("a collective spanning roles ends for all at the last issue plus its time") {
    Fixture f;
    f.g.roles = 2;
    f.g.role_npus = {2, 2};
    // Role 0 reaches the collective at 100 (after compute 100), role 1 at 0:
    // both end at 100 + 30 = 130; role 1's op starts (is issued) at 0.
    const int c0 = f.add(OpKind::Compute, 100, {}, 0);
    Op x;
    x.kind = OpKind::Collective;
    x.duration_ns = 30;
    x.group = f.all;
    x.sync = 7;
    x.role = 0;
    const int x0 = f.g.add(x, {c0});
    x.role = 1;
    const int x1 = f.g.add(x);
    const Schedule s = evaluate(f.g, f.eval);
    CHECK(s.ops[static_cast<std::size_t>(x0)].start_ns == 100);
    CHECK(s.ops[static_cast<std::size_t>(x0)].end_ns == 130);
    CHECK(s.ops[static_cast<std::size_t>(x1)].start_ns == 0);
    CHECK(s.ops[static_cast<std::size_t>(x1)].end_ns == 130);
    CHECK(s.ops[static_cast<std::size_t>(x1)].bound_by == x0);
}

TEST_CASE("ops without a duration are priced as the evaluator prices them") {
    Fixture f;
    // Ring all-reduce of 400 B on the 4-NPU switch (B = 1 B/ns, 5 ns/hop, no
    // endpoint delay): 6 steps of floor(2 x 5 + 100) = 660 ns (evaluate_test's case).
    Op x;
    x.kind = OpKind::Collective;
    x.group = f.all;
    x.comm_bytes = 400;
    f.g.add(x);
    CHECK(evaluate(f.g, f.eval).wall_ns == 660);
}

TEST_CASE("a deadlock is an error naming the stuck op") {
    Fixture f;
    f.g.roles = 2;
    f.g.role_npus = {1, 1};
    // Role 0 issues collective A then B; role 1 issues its B first (lower index in
    // its role): each holds its only communication stream, waiting for the other.
    auto coll = [&](int role, int sync, const char* name) {
        Op x;
        x.kind = OpKind::Collective;
        x.duration_ns = 10;
        x.group = f.all;
        x.sync = sync;
        x.role = role;
        x.name = f.g.intern_name(name);
        return f.g.add(x);
    };
    coll(0, 1, "A0");
    coll(0, 2, "B0");
    coll(1, 2, "B1");
    coll(1, 1, "A1");
    try {
        evaluate(f.g, f.eval);
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == "workload: A0: never ends: role 1 never reaches its part of the collective, A1 (deadlock)");
    }
}

TEST_CASE("a dependency cycle never starts and is reported") {
    Fixture f;
    f.add(OpKind::Compute, 10, {1}, 0, "P");
    f.add(OpKind::Compute, 10, {0}, 0, "Q");
    try {
        evaluate(f.g, f.eval);
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == "workload: P: never starts: it waits for Q, which never ends (a dependency cycle or a deadlock)");
    }
}
