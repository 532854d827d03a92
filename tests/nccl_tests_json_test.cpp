// nccl-tests' JSON output (-J FILE.json): the files under
// tests/data/nccl-tests-json hold rows of tests/data/nccl-tests/nccl_N1_G8.log
// as nccl-tests writes them in JSON (tests/data/README.md); read, they give
// the text log's rows. Errors name the file and the key.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "input_error.h"
#include "validate/nccl_inputs.h"
#include "validate/nccl_tests_json.h"
#include "validate/nccl_tests_log.h"
#include "validate/nccl_tests_programs.h"

using namespace dtcalc;


namespace {

const std::string kJson = std::string(DTCALC_TEST_DATA_DIR) + "/nccl-tests-json";
const std::string kLog = std::string(DTCALC_TEST_DATA_DIR) + "/nccl-tests/nccl_N1_G8.log";

// A run as nccl-tests -J writes it, its results and other members spliced in.
std::string document(const std::string& results, const std::string& more = "") {
    return R"({"version": 3, "args": ["./build/all_reduce_perf", "-b", "1K"], "env": ["HOME=/root"],)" + more +
           R"( "config": {"nthreads": 1, "ngpus": 1, "iterations": 20, "graph": 0,
   "devices": [{"rank": 0, "hostname": "hostA"}, {"rank": 1, "hostname": "hostA"}]},
 "results": [)" + results + "]}\n";
}

const std::string kResult =
    R"({"size": 1024, "count": 128, "type": "double", "redop": "sum", "root": "    -1",
       "out_of_place": {"time": 10.5, "alg_bw": 0.1, "bus_bw": 0.1, "nwrong": null}, "in_place": null})";

}  // namespace

TEST_CASE("nccl-tests' JSON output gives the rows its text output does") {
    const std::vector<NcclMeasurement> from_json = read_nccl_inputs({kJson + "/all_reduce_N1_G8.json"});
    std::vector<NcclMeasurement> from_log = read_nccl_inputs({kLog});
    // The JSON file holds the text's first run's first three sizes.
    from_log.resize(3);
    REQUIRE(from_json.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK(from_json[i].kind == from_log[i].kind);
        CHECK(from_json[i].nodes == 1);
        CHECK(from_json[i].gpus_per_node == 8);
        CHECK(from_json[i].bytes == from_log[i].bytes);
        CHECK(from_json[i].time_us == from_log[i].time_us);
        CHECK(from_json[i].timed_operations == 20);
        CHECK(from_json[i].gpus_per_thread == 1);
        CHECK(from_json[i].where.key == "results[" + std::to_string(i) + "]");
    }
    // One process driving all 8 GPUs (-g 8) lists one device: its 8 ranks
    // are on that host.
    const auto one_process = read_nccl_inputs({kJson + "/all_reduce_N1_G8_one_process.json"});
    REQUIRE(one_process.size() == 3);
    CHECK(one_process[0].nodes == 1);
    CHECK(one_process[0].gpus_per_node == 8);
    CHECK(one_process[0].gpus_per_thread == 8);
}

TEST_CASE("nccl-tests' JSON: the program, the hosts, the settings and the iterations as the run wrote them") {
    // Two processes on two hosts, each driving 2 GPUs (-g 2): 2 x 2.
    const std::string two_hosts = R"({"args": ["all_gather_perf_mpi"], "env": ["NCCL_ALGO=Ring", "NCCL_PROTO=Simple"],
 "config": {"nthreads": 1, "ngpus": 2, "iterations": 10, "graph": 3,
   "devices": [{"hostname": "hostA"}, {"hostname": "hostB"}]},
 "results": [{"size": 4096, "count": 128, "type": "double", "redop": "none", "root": -1,
              "out_of_place": {"cpu_time": 12.0}}]})";
    const NcclTestsLog log = parse_nccl_tests_json(two_hosts, "x.json");
    REQUIRE(log.rows.size() == 1);
    const NcclMeasurement& m = log.rows[0];
    CHECK(m.kind == CollectiveKind::AllGather);
    CHECK(m.nodes == 2);
    CHECK(m.gpus_per_node == 2);
    CHECK(m.gpus_per_thread == 2);
    CHECK(m.timed_operations == 30);  // 10 iterations x 3 graph launches
    CHECK(m.time_us == 12.0);
    CHECK(m.force_origin == "NCCL_ALGO=Ring at x.json (env[0]), NCCL_PROTO=Simple at x.json (env[1])");
    CHECK(m.source == "x.json results[0]");
    bool priced = false;
    CHECK(program_collective("all_reduce_perf_mpi", &priced) == CollectiveKind::AllReduce);
    CHECK(program_collective("/opt/nccl-tests/build/sendrecv_perf", &priced) == CollectiveKind::SendRecv);
    // Unknown members are left alone; looks_like_json sees the opening brace.
    CHECK(parse_nccl_tests_json(document(kResult, R"( "a_future_member": {"x": [1, null]},)"), "y.json").rows.size() == 1);
    CHECK(looks_like_json("\n  {\"results\": []}"));
    CHECK_FALSE(looks_like_json("# nThread 1 nGpus 1"));
}

