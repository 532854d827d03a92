// Error messages of the command line: every flag and subcommand check, run
// through the binary. Each case exits 2 and prints exactly one line,
// "dtcalc: error: WHERE: WHAT", naming the flag (or file) and saying what was
// expected and what was given. Expected texts are written from the flags'
// documented values, never copied from a run.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "run_dtcalc.h"
#include "temp_file.h"

using dtcalc::testing::ErrorCase;
using dtcalc::testing::Run;
using dtcalc::testing::check_errors;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

// For messages that hold text dtcalc does not write itself (a parser's words,
// a list of files found): one line, the prefix, and the part dtcalc writes.
void check_containing(const std::string& args, const std::string& fragment) {
    CAPTURE(args);
    const Run r = run_dtcalc(args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.starts_with("dtcalc: error: "));
    CHECK(r.out.find('\n') == r.out.size() - 1);
    CHECK(r.out.find(fragment) != std::string::npos);
}

const std::string kNoDir = "/nonexistent-dtcalc-dir";

std::string network_yaml() {
    return write_temp_file("errmsg-cli-net.yml", "topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 400 ]\nlatency: [ 10 ]\n");
}

std::string system_json() {
    return write_temp_file("errmsg-cli-sys.json",
                           R"({"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
                               "preferred-dataset-splits": 1, "all-reduce-implementation": ["ring"],
                               "all-gather-implementation": ["ring"], "reduce-scatter-implementation": ["ring"],
                               "all-to-all-implementation": ["ring"], "collective-optimization": "baseline",
                               "local-mem-bw": 1000})");
}

std::string mnk_csv() { return write_temp_file("errmsg-cli-mnk.csv", "Layer,m,n,k\nfc1,1024,768,512\nfc2,1024,768,512\n"); }

std::string dlrm_workload() { return std::string(DTCALC_VALIDATION_DIR) + "/workloads/DLRM_HybridParallel.txt"; }

std::string astra_flags() {
    const std::string d = std::string(DTCALC_VALIDATION_DIR) + "/chakra";
    return "--workload-configuration " + d + "/sanity_16npu/workload --comm-group-configuration " + d +
           "/sanity_16npu/comm_group.json --system-configuration " + d + "/system_system_16.json --network-configuration " +
           d + "/network_system_16.yml ";
}

}  // namespace

TEST_CASE("error message: choosing the system (--preset, --network, --system, --backend)") {
    const std::string net = network_yaml(), sys = system_json();
    const std::string head = "collective all-reduce --size 1MiB ";
    check_errors({
        {head + "--preset hgx-h100 --network " + net, "--preset: give either a preset or a network and a system, not both"},
        {head + "--system " + sys, "--network: missing: a system file needs a network file too"},
        {head, "--preset: missing: give a preset, or a network file and a system file"},
        {head + "--preset hgx-h100 --backend fast", "--backend: expected astra-unaware, astra-aware or nccl, got 'fast'"},
        {head + "--preset lab-system1 --backend nccl",
         "--backend: nccl needs a preset with an [nccl] table (e.g. hgx-h100, dgx-a100, h100-ib-ndr400, a100-ib-hdr200)"},
    });
}

