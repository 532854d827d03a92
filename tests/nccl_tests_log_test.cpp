// Raw nccl-tests output: the files under tests/data/nccl-tests are the visible
// table's rows in the format nccl-tests prints (tests/data/README.md); reading
// them gives back the rows of validation/nccl/h100_nccl_tests.csv. Errors name
// the file and line.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "input_error.h"
#include "run_dtcalc.h"
#include "temp_file.h"
#include "validate/nccl_inputs.h"
#include "validate/nccl_tests_csv.h"
#include "validate/nccl_tests_log.h"
#include "nccl_tests_log_text.h"

using namespace dtcalc;
using dtcalc::testing::header;
using dtcalc::testing::kFooter;


namespace {

const std::string kLogs = std::string(DTCALC_TEST_DATA_DIR) + "/nccl-tests";
const std::string kCsv = std::string(DTCALC_VALIDATION_DIR) + "/nccl/h100_nccl_tests.csv";

using RowKey = std::tuple<int, int, int, std::uint64_t, double>;

std::vector<RowKey> keys(const std::vector<NcclMeasurement>& rows) {
    std::vector<RowKey> out;
    for (const NcclMeasurement& m : rows)
        out.emplace_back(static_cast<int>(m.kind), m.nodes, m.gpus_per_node, m.bytes, m.time_us);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("nccl-tests logs in nccl-tests' format give back the visible table's rows") {
    const std::vector<NcclMeasurement> from_logs = read_nccl_inputs({kLogs});
    const std::vector<NcclMeasurement> from_csv = read_nccl_tests_csv(kCsv);
    REQUIRE(from_logs.size() == 162);
    CHECK(keys(from_logs) == keys(from_csv));
    // The shapes come from the rank lines: 80 ranks on 10 hosts is 10 x 8.
    const auto ten_nodes = std::count_if(from_logs.begin(), from_logs.end(), [](const NcclMeasurement& m) {
        return m.nodes == 10 && m.gpus_per_node == 8;
    });
    CHECK(ten_nodes == 50);
    // Each row points at its line: nccl_N1_G8.log's first row is line 18
    // (2 version/start lines, the nThread line, '#', 'Using devices', 8 rank
    // lines, '#', and three header lines before it: 17 lines).
    const auto first = std::find_if(from_logs.begin(), from_logs.end(), [](const NcclMeasurement& m) {
        return m.where.file.ends_with("nccl_N1_G8.log");
    });
    REQUIRE(first != from_logs.end());
    CHECK(first->where.line == 18);
    CHECK(first->kind == CollectiveKind::AllReduce);
    CHECK(first->bytes == 33554432);
    CHECK(first->time_us == doctest::Approx(182.87));
}

TEST_CASE("the collective comes from the start line, else the file name, else a table only a reduce-scatter prints") {
    const std::string row_whole = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    // 1024 B of doubles on 2 ranks: a rank's share is 64 elements.
    const std::string row_share = "        1024            64    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    const std::string row_none = "        1024            64    double    none      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    CHECK(parse_nccl_tests_log(header("alltoall_perf") + row_none + kFooter, "x.log")[0].kind == CollectiveKind::AllToAll);
    CHECK(parse_nccl_tests_log(header("") + row_whole + kFooter, "logs/all_reduce_perf.out")[0].kind ==
          CollectiveKind::AllReduce);
    CHECK(parse_nccl_tests_log(header("") + row_whole + kFooter, "sendrecv-2x1.txt")[0].kind == CollectiveKind::SendRecv);
    CHECK(parse_nccl_tests_log(header("") + row_share + kFooter, "run.log")[0].kind == CollectiveKind::ReduceScatter);
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("") + row_whole + kFooter, "run.log"),
                      "run.log:2: cannot tell which collective this run measured: it has no '# Collective test "
                      "starting:' line (nccl-tests before 2.14 prints none), the file name names none, and its table "
                      "fits all_reduce_perf and sendrecv_perf alike; name the file after the program, e.g. "
                      "all_reduce_perf.log");
}

