// `dtcalc gen-workload` end to end: the seed's MNK example becomes a v1 file
// that `dtcalc run` reads back to the same iteration time as --evaluate; and
// bad input exits 2 with file:line.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "run_dtcalc.h"
#include "temp_file.h"

using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;

namespace {

const std::string kDlrm = std::string(DTCALC_SOURCE_DIR) + "/examples/gemm/dlrm_mlp.csv";
// 16 NPUs: 8 fully connected (a package) x 2 on a switch.
const std::string kSystem = std::string("--network ") + DTCALC_SOURCE_DIR + "/examples/gemm/network_8x2.yml --system " +
                            DTCALC_SOURCE_DIR + "/examples/gemm/system_8x2.json";
const std::string kArray = "--array 32x32 --dataflow ws --sram-kib 1024,1024,128 --clock-ghz 1";

/// The iteration_time column of a `--format csv` report.
std::string iteration_time(const std::string& csv) {
    std::istringstream in(csv);
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    std::istringstream fields(row);
    std::string field;
    for (int i = 0; i <= 5; ++i) std::getline(fields, field, ',');
    return field;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("gen-workload: the seed's MNK example reads back to the same iteration time") {
    for (const std::string strategy : {"DATA", "MODEL", "HYBRID_DATA_MODEL", "HYBRID_MODEL_DATA"}) {
        CAPTURE(strategy);
        const std::string file = dtcalc::testing::write_temp_file("gen_" + strategy + ".txt", "");
        const Run gen = run_dtcalc("gen-workload --mnk " + kDlrm + " --parallel " + strategy +
                                   " --packages 2 --datatype-size 2 " + kArray + " " + kSystem + " -o " + file +
                                   " --evaluate --passes 2 --format csv --units ns");
        REQUIRE(gen.exit_code == 0);
        const Run run = run_dtcalc("run " + file + " " + kSystem + " --passes 2 --format csv --units ns");
        REQUIRE(run.exit_code == 0);
        CHECK(iteration_time(gen.out) == iteration_time(run.out));
        CHECK(std::stod(iteration_time(gen.out)) > 0);
    }
}

TEST_CASE("gen-workload: the written file, for DATA on 16 NPUs") {
    const std::string file = dtcalc::testing::write_temp_file("gen_seed_data.txt", "");
    const Run gen = run_dtcalc("gen-workload --mnk " + kDlrm + " --parallel DATA --npus 16 --packages 2 " + kArray + " -o " + file);
    REQUIRE(gen.exit_code == 0);
    CHECK(gen.out.empty());
    const std::string text = read_file(file);
    CHECK(text.starts_with("DATA\n7\n"));
    // Worked by hand in gemm_workload_test.cpp.
    CHECK(text.find("\nMLP_Bottom_0 -1 10650 NONE 0 10650 NONE 0 10650 ALLREDUCE 131072 19661\n") != std::string::npos);
    // Without -o, the workload goes to stdout.
    const Run out = run_dtcalc("gen-workload --mnk " + kDlrm + " --parallel DATA --npus 16 " + kArray);
    CHECK(out.exit_code == 0);
    CHECK(out.out == text);
}

TEST_CASE("gen-workload: roofline compute from a preset") {
    const Run r = run_dtcalc("gen-workload --mnk " + std::string(DTCALC_SOURCE_DIR) +
                             "/examples/gemm/transformer_block.csv --parallel HYBRID_DATA_MODEL --packages 16 --preset " +
                             DTCALC_PRESETS_DIR + "/lab-system1.toml --evaluate --format csv");
    CHECK(r.exit_code == 0);
    CHECK(r.out.starts_with("workload,system,backend,npus,"));
}

TEST_CASE("gen-workload: bad input exits 2 with file:line") {
    auto gen = [](const std::string& csv, const std::string& flags) {
        const std::string path = dtcalc::testing::write_temp_file("bad.csv", csv);
        Run r = run_dtcalc("gen-workload --mnk " + path + " " + flags);
        const auto at = r.out.find(path);
        if (at != std::string::npos) r.out.replace(at, path.size(), "bad.csv");
        return r;
    };
    const std::string ok = "--npus 16 --array 32x32";
    Run r = gen("Layer,m,n,k\nfc1,1024,128.5,512\n", ok);
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: bad.csv:2: n: expected a whole number, got '128.5'\n");
    r = gen("Layer,m,n,k\nfc1,1024,128,512\nfc2,1024,0,128\n", ok);
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: bad.csv:3: n: must be >= 1 (got 0)\n");
    r = gen("Layer,m,n,k\nfc1,1024,128\n", ok);
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: bad.csv:2: expected 4 columns (layer,m,n,k), got 3\n");
    r = gen("Layer,m,n,k\nfc1,1000,128,512\n", ok);
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: bad.csv:2: m: m = 1000 is not divisible by the data-parallel degree 16\n");
    r = gen("Layer,m,n,k\nfc1,1024,128,512\n", ok + " --parallel PIPELINE");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: --parallel: expected DATA, MODEL, HYBRID_DATA_MODEL or HYBRID_MODEL_DATA, got 'PIPELINE'\n");
    r = gen("Layer,m,n,k\nfc1,1024,128,512\n", "--npus 16 --array 0x32");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: --array: array rows and columns must be 1 to 65536 (got 0x32)\n");
    r = gen("Layer,m,n,k\nfc1,1024,128,512\n", "--npus 16 --array 32by32");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: --array: expected ROWSxCOLS like 32x32, got '32by32'\n");
    r = gen("Layer,m,n,k\nfc1,1024,128,512\n", "--npus 16 --dataflow os");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: --dataflow: describes a systolic array: give --array ROWSxCOLS too\n");
    r = gen("Layer,m,n,k\nfc1,1024,128,512\n", ok + " --evaluate");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: --evaluate: needs a network: give --preset NAME, or --network FILE and --system FILE\n");
    r = gen("Layer,m,n,k\nfc1,1024,128,512\n", ok + " --packages 3");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: --packages: 3 packages do not divide 16 NPUs\n");
}