TEST_CASE("error message: collective flags") {
    const std::string head = "collective all-reduce --size 1MiB ";
    check_errors({
        {head + "--preset lab-system1 --algo ring", "--algo: applies to the nccl backend only (this system uses astra-unaware)"},
        {head + "--preset lab-system1 --proto LL", "--proto: applies to the nccl backend only (this system uses astra-unaware)"},
        {head + "--preset hgx-h100 --algo fast", "--algo: expected Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree or PAT (a list, '^' first to "
                                                  "exclude, 'allreduce:' for one collective), got 'fast'"},
        {head + "--preset hgx-h100 --proto LL64", "--proto: expected LL, LL128 or Simple (a list, '^' first to exclude, 'allreduce:' for one "
                                                  "collective), got 'LL64'"},
        {head + "--preset hgx-h100 --format xml", "--format: expected table, csv or json, got 'xml'"},
        {head + "--preset hgx-h100 --units hours", "--units: expected us, ns, ms, s or cycles, got 'hours'"},
        {head + "--preset h100-ib-ndr400 --npus 8 --nodes 2", "--npus: give either --npus or --nodes/--gpus-per-node, not both"},
        // 0 and below stood for "the whole network" and were accepted without a word.
        {head + "--preset hgx-h100 --npus 0", "--npus: must be at least 1 (got 0)"},
        // About 3.5e7 sizes: the output silently stopped after the first 4096.
        {"collective all-reduce --preset hgx-h100 --size 1B:1PiB:x1.000001",
         "--size: expected a size like 1048576, 1MiB or 4KB, or a range like 1KiB:1GiB of at most 4096 sizes, got "
         "'1B:1PiB:x1.000001'"},
    });
}

TEST_CASE("error message: cluster shape flags") {
    const std::string head = "predict --model gpt2 ";
    check_errors({
        {head + "--preset h100-ib-ndr400 --gpus-per-node 0", "--gpus-per-node: expected an integer from 1 to 16777216, got '0'"},
        {head + "--preset h100-ib-ndr400 --nodes 0", "--nodes: expected an integer from 1 to 16777216, got '0'"},
        {head + "--preset hgx-h100 --nodes 2",
         "--nodes: this system has one network dimension, so one node; use a multi-node preset (e.g. h100-ib-ndr400)"},
    });
}

TEST_CASE("error message: configuration files the readers refuse") {
    const std::string net = network_yaml();
    const std::string dir = (std::filesystem::temp_directory_path() / "dtcalc-tests" / "errmsg-cli-dir.json").string();
    std::filesystem::create_directories(dir);
    const std::string overflow = write_temp_file("errmsg-cli-overflow.json", "{\"local-mem-bw\": 1e400}\n");
    const std::string deep = write_temp_file("errmsg-cli-deep.json", "{\"a\": " + std::string(100000, '[') +
                                                                          std::string(100000, ']') + "}\n");
    const std::string head = "collective all-reduce --size 1MiB --network " + net + " --system ";
    check_errors({
        // A directory read as an empty file ("file is empty").
        {head + dir, dir + ": is a directory, not a file"},
        // nlohmann's out_of_range escaped: "internal error", exit code 70.
        {head + overflow, overflow + ":1: invalid JSON: number overflow parsing '1e400'"},
    });
    // 100,000 nested lists overflowed the stack (SIGSEGV).
    check_containing(head + deep, deep + ":1: a[0]");
    check_containing(head + deep, "]: nested more than 256 lists or objects deep\n");
}