TEST_CASE("nodes and GPUs per node come from the rank lines or the flags") {
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    // 4 ranks on hostA and 4 on hostB: 2 nodes x 4.
    const auto two = parse_nccl_tests_log(header("all_reduce_perf", 4, 4) + row + kFooter, "x.log");
    CHECK(two[0].nodes == 2);
    CHECK(two[0].gpus_per_node == 4);
    // Without rank lines the flags say it.
    std::string bare = header("all_reduce_perf", 0) + row + kFooter;
    const auto given = parse_nccl_tests_log(bare, "x.log", {3, 2});
    CHECK(given[0].nodes == 3);
    CHECK(given[0].gpus_per_node == 2);
    CHECK_INPUT_ERROR(parse_nccl_tests_log(bare, "x.log"),
                      "x.log:3: the run lists no '#  Rank N Group N Pid N on HOST device N' lines to count nodes and "
                      "GPUs from; give --nodes and --gpus-per-node");
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("all_reduce_perf", 4, 4) + row + kFooter, "x.log", {1, std::nullopt}),
                      "--nodes: 1 disagrees with x.log:6, whose rank lines name 2 host(s)");
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("all_reduce_perf", 4, 2) + row + kFooter, "x.log"),
                      "x.log:6: the rank lines put 4 ranks on hostA but 6 ranks on 2 hosts cannot be as many on each; "
                      "dtcalc models nodes of equal GPU counts");
}

TEST_CASE("bad nccl-tests output: errors name the file and line") {
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    CHECK_INPUT_ERROR(parse_nccl_tests_log("size,time\n1024,10\n", "t.txt"),
                      "t.txt:1: not nccl-tests output: no '# nThread N nGpus N minBytes ...' header line, which "
                      "nccl-tests prints before each result table (nor a dataset CSV with 'collective' and "
                      "'size_bytes' columns)");
    // Line 13: a row with its time cut off.
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("all_reduce_perf") + "        1024           128    double     sum\n", "t.log"),
                      "t.log:12: expected an nccl-tests result row (size count type redop root time algbw busbw "
                      "#wrong ...) with 6 fields or more, got 4");
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("all_reduce_perf") + "        1024           128    double     sum      -1    fast\n", "t.log"),
                      "t.log:12: time: expected the out-of-place time in us, got 'fast'");
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("broadcast_perf") + row + kFooter, "t.log"),
                      "t.log:2: 'broadcast_perf': dtcalc prices all_reduce_perf, all_gather_perf, "
                      "reduce_scatter_perf, alltoall_perf and sendrecv_perf only; leave this run out");
    // 128 doubles are the whole 1024 B: an all-gather prints a rank's share.
    const std::string whole_none = "        1024           128    double    none      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("all_gather_perf") + whole_none + kFooter, "t.log"),
                      "t.log:12: count 128 of double (8 B each) does not fit size 1024 for all_gather_perf on 2 ranks "
                      "(nccl-tests prints size = count x type size x ranks)");
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("all_gather_perf") + row + kFooter, "t.log"),
                      "t.log:12: redop 'sum' does not fit all_gather_perf, which prints 'none'");
    const std::string columns = "#       size         count      type   redop    root     time   algbw   busbw  #wrong\n";
    CHECK_INPUT_ERROR(parse_nccl_tests_log("# a table pasted first\n" + columns + row + header("all_reduce_perf"), "t.log"),
                      "t.log:2: an nccl-tests result table before any '# nThread N nGpus N ...' header line");
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("all_reduce_perf") + kFooter, "t.log"),
                      "t.log:12: the all_reduce_perf run closed its table without a result row");
    // NCCL_DEBUG lines between rows are skipped.
    const auto rows = parse_nccl_tests_log(header("all_reduce_perf") + "hostA:1000:1000 [0] NCCL INFO Channel 00/16\n" +
                                               row + kFooter, "t.log");
    CHECK(rows.size() == 1);
    CHECK(rows[0].where.line == 13);
}

TEST_CASE("validate reads nccl-tests output as it reads the dataset CSV") {
    using dtcalc::testing::run_dtcalc;
    const auto logs = run_dtcalc("validate --dataset " + kLogs + " --preset h100-ib-ndr400 --format csv");
    const auto csv = run_dtcalc("validate --dataset " + kCsv + " --preset h100-ib-ndr400 --format csv");
    REQUIRE(logs.exit_code == 0);
    REQUIRE(csv.exit_code == 0);
    // The same predictions of the same 162 rows (in another order: files by name).
    CHECK(logs.out.find("all-reduce/8gpu/1node,32 MiB") != std::string::npos);
    CHECK(std::count(logs.out.begin(), logs.out.end(), '\n') == std::count(csv.out.begin(), csv.out.end(), '\n'));
    dtcalc::testing::check_errors({
        {"validate --dataset " + kLogs, "--preset: needed to predict the measurements in " + kLogs +
                                            " (a preset name or a .toml path)"},
        {"validate --dataset nccl-h100 --preset h100-ib-ndr400",
         "--preset: only for --dataset files and folders; the gates file names each dataset's preset"},
    });
}

