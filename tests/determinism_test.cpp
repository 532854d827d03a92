// The same inputs give byte-identical output: every command that writes
// results is run twice (and, where it has threads, at several thread counts),
// and everything it writes is compared byte for byte — stdout, and the files
// it writes (CSV, JSON, Chrome traces, Chakra traces, comm-group JSON, config
// files, SVG plots, ASTRA-sim text workloads).
//
// Already covered elsewhere and not repeated here: the sweep library's rows at
// 1 and 4 threads and its shards (sweep_run_test.cpp), concurrent C ABI sweeps
// (capi_test.cpp), `astra`'s log at the default and 1 thread
// (astra_command_test.cpp), and trace loading at 1 and 4 threads
// (chakra_decoder_test.cpp).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "run_dtcalc.h"
#include "temp_file.h"

using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;
namespace fs = std::filesystem;

namespace {

const std::string kSource = DTCALC_SOURCE_DIR;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "cannot read " << path.string());
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// A fresh, empty directory under the temp directory for one run's files.
fs::path fresh_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "dtcalc-tests" / ("determinism-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

/// Every file under `dir` (relative path -> bytes).
std::map<std::string, std::string> files_under(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file()) out[fs::relative(entry.path(), dir).string()] = read_file(entry.path());
    return out;
}

/// Runs `args` (with "{dir}" replaced by a fresh directory) and returns its
/// stdout, with the directory's name replaced back by "{dir}" so that two
/// runs in two directories compare, and the files it wrote there.
struct Output {
    int exit_code = -1;
    std::string out;
    std::map<std::string, std::string> files;
};

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

Output run_in(const std::string& dir_name, const std::string& args, bool with_stderr = false) {
    const fs::path dir = fresh_dir(dir_name);
    const Run r = run_dtcalc(replace_all(args, "{dir}", dir.string()), with_stderr);
    return {r.exit_code, replace_all(r.out, dir.string(), "{dir}"), files_under(dir)};
}

/// Runs `args` in two directories and checks that stdout and every file
/// written are the same bytes; returns the first run's output.
Output twice(const std::string& name, const std::string& args) {
    const Output a = run_in(name + "-a", args);
    const Output b = run_in(name + "-b", args);
    INFO(args);
    CHECK(a.exit_code == 0);
    CHECK(b.exit_code == 0);
    CHECK_FALSE(a.out.empty());
    CHECK(a.out == b.out);
    CHECK(a.files.size() == b.files.size());
    for (const auto& [name, bytes] : a.files) {
        INFO("file " << name);
        REQUIRE(b.files.count(name) == 1);
        CHECK(bytes == b.files.at(name));
    }
    return a;
}

/// The sweep summary on stderr without its line "dtcalc sweep: N points
/// evaluated in X s (R points/s, T threads)", which reports the run itself.
std::string summary_without_timing(const std::string& stderr_text) {
    std::istringstream in(stderr_text);
    std::string line, out;
    int timing_lines = 0;
    while (std::getline(in, line)) {
        if (line.rfind("dtcalc sweep: ", 0) == 0) {
            ++timing_lines;
            continue;
        }
        out += line + "\n";
    }
    CHECK(timing_lines == 1);
    return out;
}

/// A sweep's rows (written with -o to a file) and its stderr.
struct SweepRun {
    int exit_code;
    std::string rows, summary;
};

SweepRun sweep_to_file(const std::string& args, const std::string& name) {
    const fs::path dir = fresh_dir(name);
    const std::string file = (dir / "rows.out").string();
    const Run r = run_dtcalc(args + " -o " + file, true);  // rows go to the file: the output is stderr alone
    return {r.exit_code, read_file(file), summary_without_timing(r.out)};
}

std::string sanity_flags() {
    const std::string chakra = kSource + "/validation/chakra";
    return "--workload-configuration " + chakra + "/sanity_16npu/workload --comm-group-configuration " + chakra +
           "/sanity_16npu/comm_group.json --system-configuration " + chakra + "/system_system_16.json " +
           "--network-configuration " + chakra + "/network_system_16.yml --remote-memory-configuration " + chakra +
           "/remote_memory.json";
}

}  // namespace

TEST_CASE("determinism: collective tables, CSV and JSON on every backend and topology, twice") {
    const std::vector<std::string> systems{"--preset lab-system1", "--preset astrasim-hgx-h100-validated",
                                           "--preset hgx-h100", "--preset h100-ib-ndr400 --nodes 4 --gpus-per-node 8",
                                           "--preset lab-mesh-4x4", "--preset torus-4x4x4 --backend astra-aware"};
    for (const std::string& system : systems)
        for (const std::string& kind : {"all-reduce", "all-gather", "all-to-all"})
            for (const std::string& format : {"table", "csv", "json"})
                twice("collective", "collective " + kind + " --size 1:1GiB:x32 " + system + " --format " + format);
    // The busiest links on a grid, and the per-phase table for every size.
    twice("collective", "collective all-to-all --size 1MiB --preset lab-mesh-4x4 --links");
    twice("collective", "collective all-reduce --size 1KiB:1MiB --preset lab-dgx-2k --phases --units cycles");
}