TEST_CASE("error message: predict flags") {
    const std::string head = "predict --model gpt3-175b --preset hgx-h100 ";
    check_errors({
        {"predict --preset hgx-h100", "--model: missing: give a model name or .toml path (see `dtcalc list`)"},
        {head + "--schedule zb", "--schedule: expected gpipe, 1f1b or interleaved, got 'zb'"},
        {head + "--recompute some", "--recompute: expected none, selective or full, got 'some'"},
        {head + "--precision fp4", "--precision: expected bf16 or fp8, got 'fp4'"},
        {head + "--order tp,dp", "--order: expected the five axes tp, cp, ep, dp, pp once each, innermost first, got 'tp,dp'"},
        {head + "--memory-limit lots", "--memory-limit: expected a memory size with its unit: 80GiB (80 x 2^30 bytes) or 80GB (80 x 10^9 bytes), got 'lots'"},
        {head + "--memory-limit 0", "--memory-limit: expected a memory size with its unit: 80GiB (80 x 2^30 bytes) or 80GB (80 x 10^9 bytes), got '0'"},
        // A memory size needs its unit: 80GiB = 80 x 2^30 bytes, 80GB = 80 x 10^9.
        {head + "--memory-limit 80", "--memory-limit: expected a memory size with its unit: 80GiB (80 x 2^30 bytes) or 80GB (80 x 10^9 bytes), got '80'"},
        {head + "--memory-limit 96G", "--memory-limit: expected a memory size with its unit: 96GiB (96 x 2^30 bytes) or 96GB (96 x 10^9 bytes), got '96G'"},
        // 0 and below stood for "the default" and were ignored without a word.
        {head + "--gbs=-5", "--gbs: expected a positive integer, got '-5'"},
        {head + "--seq 0", "--seq: expected a positive integer, got '0'"},
        // dp defaults to 8 / 3 = 2.
        {head + "--tp 3", "plan: dp x tp x pp x cp (2 x 3 x 1 x 1 = 6) must equal the NPU count (8)"},
        // 10^8 sequences on dp 8 x mbs 1: the step ran out of memory, and above 2^31
        // micro-batches it wrapped into a nonsense message about a missing op.
        {head + "--gbs 100000000",
         "plan: the global batch (100000000) makes 12500000 micro-batches through pp x vpp = 1 pipeline chunks, more "
         "than 1000000 micro-batch passes (use a smaller gbs or a larger mbs)"},
        {"predict --model gpt2 --preset hgx-h100 --trace " + kNoDir + "/t.json", "--trace: cannot write '" + kNoDir + "/t.json'"},
        {"predict --model gpt2 --preset hgx-h100 --layers " + kNoDir + "/l.csv", "--layers: cannot write '" + kNoDir + "/l.csv'"},
    });
    // pp x vpp = 2^32 wrapped to 0 and divided the layer count: SIGFPE.
    check_containing(head + "--pp 65536 --vpp 65536", "layers (96) must be divisible by pp x vpp (4294967296)");
    check_containing("predict --model no-such-model --preset hgx-h100", "--model: no model named 'no-such-model' (known: ");
}

TEST_CASE("error message: export-chakra flags") {
    const std::string out = "--output " + (std::filesystem::temp_directory_path() / "dtcalc-tests" / "errmsg-cli-trace").string();
    const std::string w = dlrm_workload();
    check_errors({
        {"export-chakra " + w + " --model gpt2 " + out, "--model: give either a WORKLOAD file or --model, not both"},
        {"export-chakra " + out, "WORKLOAD: missing: give an ASTRA-sim 1.0 text workload, or --model with a plan"},
        {"export-chakra " + w + " --preset lab-system1 --passes 0 " + out, "--passes: expected 1 to 1000, got 0"},
        {"export-chakra --model gpt3-175b --preset hgx-h100 --tp 3 " + out,
         "plan: dp x tp x pp x cp (2 x 3 x 1 x 1 = 6) must equal the NPU count (8)"},
        {"export-chakra " + w + " --preset lab-system1 --output ''", "--output: missing: the trace prefix to write (PREFIX.<rank>.et)"},
    });
}

TEST_CASE("error message: gen-workload flags") {
    const std::string head = "gen-workload --mnk " + mnk_csv() + " ";
    check_errors({
        {head + "--npus 4 --array 32x32 --dataflow xs", "--dataflow: expected ws, os or is, got 'xs'"},
        {head + "--npus 4 --array 32x32 --sram-kib 1,2",
         "--sram-kib: expected three sizes in KiB, ifmap,filter,ofmap, like 1024,1024,128, got '1,2'"},
        {head + "--npus 4 --array 32x32 --passes 0", "--passes: expected 1 to 1000000, got 0"},
        {head, "--preset: missing: give --preset (or --network and --system) for roofline compute, or --array ROWSxCOLS for a "
               "systolic array"},
        {head + "--preset hgx-h100 --npus 4", "--npus: 4, but the network has 8 NPUs (leave --npus out to use them all)"},
        {head + "--array 32x32", "--npus: missing: how many NPUs (or give a system with --preset)"},
        {head + "--array 32x32 --npus 4 --output " + kNoDir + "/w.txt", "--output: cannot write '" + kNoDir + "/w.txt'"},
        // Two GEMMs for 600,000 passes: the graph would hold 1,200,000 layer passes.
        {head + "--preset lab-system1 --evaluate --passes 600000",
         "--passes: expected at most 1000000 layer passes (passes x layers), got 600000 x 2 = 1200000"},
    });
}