TEST_CASE("NCCL_DEBUG=INFO lines state a run's NCCL_ALGO / NCCL_PROTO; its rows carry them") {
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    const std::string algo_a = "hostA:1000:1000 [0] NCCL INFO NCCL_ALGO set by environment to Ring\n";
    const std::string algo_b = "hostB:2000:2000 [0] NCCL INFO NCCL_ALGO set by environment to Ring\n";
    const std::string proto = "hostA:1000:1000 [0] NCCL INFO NCCL_PROTO set by environment to ^LL128\n";
    // Run 1: the lines after its header (every rank prints them); run 2 says
    // nothing: NCCL's own choice.
    const std::string first = header("all_reduce_perf", 1, 1);
    const std::string text = first + algo_a + algo_b + proto + row + kFooter + header("all_reduce_perf", 1, 1) + row +
                             kFooter;
    const auto rows = parse_nccl_tests_log(text, "f.log");
    REQUIRE(rows.size() == 2);
    NcclForce expected = NcclForce::only(NcclAlgorithm::Ring, std::nullopt);
    apply_nccl_proto(expected, "^LL128", {});
    CHECK(rows[0].force == expected);
    CHECK(rows[0].force_origin == "NCCL_ALGO=Ring at f.log:12, NCCL_PROTO=^LL128 at f.log:14");
    CHECK(rows[1].force.unset());
    // A line printed before the header (another rank's output ran ahead)
    // belongs to the run that follows.
    const auto ahead = parse_nccl_tests_log(algo_b + first + row + kFooter, "f.log");
    CHECK(ahead[0].force == NcclForce::only(NcclAlgorithm::Ring, std::nullopt));
    // Ranks that disagree, or a value NCCL rejects: errors at the line.
    CHECK_INPUT_ERROR(parse_nccl_tests_log(first + algo_a +
                                               "hostB:2000:2000 [0] NCCL INFO NCCL_ALGO set by environment to Tree\n" +
                                               row + kFooter,
                                           "f.log"),
                      "f.log:13: NCCL_ALGO set to 'Tree' here but to 'Ring' at line 12 for the same run");
    CHECK_INPUT_ERROR(parse_nccl_tests_log(first + "hostA:1:1 [0] NCCL INFO NCCL_ALGO set by environment to Rings\n" +
                                               row + kFooter,
                                           "f.log"),
                      "f.log:12: NCCL_ALGO: expected Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree or PAT "
                      "(a list, '^' first to exclude, 'allreduce:' for one collective), got 'Rings'");
}

TEST_CASE("NCCL_NVLS_ENABLE set by environment (an integer parameter, its line ends in a period) turns NVLS off") {
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    const std::string off = "hostA:1000:1000 [0] NCCL INFO NCCL_NVLS_ENABLE set by environment to 0.\n";
    const auto rows = parse_nccl_tests_log(header("all_reduce_perf", 2) + off + row + kFooter, "f.log");
    REQUIRE(rows.size() == 1);
    NcclForce expected;
    apply_nccl_algo(expected, "^nvls,nvlstree", {});
    CHECK(rows[0].force == expected);
    CHECK(rows[0].force_origin == "NCCL_NVLS_ENABLE=0 at f.log:12");
    // A dataset CSV: its own column, or the notes.
    const std::string csv = dtcalc::testing::write_temp_file(
        "nvls_enable.csv",
        "source_url,gpus,nodes,collective,size_bytes,time_us,nccl_nvls_enable,notes\n"
        "x,8,1,all_reduce_perf,1024,10,0,\n"
        "x,8,1,all_reduce_perf,1024,10,,run with NCCL_NVLS_ENABLE=0; 8 GPUs\n"
        "x,8,1,all_reduce_perf,1024,10,,\n");
    const auto from_csv = read_nccl_tests_csv(csv);
    REQUIRE(from_csv.size() == 3);
    CHECK(from_csv[0].force == expected);
    CHECK(from_csv[1].force == expected);
    CHECK(from_csv[2].force.unset());
}