TEST_CASE("determinism: route tables and JSON, twice") {
    for (const std::string& format : {"table", "json"}) {
        twice("route", "route --preset lab-mesh-4x4 14 5 --format " + format);
        twice("route", "route --preset torus-4x4x4 0 63 --format " + format);
        twice("route", "route --preset lab-tpu-512 3 500 --format " + format);
    }
}

TEST_CASE("determinism: run, with its per-layer CSV and Chrome trace, twice") {
    const std::string workloads = kSource + "/validation/workloads/";
    for (const std::string& workload : {"DLRM_HybridParallel.txt", "resnet50_dp.txt"})
        for (const std::string& format : {"table", "csv", "json"}) {
            const Output o = twice("run", "run " + workloads + workload +
                                              " --preset astrasim-hgx-h100-validated --backend astra-unaware --passes 2 "
                                              "--layers {dir}/layers.csv --trace {dir}/trace.json --format " + format);
            CHECK(o.files.count("layers.csv") == 1);
            CHECK(o.files.count("trace.json") == 1);
        }
    twice("run", "run " + workloads + "resnet50_dp.txt --preset lab-system1 --backend astra-aware --units cycles");
}

TEST_CASE("determinism: predict, with its per-stage CSV and Chrome trace, twice") {
    const std::string scenarios = kSource + "/validation/scenarios/";
    for (const std::string& format : {"table", "csv", "json"}) {
        twice("predict", "predict --scenario " + scenarios + "t3.2-gpt3-175b-pp8-tp8-64xh100.toml --layers {dir}/stages.csv "
                         "--trace {dir}/trace.json --format " + format);
        twice("predict", "predict --model mixtral-8x7b --preset h100-ib-ndr400 --nodes 4 --tp 2 --pp 2 --ep 8 --vpp 2 "
                         "--schedule interleaved --gbs 64 --zero 1 --trace {dir}/trace.json --format " + format);
        twice("predict", "predict --model resnet50 --preset dgx-a100 --format " + format);
    }
}

TEST_CASE("determinism: sweep rows and summary are the same bytes at 1, 2, 3 and 8 threads, and with -o") {
    const std::string spec = kSource + "/examples/lab-dse/lab-dse.toml";
    for (const std::string& format : {"csv", "jsonl"}) {
        SweepRun reference;
        for (int threads : {1, 2, 3, 8}) {
            const std::string args = "sweep " + spec + " --format " + format + " --no-progress --threads " + std::to_string(threads);
            const Run to_stdout = run_dtcalc(args, false);
            const SweepRun to_file = sweep_to_file(args, "sweep-" + format + std::to_string(threads));
            INFO(format << " at " << threads << " threads");
            REQUIRE(to_stdout.exit_code == 0);
            REQUIRE(to_file.exit_code == 0);
            CHECK(to_file.rows == to_stdout.out);
            if (threads == 1) {
                reference = to_file;
                CHECK(reference.rows.size() > 1000);
                CHECK(reference.summary.find("Pareto front") != std::string::npos);
            } else {
                CHECK(to_file.rows == reference.rows);
                CHECK(to_file.summary == reference.summary);
            }
        }
    }
}

TEST_CASE("determinism: sweep shards from the command line concatenate into the whole, at any thread count") {
    const std::string args = "sweep --model llama2-70b --preset lab-system1 --gbs 64 --seq 1024 --tp 1..8 --pp 1..8 "
                             "--recompute none,full --mbs 1,2 --quiet";
    const Run whole = run_dtcalc(args + " --threads 1", false);
    REQUIRE(whole.exit_code == 0);
    std::string shards;
    for (int i = 1; i <= 5; ++i) {
        const Run shard = run_dtcalc(args + " --threads " + std::to_string(i) + " --shard " + std::to_string(i) + "/5", false);
        REQUIRE(shard.exit_code == 0);
        shards += shard.out;
    }
    CHECK(shards == whole.out);
    CHECK(run_dtcalc(args + " --threads 0", false).out == whole.out);  // every core
}

TEST_CASE("determinism: batch-mode sweeps (--input) at 1, 2 and 8 threads, with and without --keep-going") {
    std::string csv = "# note,tp,pp,dp,recompute\n";
    for (int tp : {1, 2, 4, 8})
        for (int pp : {1, 2, 4})
            for (const char* recompute : {"none", "full"})
                csv += "row " + std::to_string(tp) + "x" + std::to_string(pp) + "," + std::to_string(tp) + "," +
                       std::to_string(pp) + "," + std::to_string(64 / tp / pp) + "," + recompute + "\n";
    const std::string good = write_temp_file("determinism-batch.csv", csv);
    const std::string bad = write_temp_file("determinism-batch-bad.csv", csv + "broken,x,1,1,none\nshort,8\n" +
                                                                             csv.substr(csv.find('\n') + 1));
    const std::string base = "sweep --model llama2-70b --preset lab-system1 --gbs 64 --seq 1024 --no-progress --input ";
    for (const std::string& input : {good, bad + " --keep-going"}) {
        const SweepRun one = sweep_to_file(base + input + " --threads 1", "batch-1");
        CHECK(one.exit_code == (input == good ? 0 : 2));
        CHECK(one.rows.size() > 1000);
        for (int threads : {2, 8}) {
            const SweepRun many = sweep_to_file(base + input + " --threads " + std::to_string(threads), "batch-" + std::to_string(threads));
            INFO(input << " at " << threads << " threads");
            CHECK(many.exit_code == one.exit_code);
            CHECK(many.rows == one.rows);
            CHECK(many.summary == one.summary);
        }
    }
}