TEST_CASE("error message: gen-workload packages whose model-parallel group is no block of the network") {
    // 4 x 3 NPUs; HYBRID_DATA_MODEL on 2 packages makes model-parallel groups of 6,
    // which neither fit in the first dimension nor fill whole ones.
    const std::string net = write_temp_file("errmsg-cli-net43.yml",
                                            "topology: [ Ring, Ring ]\nnpus_count: [ 4, 3 ]\nbandwidth: [ 100, 100 ]\nlatency: [ 10, 10 ]\n");
    const std::string sys = write_temp_file(
        "errmsg-cli-sys2.json",
        R"({"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
            "preferred-dataset-splits": 1, "all-reduce-implementation": ["ring", "ring"],
            "all-gather-implementation": ["ring", "ring"], "reduce-scatter-implementation": ["ring", "ring"],
            "all-to-all-implementation": ["ring", "ring"], "collective-optimization": "baseline", "local-mem-bw": 1000,
            "peak-perf": 100})");
    check_errors({
        {"gen-workload --mnk " + mnk_csv() + " --network " + net + " --system " + sys +
             " --parallel HYBRID_DATA_MODEL --packages 2 --evaluate",
         "--packages: 6 NPUs do not form a block of the network's dimensions (a group must fill whole inner dimensions; "
         "try a multiple of 4)"},
    });
}

TEST_CASE("error message: run flags") {
    const std::string head = "run " + dlrm_workload() + " --preset lab-system1 ";
    check_errors({
        {head + "--passes 0", "--passes: expected 1 to 1000000, got 0"},
        {head + "--layers " + kNoDir + "/l.csv", "--layers: cannot write '" + kNoDir + "/l.csv'"},
        {head + "--trace " + kNoDir + "/t.json", "--trace: cannot write '" + kNoDir + "/t.json'"},
        // The workload declares 8 layers; 200,000 passes ran out of memory.
        {head + "--passes 200000", "--passes: expected at most 1000000 layer passes (passes x layers), got 200000 x 8 = 1600000"},
    });
}

TEST_CASE("error message: list and route arguments") {
    check_errors({
        {"list things", "WHAT: expected models, presets, gpus, nics, frameworks or all, got 'things'"},
        {"route 0 1 --preset lab-mesh-4x4 --format xml", "--format: expected table or json, got 'xml'"},
        {"route 0 1 --preset lab-mesh-4x4 --network " + network_yaml(), "--preset: give either --preset or --network, not both"},
    });
}

TEST_CASE("error message: sweep flags") {
    const std::string head = "sweep --model gpt2 --preset hgx-h100 --quiet ";
    const std::string rows = write_temp_file("errmsg-cli-rows.csv", "tp,dp\n1,8\n");
    check_errors({
        {head + "--objective speed",
         "--objective: expected time, tokens_per_s, tokens_per_s_per_gpu, mfu, memory or cost, got 'speed'"},
        {head + "--top 0", "--top: expected a positive count, got 0"},
        {head + "--output " + kNoDir + "/rows.csv", "--output: cannot write '" + kNoDir + "/rows.csv'"},
        {head + "--output /dev/full", "/dev/full: writing the rows failed (disk full?)"},
        {head + "--threads=-1", "--threads: expected 0 (every core) to 1024, got -1"},
        // Every worker's scratch is allocated up front: 2e9 workers ran out of memory.
        {head + "--threads 2000000000", "--threads: expected 0 (every core) to 1024, got 2000000000"},
        {head + "--format xml", "--format: expected csv or jsonl, got 'xml'"},
        {head + "--tp 1,2,4 --max-points 2",
         "--max-points: the sweep has 3 points, more than the 2 allowed (narrow the ranges or raise --max-points)"},
        {head + "--input " + rows + " --shard 1/2", "--shard: shards split a sweep's points; split the rows of --input instead"},
    });
}