TEST_CASE("NCCL settings dtcalc does not model are named beside the rows; logging and files are not") {
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    const std::string lines = "hostA:1:1 [0] NCCL INFO NCCL_BUFFSIZE set by environment to 8388608.\n"
                              "hostA:1:1 [1] NCCL INFO NCCL_BUFFSIZE set by environment to 8388608.\n"
                              "hostA:1:1 [0] NCCL INFO NCCL_IB_QPS_PER_CONNECTION set by environment to 4.\n"
                              "hostA:1:1 [0] NCCL INFO NCCL_TOPO_DUMP_FILE set by environment to /tmp/topo.xml\n"
                              "hostA:1:1 [0] NCCL INFO NCCL_IB_TIMEOUT set by environment to 22.\n"
                              "hostA:1:1 [0] NCCL INFO NCCL_ALGO set by environment to Ring\n";
    const auto rows = parse_nccl_tests_log(header("all_reduce_perf", 2) + lines + row + kFooter, "f.log");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].unmodelled_settings ==
          std::vector<std::string>{"NCCL_BUFFSIZE=8388608", "NCCL_IB_QPS_PER_CONNECTION=4"});
    CHECK(rows[0].force == NcclForce::only(NcclAlgorithm::Ring, std::nullopt));
    // validate says so in the group's notes.
    const std::string log = dtcalc::testing::write_temp_file("all_reduce_perf_settings.log",
                                                             header("all_reduce_perf", 2) + lines + row + kFooter);
    const auto r = dtcalc::testing::run_dtcalc("validate --dataset " + log + " --preset hgx-h100 --format json");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("the runs set NCCL_BUFFSIZE=8388608, NCCL_IB_QPS_PER_CONNECTION=4 (NCCL_DEBUG=INFO), which "
                     "dtcalc does not model: it predicts them as NCCL's defaults") != std::string::npos);
    CHECK(r.out.find("NCCL_IB_TIMEOUT") == std::string::npos);
}

TEST_CASE("validate predicts a forced run with the forced algorithm; --algo gives it for logs that do not say") {
    using dtcalc::testing::run_dtcalc;
    // 1 GiB all-reduce on 2 nodes x 8 H100: NCCL's own choice is NVLS-tree;
    // with NCCL_ALGO=Ring the prediction is the ring's.
    const std::string row = "  1073741824     134217728    double     sum      -1   5000.0  214.75  402.65       0   5000.0  214.75  402.65       0\n";
    std::string hosts;
    for (int node = 0; node < 2; ++node)
        for (int g = 0; g < 8; ++g)
            hosts += "#  Rank " + std::to_string(node * 8 + g) + " Group  0 Pid 1 on node" + std::to_string(node) +
                     " device  " + std::to_string(g) + " [0000:1b:00] NVIDIA H100 80GB HBM3\n";
    const std::string head = "# Collective test starting: all_reduce_perf\n# nThread 1 nGpus 1 minBytes 1 maxBytes 1 "
                             "step: 2(factor) warmup iters: 5 iters: 20\n# Using devices\n" + hosts +
                             "#       size         count      type   redop    root     time   algbw   busbw  #wrong     "
                             "time   algbw   busbw  #wrong\n";
    const std::string plain = dtcalc::testing::write_temp_file("nccl-force-plain.log", head + row + kFooter);
    const std::string forced = dtcalc::testing::write_temp_file(
        "nccl-force-ring.log", head + "node0:1:1 [0] NCCL INFO NCCL_ALGO set by environment to Ring\n" + row + kFooter);
    const std::string cmd = "validate --preset h100-ib-ndr400 --format csv --dataset ";
    const auto own = run_dtcalc(cmd + plain);
    const auto ring = run_dtcalc(cmd + forced);
    const auto flag = run_dtcalc(cmd + plain + " --algo ring");
    REQUIRE(own.exit_code == 0);
    REQUIRE(ring.exit_code == 0);
    REQUIRE(flag.exit_code == 0);
    CHECK(own.out.find("nvls-tree/Simple") != std::string::npos);
    CHECK(ring.out.find("ring/Simple") != std::string::npos);
    CHECK(flag.out.find("ring/Simple") != std::string::npos);
    dtcalc::testing::check_errors({
        {cmd + forced + " --algo tree",
         forced + ":22: the run states its own NCCL_ALGO / NCCL_PROTO (NCCL_ALGO=Ring at " + forced +
             ":21) and they differ from the algorithm / protocol forced for the dataset; give one or the other"},
        {"validate --dataset nccl-h100 --algo ring",
         "--algo: only for --dataset files and folders; the gates file sets each dataset's algorithm and protocol"},
    });
}