TEST_CASE("determinism: astra's log, CSV, JSON and Chrome trace at 1, 2, 3 and 8 reading threads") {
    for (const std::string& format : {"log", "csv", "json"}) {
        Output reference;
        for (int threads : {1, 2, 3, 8}) {
            const Output o = run_in("astra-" + std::to_string(threads),
                                    "astra " + sanity_flags() + " --format " + format + " --trace {dir}/trace.json --threads " +
                                        std::to_string(threads));
            INFO(format << " at " << threads << " threads");
            REQUIRE(o.exit_code == 0);
            REQUIRE(o.files.count("trace.json") == 1);
            if (threads == 1) {
                reference = o;
                continue;
            }
            CHECK(o.out == reference.out);
            CHECK(o.files == reference.files);
        }
    }
}

TEST_CASE("determinism: gen-workload's text workload and its evaluation, twice") {
    const std::string gemm = kSource + "/examples/gemm/";
    const std::string system = "--network " + gemm + "network_8x2.yml --system " + gemm + "system_8x2.json";
    for (const std::string& parallel : {"DATA", "MODEL", "HYBRID_DATA_MODEL", "HYBRID_MODEL_DATA"}) {
        // Systolic array, written to a file and evaluated.
        const Output o = twice("gen", "gen-workload --mnk " + gemm + "dlrm_mlp.csv --parallel " + parallel +
                                          " --packages 2 --array 32x32 --dataflow os " + system + " -o {dir}/w.txt --evaluate");
        CHECK(o.files.count("w.txt") == 1);
        // Roofline (the preset's peak-perf and local-mem-bw), to stdout.
        twice("gen", "gen-workload --mnk " + gemm + "transformer_block.csv --parallel " + parallel +
                         " --packages 4 --preset lab-system1");
    }
}

TEST_CASE("determinism: export-chakra's traces, comm groups and configs are the same bytes, and read back the same "
          "at any thread count") {
    const std::string workloads = kSource + "/validation/workloads/";
    const Output text = twice("export", "export-chakra " + workloads + "DLRM_HybridParallel.txt --preset lab-system1 "
                                        "--output {dir}/w --configs {dir}/configs");
    CHECK(text.files.count("w.0.et") == 1);
    CHECK(text.files.count("w.63.et") == 1);
    CHECK(text.files.count("w.json") == 1);
    CHECK(text.files.count("configs/network.yml") == 1);
    CHECK(text.files.count("configs/system.json") == 1);
    CHECK(text.files.count("configs/remote_memory.json") == 1);
    const Output model = twice("export", "export-chakra --model llama2-7b --preset lab-system1 --tp 4 --pp 4 --gbs 16 "
                                         "--output {dir}/m --comm-group {dir}/groups.json --configs {dir}/c --no-dtcalc-durations");
    CHECK(model.files.count("groups.json") == 1);
    CHECK(model.files.size() == 64 + 1 + 3);

    // The exported model, run back through `astra` at several thread counts.
    const fs::path dir = fresh_dir("export-readback");
    const std::string d = dir.string();
    REQUIRE(run_dtcalc("export-chakra --model llama2-7b --preset lab-system1 --tp 4 --pp 4 --gbs 16 --output " + d +
                       "/m --configs " + d + "/c").exit_code == 0);
    const std::string flags = "astra --workload-configuration " + d + "/m --comm-group-configuration " + d +
                              "/m.json --system-configuration " + d + "/c/system.json --network-configuration " + d +
                              "/c/network.yml --remote-memory-configuration " + d + "/c/remote_memory.json --format csv";
    const Run one = run_dtcalc(flags + " --threads 1", false);
    REQUIRE(one.exit_code == 0);
    for (int threads : {2, 5, 8}) CHECK(run_dtcalc(flags + " --threads " + std::to_string(threads), false).out == one.out);
}

TEST_CASE("determinism: validate's reports and SVG plots, twice") {
    for (const std::string& format : {"csv", "json"}) twice("validate", "validate --format " + format);
    const Output o = twice("validate", "validate --plot {dir}");
    CHECK(o.files.size() > 3);
    for (const auto& [name, bytes] : o.files) CHECK(name.ends_with(".svg"));
}