TEST_CASE("error message: a batch sweep with unreadable rows ends with their count") {
    const std::string rows = write_temp_file("errmsg-cli-bad-rows.csv", "tp,dp\n1,8\n4\n2\n");
    const Run r = run_dtcalc("sweep --model gpt2 --preset hgx-h100 --quiet --keep-going --input " + rows);
    CHECK(r.exit_code == 2);
    CHECK(r.out.ends_with("\ndtcalc: error: " + rows + ": 2 rows could not be read (reported above; written with their reason)\n"));
}

TEST_CASE("error message: astra flags dtcalc does not model") {
    const std::string head = "astra --workload-configuration w --system-configuration s.json --network-configuration n.yml ";
    check_errors({
        {head + "--rendezvous-protocol true", "--rendezvous-protocol: only false (ASTRA-sim's default) is modelled, got 'true'"},
        {head + "--injection-scale 0.5", "--injection-scale: only 1 (ASTRA-sim's default) is modelled, got 0.5"},
        {head + "--peak-memory kb", "--peak-memory: expected bytes or human, got 'kb'"},
        {head + "--log-time later", "--log-time: expected fixed or now, got 'later'"},
        {head + "--format xml", "--format: expected log, csv or json, got 'xml'"},
        {"astra " + astra_flags() + "--trace " + kNoDir + "/t.json", "--trace: cannot write '" + kNoDir + "/t.json'"},
    });
}

TEST_CASE("error message: options and arguments no command takes") {
    check_errors({
        // A near miss of one of the command's long options is named.
        {"predict --model llama2-70b --preset hgx-h100 --tpp 3",
         "--tpp: unknown option (did you mean --tp?); `dtcalc predict --help` lists them"},
        {"sweep --model gpt2 --preset hgx-h100 --thread=4",
         "--thread: unknown option (did you mean --threads?); `dtcalc sweep --help` lists them"},
        // Nothing near: no guess.
        {"collective all-reduce --size 1MiB --preset hgx-h100 --xyzzy",
         "--xyzzy: unknown option; `dtcalc collective --help` lists them"},
        // A value no option or positional takes.
        {"predict --model llama2-70b --preset hgx-h100 --tp 8 extra",
         "unexpected argument 'extra'; `dtcalc predict --help` lists them"},
        {"", "expected a command: collective, route, run, predict, sweep, list, preset, export-chakra, gen-workload, astra, "
             "validate, calibrate (`dtcalc --help` says what each does)"},
    });
}

TEST_CASE("error message: option values of the wrong type") {
    check_errors({
        {"predict --model gpt2 --preset hgx-h100 --tp abc", "--tp: expected a positive integer, got 'abc'"},
        {"collective all-reduce --size 1MiB --preset hgx-h100 --npus 2.5", "--npus: expected a whole number, or a list or range of them (8..1024), got '2.5'"},
        {"sweep --model gpt2 --preset hgx-h100 --max-points 1.5", "--max-points: expected a whole number, got '1.5'"},
        // A count below 1 was read as 2^64 - 1: no limit at all.
        {"sweep --model gpt2 --preset hgx-h100 --max-points=-1", "--max-points: expected 1 or more, got -1"},
        {"predict --model gpt2 --preset hgx-h100 --sequence-parallel=maybe",
         "--sequence-parallel: expected true or false (or no value), got 'maybe'"},
    });
}