TEST_CASE("a dataset CSV states NCCL_ALGO / NCCL_PROTO in nccl_algo / nccl_proto, or in its notes") {
    const std::string head = "source_url,gpus,nodes,collective,size_bytes,time_us,nccl_algo,nccl_proto,notes\n";
    const std::string path = dtcalc::testing::write_temp_file(
        "nccl-force.csv", head + "u,16,2,all_reduce_perf,1024,10,Ring,,\n"
                                 "u,16,2,all_reduce_perf,1024,10,,,\"forced; NCCL_ALGO=Tree NCCL_PROTO=LL128; x\"\n"
                                 "u,16,2,all_reduce_perf,1024,10,,,default choice\n");
    const auto rows = read_nccl_tests_csv(path);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].force == NcclForce::only(NcclAlgorithm::Ring, std::nullopt));
    CHECK(rows[0].force_origin == "NCCL_ALGO=Ring at " + path + ":2");
    CHECK(rows[1].force == NcclForce::only(NcclAlgorithm::Tree, NcclProtocol::LL128));
    CHECK(rows[2].force.unset());
    const std::string bad = dtcalc::testing::write_temp_file(
        "nccl-force-bad.csv", head + "u,16,2,all_reduce_perf,1024,10,Ring,,NCCL_ALGO=Tree\n");
    CHECK_INPUT_ERROR(read_nccl_tests_csv(bad), bad + ":2: nccl_algo: 'Ring' but the notes say NCCL_ALGO=Tree");
    const std::string unknown = dtcalc::testing::write_temp_file(
        "nccl-force-unknown.csv", head + "u,16,2,all_reduce_perf,1024,10,,LL64,\n");
    CHECK_INPUT_ERROR(read_nccl_tests_csv(unknown),
                      unknown + ":2: nccl_proto: expected LL, LL128 or Simple (a list, '^' first to exclude, "
                                "'allreduce:' for one collective), got 'LL64'");
}

TEST_CASE("NCCL_DEBUG_SUBSYS=TUNING lines name NCCL's own choice per size; validate sets it beside dtcalc's") {
    using dtcalc::testing::run_dtcalc;
    std::string hosts;
    for (int node = 0; node < 2; ++node)
        for (int g = 0; g < 8; ++g)
            hosts += "#  Rank " + std::to_string(node * 8 + g) + " Group  0 Pid 1 on node" + std::to_string(node) +
                     " device  " + std::to_string(g) + " [0000:1b:00] NVIDIA H100 80GB HBM3\n";
    auto run = [&](const std::string& program, const std::string& tuning, const std::string& row) {
        return "# Collective test starting: " + program + "\n# nThread 1 nGpus 1 minBytes 1 maxBytes 1 step: 2(factor)\n" +
               hosts +
               "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   "
               "busbw  #wrong\n" +
               tuning + tuning + row + kFooter;
    };
    // 1 GiB on 2 nodes x 8: NCCL prints the bytes of count x type, a rank's
    // share for all-gather (1 GiB / 16 = 64 MiB); rank 0 prints one line per call.
    const std::string ar_row = "  1073741824     134217728    double     sum      -1   5000.0  214.75  402.65       0   5000.0  214.75  402.65       0\n";
    const std::string ag_row = "  1073741824       8388608    double    none      -1   5000.0  214.75  201.33       0   5000.0  214.75  201.33       0\n";
    const std::string text =
        run("all_reduce_perf",
            "node0:1:1 [0] NCCL INFO AllReduce: 1073741824 Bytes -> Algo TREE proto LL128 channel{Lo..Hi}={0..15}\n",
            ar_row) +
        run("all_gather_perf",
            "node0:1:1 [0] NCCL INFO AllGather: 67108864 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..15}\n",
            ag_row);
    const auto rows = parse_nccl_tests_log(text, "t.log");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].nccl_ran == "tree/LL128");
    CHECK(rows[0].nccl_ran_channels == 16);
    CHECK(rows[1].nccl_ran == "ring/Simple");
    // dtcalc picks NVLS-tree for the all-reduce (NCCL_ALGO unset) and the ring
    // on 16 channels for the all-gather.
    const std::string path = dtcalc::testing::write_temp_file("nccl-tuning.log", text);
    const auto r = run_dtcalc("validate --preset h100-ib-ndr400 --format json --dataset " + path);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("\"model\": \"nvls-tree/Simple\", \"measured_model\": \"tree/LL128\"") != std::string::npos);
    CHECK(r.out.find("NCCL's log names its choice at 1 size(s): dtcalc makes the same at 0 (0 on as many channels); "
                     "first difference at 1 GiB NCCL ran tree/LL128 on 16 channels, dtcalc chose nvls-tree/Simple") !=
          std::string::npos);
    CHECK(r.out.find("NCCL's log names its choice at 1 size(s): dtcalc makes the same at 1 (1 on as many channels)") !=
          std::string::npos);
}

