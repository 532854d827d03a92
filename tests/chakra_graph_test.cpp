// Traces as graphs: roles found by refinement, the checks on peers and groups
// (with their messages), the memory tracker on a hand-made trace.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "chakra/astra_run.h"
#include "chakra/comm_groups.h"
#include "chakra/memory_tracker.h"
#include "chakra_test_traces.h"
#include "core/error.h"

using namespace dtcalc;
using namespace dtcalc::chakra;
using namespace dtcalc::testing;

namespace {

AstraRun run_files(const std::string& prefix, int npus, const std::string& groups, bool roofline = false,
                   bool memory = false) {
    AstraRunFiles files;
    files.workload = prefix;
    files.comm_groups = groups;
    files.network = write_switch_network("switch" + std::to_string(npus), npus);
    files.system = write_system(std::string("system") + (roofline ? "_r" : "") + (memory ? "_m" : ""), roofline, memory);
    files.threads = 1;
    return run_astra(files);
}

std::string error_of(const std::string& prefix, int npus, const std::string& groups) {
    try {
        run_files(prefix, npus, groups);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("the sanity trace has two roles, one per pipeline stage") {
    AstraRunFiles files;
    files.workload = sanity_prefix();
    files.comm_groups = sanity_groups();
    files.network = chakra_dir() + "/network_system_16.yml";
    files.system = chakra_dir() + "/system_system_16.json";
    files.remote_memory = chakra_dir() + "/remote_memory.json";
    const AstraRun run = run_astra(files);
    CHECK(run.trace.graph.roles == 2);
    CHECK(run.trace.graph.role_npus == std::vector<std::int64_t>{8, 8});
    CHECK(run.trace.representative == std::vector<int>{0, 8});
    // The INVALID/METADATA-free STAGE trace: every node is an op.
    CHECK(run.trace.graph.ops.size() == 347 + 346);
}

TEST_CASE("a pipeline of four NPUs: send and receive timed by hand") {
    // NPU 0: compute 2 µs, send 1000 B to 1. NPU 1: receive, compute 3 µs, send to 2.
    // NPUs 2, 3 do the same as 0, 1. Switch: a message costs floor(2 x 5 + 1000) = 1010.
    // 0: compute [0, 2000], send [2000, 3010]. 1: receive [0, 3010], compute [3010, 6010].
    const std::vector<Node> first = {comp(1, 2), send(2, 1, 1000, 5, {1})};
    std::vector<Node> second = {recv(1, 0, 1000, 5), comp(2, 3, {1})};
    std::vector<Node> fourth = {recv(1, 2, 1000, 5), comp(2, 3, {1})};
    std::vector<Node> third = {comp(1, 2), send(2, 3, 1000, 5, {1})};
    const std::string prefix = write_traces("pipe4", {first, second, third, fourth});
    const AstraRun run = run_files(prefix, 4, "empty");
    CHECK(run.trace.graph.roles == 2);  // {0, 2} and {1, 3}
    CHECK(run.trace.graph.rank_role == std::vector<int>{0, 1, 0, 1});
    REQUIRE(run.ranks.size() == 4);
    CHECK(run.ranks[0].finish_cycles == 3010);
    CHECK(run.ranks[1].finish_cycles == 6010);
    CHECK(run.ranks[3].finish_cycles == 6010);
    CHECK(*run.ranks[1].comm_cycles == 3010);  // the receive's wait
    CHECK(*run.ranks[1].gpu_cycles == 3000);
    CHECK(run.ranks[1].exposed_comm_cycles == 3010);
}

TEST_CASE("ranks of one shape split into roles when their peers differ") {
    // NPUs 0 and 2 have the same nodes (compute 1 µs, then send 100 B to their
    // partner); their partners 1 and 3 differ (compute 5 µs vs 1 µs after the
    // receive). Refinement splits 0 from 2 through their peers: 4 roles, not 3.
    // Message: floor(2 x 5 + 100) = 110. 1: receive ends 1110, compute to 6110;
    // 3: to 2110.
    const std::vector<Node> sender_a = {comp(1, 1), send(2, 1, 100, 1, {1})};
    const std::vector<Node> sender_b = {comp(1, 1), send(2, 3, 100, 1, {1})};
    const std::vector<Node> slow = {recv(1, 0, 100, 1), comp(2, 5, {1})};
    const std::vector<Node> fast = {recv(1, 2, 100, 1), comp(2, 1, {1})};
    const std::string prefix = write_traces("split", {sender_a, slow, sender_b, fast});
    const AstraRun run = run_files(prefix, 4, "empty");
    CHECK(run.trace.traces.shapes.size() == 3);
    CHECK(run.trace.graph.roles == 4);
    CHECK(run.ranks[1].finish_cycles == 6110);
    CHECK(run.ranks[3].finish_cycles == 2110);
}

TEST_CASE("a collective across roles waits for its last member") {
    // Three NPUs; NPU 0: compute 4 µs, then all-reduce on pg 1 = [0, 1]; NPU 1:
    // the all-reduce at once; NPU 2 idle. A group smaller than the network is a
    // ring of its own: 400 B, 1 chunk: 2 steps of m = 200 at floor(2 x 5 + 200)
    // = 210, 10 ns per message: 10 + 2 x 10 + 2 x 210 = 450 (reductions free).
    // Both end at 4000 + 450.
    const std::string groups = temp_path("pair.json");
    write_text(groups, "{\"1\": [0, 1]}");
    const std::string prefix = write_traces(
        "cross", {{comp(1, 4), collective(2, 0, 400, "1", {1})}, {collective(2, 0, 400, "1")}, {comp(1, 1)}});
    const AstraRun run = run_files(prefix, 3, groups);
    CHECK(run.trace.graph.roles == 3);
    CHECK(run.ranks[0].finish_cycles == 4450);
    CHECK(run.ranks[1].finish_cycles == 4450);
    CHECK(*run.ranks[1].comm_cycles == 4450);  // issued at 0
}

TEST_CASE("a group of every NPU runs the system's own algorithms") {
    // Two NPUs, pg 1 = [0, 1]: ASTRA-sim's global plan, ring with endpoint delay 1:
    // 2 steps of floor(10 + 200) plus (2 + 1) x 1 ns: 423. After the 4 µs: 4423.
    const std::string groups = temp_path("pair_all.json");
    write_text(groups, "{\"1\": [0, 1]}");
    const std::string prefix =
        write_traces("cross_all", {{comp(1, 4), collective(2, 0, 400, "1", {1})}, {collective(2, 0, 400, "1")}});
    const AstraRun run = run_files(prefix, 2, groups);
    CHECK(run.ranks[0].finish_cycles == 4423);
    CHECK(run.ranks[1].finish_cycles == 4423);
}

TEST_CASE("INVALID nodes take no time; their dependants wait for their dependencies") {
    Node invalid = make_node({2, INVALID_NODE, {1}, "nothing"});
    const std::string prefix = write_traces("invalid", {{comp(1, 2), invalid, comp(3, 1, {2})}});
    const AstraRun run = run_files(prefix, 1, "empty");
    CHECK(run.trace.graph.ops.size() == 2);
    CHECK(run.ranks[0].finish_cycles == 3000);
    CHECK(run.ranks[0].invalid_cycles == 0);
}

TEST_CASE("peak memory from the tensors the nodes name, by hand") {
    // A: reads w (50 B, never written: there from tick 0), writes t1 (100 B); 1 µs.
    // B after A: reads t1, writes t2 (200 B); 1 µs. C after B: reads t2; 1 µs.
    // A [0,1000], B [1000,2000], C [2000,3000].
    // Tick 0: w + t1 = 150. Tick 1000: t2 appears (350), w's last read ends (300).
    // Tick 2000: t1 dies (200). Tick 3000: t2 dies (0). Peak 300.
    auto with = [](Node n, std::vector<std::string> in, std::vector<std::string> out) {
        add_string_list_attr(n, "inputs", in);
        add_string_list_attr(n, "outputs", out);
        return n;
    };
    const std::string prefix = write_traces(
        "memory", {{with(comp(1, 1), {"w", "50", "t1z", "0"}, {"t1", "100.0"}), with(comp(2, 1, {1}), {"t1", "100"}, {"t2", "200"}),
                    with(comp(3, 1, {2}), {"t2", "200"}, {})}});
    const AstraRun run = run_files(prefix, 1, "empty", false, true);
    REQUIRE(run.ranks[0].peak_memory_bytes.has_value());
    CHECK(*run.ranks[0].peak_memory_bytes == 300);
}

TEST_CASE("checks of peers and groups, each naming the file and node") {
    SUBCASE("a send whose comm_src is another NPU") {
        Node s = send(4, 1, 10, 1);
        add_int32_attr(s, "comm_src", 1);
        const std::string prefix = write_traces("wrong_src", {{s}, {recv(4, 0, 10, 1)}});
        CHECK(error_of(prefix, 2, "empty") ==
              prefix + ".0.et: node 4: COMM_SEND_NODE has comm_src 1, but this is rank 0's trace (a node runs on the NPU "
                       "whose trace holds it)");
    }
    SUBCASE("a send to an NPU the network does not have") {
        const std::string prefix = write_traces("far_dst", {{send(4, 9, 10, 1)}, {comp(1, 1)}});
        CHECK(error_of(prefix, 2, "empty") == prefix + ".0.et: node 4: comm_dst 9 is not an NPU (the network has 2)");
    }
    SUBCASE("a send nobody receives") {
        const std::string prefix = write_traces("lonely", {{send(4, 1, 10, 1)}, {comp(1, 1)}});
        CHECK(error_of(prefix, 2, "empty") == prefix + ".0.et: node 4: send to rank 1 (comm_tag 1, comm_size 10) has no "
                                                       "matching COMM_RECV_NODE in " + prefix + ".1.et");
    }
    SUBCASE("a receive whose size differs from the send's") {
        const std::string prefix = write_traces("sizes", {{send(4, 1, 10, 1)}, {recv(4, 0, 11, 1)}});
        CHECK(error_of(prefix, 2, "empty") == prefix + ".0.et: node 4: send to rank 1 (comm_tag 1, comm_size 10) has no "
                                                       "matching COMM_RECV_NODE in " + prefix + ".1.et");
    }
    SUBCASE("a pg_name the comm-group file does not have") {
        const std::string groups = temp_path("groups_12.json");
        write_text(groups, "{\"1\": [0, 1]}");
        const std::string prefix = write_traces("nopg", {{collective(3, 0, 64, "5")}, {collective(3, 0, 64, "5")}});
        CHECK(error_of(prefix, 2, groups) == prefix + ".0.et: node 3: pg_name '5' is not a communicator in " + groups);
    }
    SUBCASE("a pg_name whose group leaves the NPU out") {
        const std::string groups = temp_path("groups_23.json");
        write_text(groups, "{\"1\": [1, 2]}");
        const std::string prefix = write_traces(
            "outside", {{collective(3, 0, 64, "1")}, {collective(3, 0, 64, "1")}, {collective(3, 0, 64, "1")}});
        CHECK(error_of(prefix, 3, groups) == prefix + ".0.et: node 3: pg_name '1' (" + groups + ") does not include rank 0");
    }
    SUBCASE("a collective type ASTRA-sim does not run") {
        const std::string prefix = write_traces("gather", {{collective(3, 3, 64, "")}});
        CHECK(error_of(prefix, 1, "empty") ==
              prefix + ".0.et: node 3: collective type GATHER is not supported (ASTRA-sim's system layer runs "
                       "ALL_REDUCE, REDUCE_SCATTER, ALL_GATHER, ALL_TO_ALL and BROADCAST only)");
    }
    SUBCASE("a collective without a counterpart on a member") {
        const std::string groups = temp_path("pair2.json");
        write_text(groups, "{\"1\": [0, 1]}");
        const std::string prefix =
            write_traces("lopsided", {{comp(1, 4), collective(2, 0, 64, "1", {1})}, {comp(1, 1)}});
        CHECK(error_of(prefix, 2, groups) == prefix + ".0.et: node 2: this collective has no counterpart in " + prefix +
                                                 ".1.et (the NPUs of a communicator must issue the same collectives on "
                                                 "it, in the same order)");
    }
}

TEST_CASE("comm-group files: ids, ranks and duplicates are checked") {
    const std::string path = temp_path("bad_groups.json");
    auto error = [&](const std::string& text) {
        write_text(path, text);
        try {
            load_comm_groups(path, 4);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(error("{\"0\": [0, 1]}") == path + ":1: 0: communicator ids are positive integers (\"0\" is reserved for all NPUs), got '0'");
    CHECK(error("{\"1\": [0, 7]}") == path + ":1: 1[1]: expected an NPU rank from 0 to 3 (the network has 4 NPUs)");
    CHECK(error("{\"1\": [2, 2]}") == path + ":1: 1[1]: rank 2 appears twice in the group");
    CHECK(error("{\"1\": []}") == path + ":1: 1: expected a non-empty list of NPU ranks");
    write_text(path, "{\"3\": [3, 1]}");
    const CommGroupTable t = load_comm_groups(path, 4);
    REQUIRE(t.groups.size() == 1);
    CHECK(t.groups[0].second == std::vector<int>{3, 1});  // file order kept: the ring's order
    CHECK(t.find("0").value() == nullptr);
    CHECK(t.find("").value() == nullptr);
    CHECK_FALSE(t.find("4").has_value());
}

TEST_CASE("a doubleBinaryTree all-reduce: each rank finishes at its own time, as ASTRA-sim prints") {
    // ASTRA-sim 518bd51 (validation/astrasim/reference_runs_2.csv): 8 NPUs on a
    // Switch, 400 GB/s, 936.25 ns, all-reduce of 1 MiB on doubleBinaryTree,
    // 4 splits, 2 active chunks, endpoint delay 10. Congestion-unaware (R0676):
    // sys[0] 29,772 cycles, the earliest rank 29,772, the latest 32,264;
    // congestion-aware (R0832): 39,522, 39,522 and 43,244. A workload of that
    // one collective on every NPU finishes each rank at its own time.
    const std::string configs = std::string(DTCALC_VALIDATION_DIR) + "/astrasim/configs/";
    std::vector<std::vector<Node>> ranks(8, std::vector<Node>{collective(1, 0, 1048576, "")});
    AstraRunFiles files;
    files.workload = write_traces("tree8", ranks);
    files.comm_groups = "empty";
    files.network = configs + "net_Switch_8_09d07a3c.yml";
    files.system = configs + "sys_doubleBinaryTree_s4_a2_e10_localBWAware_04b9c67c.json";
    files.threads = 1;
    struct Case {
        NetworkBackend backend;
        std::uint64_t sys0, first, last;
    };
    for (const Case c : {Case{NetworkBackend::AstraUnaware, 29772, 29772, 32264},
                         Case{NetworkBackend::AstraAware, 39522, 39522, 43244}}) {
        files.backend = c.backend;
        const AstraRun run = run_astra(files);
        REQUIRE(run.ranks.size() == 8);
        std::uint64_t first = UINT64_MAX, last = 0;
        for (const AstraRankStats& r : run.ranks) {
            first = std::min(first, r.finish_cycles);
            last = std::max(last, r.finish_cycles);
        }
        const auto rank0 = std::find_if(run.ranks.begin(), run.ranks.end(), [](const AstraRankStats& r) { return r.sys_id == 0; });
        REQUIRE(rank0 != run.ranks.end());
        CHECK(rank0->finish_cycles == c.sys0);
        CHECK(first == c.first);
        CHECK(last == c.last);
        CHECK(run.trace.graph.roles > 1);  // ranks that finish apart are not one role
    }
}