TEST_CASE("bad nccl-tests JSON: errors name the file and the key") {
    CHECK_INPUT_ERROR(parse_nccl_tests_json("{\"config\": {}}", "j.json"),
                      "j.json: not nccl-tests JSON output: no 'results' list, which nccl-tests -J writes (nor "
                      "nccl-tests' text output, nor a dataset CSV with 'collective' and 'size_bytes' columns)");
    // Cut short, as a run stopped part way leaves it: the line where it stops
    // (after two line breaks, line 3).
    CHECK_INPUT_ERROR(parse_nccl_tests_json("{\"results\": [\n{\"size\": 1024,\n", "j.json"),
                      "j.json:3: invalid JSON: parse error at line 3, column 1: syntax error while parsing object "
                      "key - unexpected end of input; expected string literal");
    CHECK_INPUT_ERROR(parse_nccl_tests_json(document(kResult + R"(, {"size": "1K", "out_of_place": {"time": 1}})"), "j.json"),
                      "j.json: results[1].size: expected the size in bytes (a whole number of at least 0), got a string");
    CHECK_INPUT_ERROR(parse_nccl_tests_json(document(R"({"size": 1024, "out_of_place": null})"), "j.json"),
                      "j.json: results[0].out_of_place: null: nccl-tests timed this size in place only (trace "
                      "replay); dtcalc reads the out-of-place time");
    CHECK_INPUT_ERROR(parse_nccl_tests_json(document(R"({"size": 1024, "out_of_place": {"time": 0}})"), "j.json"),
                      "j.json: results[0].out_of_place.time: expected the out-of-place time in us (> 0), got 0");
    CHECK_INPUT_ERROR(parse_nccl_tests_json(document(R"({"size": 1024})"), "j.json"),
                      "j.json: results[0]: missing 'out_of_place', the out-of-place time dtcalc reads");
    // The shared checks (nccl_tests_run.h) name the key too.
    CHECK_INPUT_ERROR(parse_nccl_tests_json(document(R"({"size": 1000, "count": 128, "type": "double", "redop": "sum",
                                                       "out_of_place": {"time": 1}})"), "j.json"),
                      "j.json: results[0]: count 128 of double (8 B each) does not fit size 1000 for all_reduce_perf on "
                      "2 ranks (nccl-tests prints size = count x type size)");
    CHECK_INPUT_ERROR(parse_nccl_tests_json(document(kResult, R"( "env": ["NCCL_ALGO=Trie"],)"), "j.json"),
                      "j.json: env[0]: expected Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree or PAT (a list, "
                      "'^' first to exclude, 'allreduce:' for one collective), got 'Trie'");
    CHECK_INPUT_ERROR(parse_nccl_tests_json(R"({"results": [], "config": {"devices": [{"rank": 0}]}})", "j.json"),
                      "j.json: config.devices[0]: missing 'hostname'");
    CHECK_INPUT_ERROR(parse_nccl_tests_json(R"({"args": ["broadcast_perf"], "results": [{"size": 8, "out_of_place": {"time": 1}}],
                                              "config": {"devices": [{"hostname": "a"}]}})", "j.json"),
                      "j.json: args[0]: 'broadcast_perf': dtcalc prices all_reduce_perf, all_gather_perf, "
                      "reduce_scatter_perf, alltoall_perf and sendrecv_perf only; leave this run out");
}