TEST_CASE("a run where one thread drove several GPUs says how many (nGpus, nccl-tests -g)") {
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    // One process per GPU: nGpus 1.
    CHECK(parse_nccl_tests_log(header("all_reduce_perf", 4) + row + kFooter, "x.log")[0].gpus_per_thread == 1);
    // One thread driving the 4 GPUs: nGpus 4 on the header line.
    std::string one_thread = header("all_reduce_perf", 4) + row + kFooter;
    const std::string from = "# nThread 1 nGpus 1 ";
    one_thread.replace(one_thread.find(from), from.size(), "# nThread 1 nGpus 4 ");
    const auto rows = parse_nccl_tests_log(one_thread, "x.log");
    CHECK(rows[0].gpus_per_thread == 4);
    CHECK(rows[0].gpus_per_node == 4);
    // A count that is not a whole number: an error at the header line (line 3,
    // after the version and start lines).
    std::string bad = header("all_reduce_perf", 4) + row + kFooter;
    bad.replace(bad.find(from), from.size(), "# nThread 1 nGpus x4 ");
    CHECK_INPUT_ERROR(parse_nccl_tests_log(bad, "x.log"),
                      "x.log:3: expected a whole number of GPUs of at least 1 after 'nGpus', got 'x4'");
}

TEST_CASE("nccl-tests' timed operations: the header's iters, times its CUDA graph launches") {
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    const std::string log = header("sendrecv_perf", 2) + row + kFooter;
    CHECK(parse_nccl_tests_log(log, "x.log")[0].timed_operations == 20);
    const std::string from = "iters: 20 agg iters: 1 validation: 1 graph: 0";
    std::string fifty = log;
    fifty.replace(fifty.find(from), from.size(), "iters: 50 agg iters: 4 validation: 1 graph: 0");
    CHECK(parse_nccl_tests_log(fifty, "x.log")[0].timed_operations == 50);  // agg iters fuse into one launch
    std::string graphs = log;
    graphs.replace(graphs.find(from), from.size(), "iters: 20 agg iters: 1 validation: 1 graph: 3");
    CHECK(parse_nccl_tests_log(graphs, "x.log")[0].timed_operations == 60);
    std::string old = log;  // a header without the fields: nccl-tests' default -n
    old.replace(old.find(from), from.size(), "validation: 1");
    CHECK(parse_nccl_tests_log(old, "x.log")[0].timed_operations == 20);
    std::string bad = log;
    bad.replace(bad.find(from), from.size(), "iters: 0 agg iters: 1 validation: 1 graph: 0");
    CHECK_INPUT_ERROR(parse_nccl_tests_log(bad, "x.log"),
                      "x.log:3: expected a whole number of at least 1 after 'iters:', got '0'");
}

TEST_CASE("a dataset CSV states nccl-tests' iteration count in an optional iters column") {
    const std::string head = "source_url,gpus,nodes,collective,size_bytes,time_us,iters\n";
    const std::string path = dtcalc::testing::write_temp_file(
        "nccl-iters.csv", head + "u,16,2,sendrecv_perf,1024,10,50\n");
    CHECK(read_nccl_tests_csv(path)[0].timed_operations == 50);
    const std::string without = dtcalc::testing::write_temp_file(
        "nccl-no-iters.csv", "source_url,gpus,nodes,collective,size_bytes,time_us\nu,16,2,sendrecv_perf,1024,10\n");
    CHECK(read_nccl_tests_csv(without)[0].timed_operations == 20);  // nccl-tests' default -n
    const std::string bad = dtcalc::testing::write_temp_file(
        "nccl-iters-bad.csv", head + "u,16,2,sendrecv_perf,1024,10,0\n");
    CHECK_INPUT_ERROR(read_nccl_tests_csv(bad),
                      bad + ":2: iters: expected nccl-tests' iteration count (-n), a whole number from 1, got 0");
}
