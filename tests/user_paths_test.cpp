// The paths a new user hit and found broken: each case runs the command as
// the README shows it and checks what a person reading the output needs.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/count_range.h"
#include "run_dtcalc.h"
#include "core/csv_document.h"
#include "temp_file.h"

using dtcalc::CsvDocument;
using dtcalc::parse_csv_document;
using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;

namespace {

const std::string kSource = DTCALC_SOURCE_DIR;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// The value of column `name` in a CSV of one header line and rows.
std::string csv_cell(const std::string& csv, const std::string& name, std::size_t row = 0) {
    const CsvDocument doc = parse_csv_document(csv, "output");
    REQUIRE(doc.rows.size() > row);
    const std::vector<std::string>& values = doc.rows[row].fields;
    for (std::size_t i = 0; i < doc.header.size(); ++i)
        if (doc.header[i] == name) return i < values.size() ? values[i] : std::string();
    FAIL("no column " << name << " in " << lines_of(csv)[0]);
    return "";
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text between `"key": ` and the next ',' or '}' of a flat JSON object.
double json_number(const std::string& json, const std::string& key) {
    const std::size_t at = json.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    return std::stod(json.substr(at + key.size() + 4));
}

}  // namespace

TEST_CASE("predict --layers writes one row per pipeline stage, not only the header") {
    const std::string path = dtcalc::testing::write_temp_file("user_paths/layers.csv", "");
    const Run r = run_dtcalc("predict --model llama2-7b --preset hgx-h100 --tp 2 --pp 2 --gbs 16 --format json --layers " +
                                 path,
                             false);
    REQUIRE(r.exit_code == 0);
    const std::string csv = read_file(path);
    const std::vector<std::string> lines = lines_of(csv);
    REQUIRE(lines.size() == 3);  // the header and stages 0 and 1
    CHECK(csv_cell(csv, "layer", 0) == "stage 0");
    CHECK(csv_cell(csv, "layer", 1) == "stage 1");
    // Each stage's compute columns add up to its time on the compute stream;
    // the report's compute time is that of the stage that finishes last, so
    // one of the two rows carries it exactly.
    const double compute_us = json_number(r.out, "compute_time_us");
    bool found = false;
    for (std::size_t row = 0; row < 2; ++row) {
        double sum = 0;
        for (const char* c : {"fwd_compute_us", "wg_compute_us", "ig_compute_us", "update_us"})
            sum += std::stod(csv_cell(csv, c, row));
        CHECK(sum > 0);
        if (std::abs(sum - compute_us) <= 1e-6 * compute_us) found = true;
    }
    CHECK(found);
}

TEST_CASE("sweep --input examples/batch/plans.csv runs every example row") {
    const Run r = run_dtcalc("sweep --quiet --input " + kSource + "/examples/batch/plans.csv", false);
    CHECK(r.exit_code == 0);
    const std::vector<std::string> lines = lines_of(r.out);
    REQUIRE(lines.size() == 5);  // the header and four plans
    for (std::size_t row = 0; row < 4; ++row) CHECK(!csv_cell(r.out, "iteration_time_us", row).empty());
}

TEST_CASE("a bad batch row without --keep-going says how to get the other rows") {
    const std::string csv = dtcalc::testing::write_temp_file(
        "user_paths/one_bad_row.csv", "model,preset,nodes,tp\nllama2-7b,hgx-h100,1,8\nllama2-7b,hgx-h100,2,8\n");
    const Run r = run_dtcalc("sweep --quiet --input " + csv);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("one_bad_row.csv:3:") != std::string::npos);
    CHECK(r.out.find("--keep-going") != std::string::npos);
}

TEST_CASE("gen-workload --preset hgx-h100 without --array times GEMMs on the preset's [compute] peak") {
    const Run r = run_dtcalc("gen-workload --mnk " + kSource + "/examples/gemm/dlrm_mlp.csv --preset hgx-h100", false);
    REQUIRE(r.exit_code == 0);
    // MLP_Bottom_0: m 1024, n 128, k 512, DATA on 8 GPUs: m' = 128, 2-byte elements.
    // Each pass is a 128 x 128 x 512 GEMM: 2 * 128 * 128 * 512 = 16,777,216 FLOPs
    // and 2 * (128*512 + 512*128 + 128*128) = 294,912 bytes. At 989.4 TFLOP/s
    // bf16 that is 17.0 ns; at 3,350 GB/s 88.03 ns: memory-bound, 89 ns whole.
    // The update: 3 x 512 x 128 x 2 = 393,216 B at 3,350 GB/s = 117.4 -> 118 ns;
    // the weight-gradient all-reduce 512 x 128 x 2 = 131,072 B.
    const std::vector<std::string> lines = lines_of(r.out);
    REQUIRE(lines.size() >= 3);
    CHECK(lines[2] == "MLP_Bottom_0 -1 89 NONE 0 89 NONE 0 89 ALLREDUCE 131072 118");
}

TEST_CASE("astra without --comm-group-configuration names the flag") {
    const std::string dir = std::string(DTCALC_VALIDATION_DIR) + "/chakra/";
    const Run r = run_dtcalc("astra --workload-configuration " + dir + "sanity_16npu/workload --system-configuration " +
                             dir + "system_system_16.json --network-configuration " + dir + "network_system_16.yml");
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("--comm-group-configuration") != std::string::npos);
}

TEST_CASE("ResNet-50 reports images/s and no sequence length") {
    const Run r =
        run_dtcalc("predict --scenario " + std::string(DTCALC_VALIDATION_DIR) + "/scenarios/resnet50-dp-2xh100.toml", false);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("images/s") != std::string::npos);
    CHECK(r.out.find("tokens/s") == std::string::npos);
    CHECK(r.out.find("seq") == std::string::npos);
    CHECK(r.out.find("mbs 32 gbs 64, recompute") != std::string::npos);
}

TEST_CASE("the sweep's summary under --feasible-only ranks only points that fit") {
    // llama2-7b on 8 H100s with dp 8 (tp 1) holds 16 bytes of weights, gradients
    // and Adam state per parameter on every GPU: 6.7e9 x 16 B = 100 GiB > 80 GiB,
    // so point 0 cannot fit; tp 2 halves it.
    const Run r = run_dtcalc("sweep --model llama2-7b --preset hgx-h100 --tp 1,2 --feasible-only -o /dev/null");
    REQUIRE(r.exit_code == 0);
    bool ranked = false;
    for (const std::string& line : lines_of(r.out)) {
        if (line.find("memory (GiB)") != std::string::npos) ranked = true;
        CHECK_MESSAGE(!line.ends_with(" no"), line);
    }
    CHECK(ranked);
}

TEST_CASE("--units sets the times and the column names of predict's and sweep's CSV") {
    const std::string args = "--model llama2-7b --preset hgx-h100 --tp 2";
    const Run us = run_dtcalc("predict " + args + " --format csv", false);
    const Run ms = run_dtcalc("predict " + args + " --format csv --units ms", false);
    REQUIRE(us.exit_code == 0);
    REQUIRE(ms.exit_code == 0);
    CHECK(lines_of(ms.out)[0].find("iteration_time_ms") != std::string::npos);
    CHECK(lines_of(ms.out)[0].find("_us") == std::string::npos);
    // 1 ms = 1000 us.
    CHECK(std::stod(csv_cell(ms.out, "iteration_time_ms")) * 1000 ==
          doctest::Approx(std::stod(csv_cell(us.out, "iteration_time_us"))).epsilon(1e-11));
    CHECK(std::stod(csv_cell(ms.out, "bubble_time_ms")) * 1000 ==
          doctest::Approx(std::stod(csv_cell(us.out, "bubble_time_us"))).epsilon(1e-11));
    const Run sweep = run_dtcalc("sweep --quiet " + args + " --units s", false);
    REQUIRE(sweep.exit_code == 0);
    CHECK(std::stod(csv_cell(sweep.out, "iteration_time_s")) * 1e6 ==
          doctest::Approx(std::stod(csv_cell(us.out, "iteration_time_us"))).epsilon(1e-11));
}

TEST_CASE("the phase table's serialisation column is named as a time, not a bandwidth") {
    const Run table = run_dtcalc("collective all-reduce --size 1MiB --preset lab-system1", false);
    REQUIRE(table.exit_code == 0);
    CHECK(table.out.find(" transfer ") != std::string::npos);
    CHECK(table.out.find("bandwidth") == std::string::npos);
    const Run json = run_dtcalc("collective all-reduce --size 1MiB --preset lab-system1 --format json", false);
    CHECK(json.out.find("\"transfer_us\"") != std::string::npos);
    CHECK(json.out.find("\"bandwidth_us\"") == std::string::npos);
}

TEST_CASE("the collective CSV has one column set whatever the backend") {
    const Run astra = run_dtcalc("collective all-reduce --size 1MiB --preset hgx-h100 --backend astra-unaware --format csv", false);
    const Run nccl = run_dtcalc("collective all-reduce --size 1MiB --preset hgx-h100 --format csv", false);
    REQUIRE(astra.exit_code == 0);
    REQUIRE(nccl.exit_code == 0);
    CHECK(lines_of(astra.out)[0] == lines_of(nccl.out)[0]);
    const CsvDocument doc = parse_csv_document(astra.out, "output");
    REQUIRE(!doc.rows.empty());
    CHECK(doc.rows[0].fields.size() == doc.header.size());
    CHECK(csv_cell(astra.out, "algorithm").empty());
    CHECK(!csv_cell(nccl.out, "algorithm").empty());
}

TEST_CASE("a preset that states no memory capacity does not call a plan feasible") {
    // llama2-70b with tp 1 on 64 NPUs keeps 16 bytes per parameter on each:
    // 69e9 x 16 B = 1,028 GiB before activations; lab-system1 states no
    // capacity, so the report cannot say it fits.
    const Run r = run_dtcalc("predict --model llama2-70b --preset lab-system1 --gbs 64 --seq 1024", false);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("unknown   (the system states no memory capacity") != std::string::npos);
    CHECK(r.out.find("yes") == std::string::npos);
    const Run limited = run_dtcalc("predict --model llama2-70b --preset lab-system1 --gbs 64 --seq 1024 --memory-limit 80GiB", false);
    CHECK(limited.out.find("NO") != std::string::npos);
    // The sweep's summary does not count them as fitting either.
    const Run sweep = run_dtcalc("sweep --model llama2-70b --preset lab-system1 --gbs 64 --seq 1024 --tp 4,8 -o /dev/null");
    REQUIRE(sweep.exit_code == 0);
    CHECK(sweep.out.find("2 run, 0 of them fit in memory, 2 unchecked") != std::string::npos);
    CHECK(sweep.out.find(" unknown\n") != std::string::npos);
}

TEST_CASE("with pp > 1 and no --gbs the report says why the bubble is so large") {
    // One micro-batch through 4 stages: the bubble is (pp - 1) / pp = 3/4 of it.
    const Run r = run_dtcalc("predict --model llama2-70b --preset h100-ib-ndr400 --nodes 8 --tp 8 --pp 4", false);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("no gbs given: 1 micro-batch per pipeline, so about (pp-1)/pp = 75 %") != std::string::npos);
    CHECK(r.out.find("give --gbs") != std::string::npos);
    const Run given = run_dtcalc("predict --model llama2-70b --preset h100-ib-ndr400 --nodes 8 --tp 8 --pp 4 --gbs 512", false);
    CHECK(given.out.find("give --gbs") == std::string::npos);
}

TEST_CASE("counts as typed: one, a list, a doubling, adding or multiplying range") {
    std::string expected;
    using V = std::vector<long long>;
    CHECK(dtcalc::parse_count_range("16", 1 << 24, 4096, expected) == V{16});
    CHECK(dtcalc::parse_count_range("1,2,8", 1 << 24, 4096, expected) == V{1, 2, 8});
    CHECK(dtcalc::parse_count_range("8..1024", 1 << 24, 4096, expected) == V{8, 16, 32, 64, 128, 256, 512, 1024});
    CHECK(dtcalc::parse_count_range("1..128", 1 << 24, 4096, expected) == V{1, 2, 4, 8, 16, 32, 64, 128});
    CHECK(dtcalc::parse_count_range("8..64+8", 1 << 24, 4096, expected) == V{8, 16, 24, 32, 40, 48, 56, 64});
    CHECK(dtcalc::parse_count_range("2..162*3", 1 << 24, 4096, expected) == V{2, 6, 18, 54, 162});
    CHECK(dtcalc::parse_count_range("3..10", 1 << 24, 4096, expected) == V{3, 6});
    CHECK(!dtcalc::parse_count_range("64..8", 1 << 24, 4096, expected));
    CHECK(!dtcalc::parse_count_range("0", 1 << 24, 4096, expected));
    CHECK(!dtcalc::parse_count_range("8..", 1 << 24, 4096, expected));
    CHECK(!dtcalc::parse_count_range("1..8*1", 1 << 24, 4096, expected));
    CHECK(!dtcalc::parse_count_range("1..10000+1", 1 << 24, 4096, expected));
    CHECK(expected.find("8..1024") != std::string::npos);
}

TEST_CASE("collective over GPU counts gives one row per count, as each count alone does") {
    const Run range = run_dtcalc(
        "collective all-reduce --size 1MiB --preset h100-ib-ndr400 --nodes 1..128 --gpus-per-node 8 --format csv", false);
    REQUIRE(range.exit_code == 0);
    REQUIRE(lines_of(range.out).size() == 9);  // header + 1, 2, 4, ..., 128 nodes
    long long nodes = 1;
    for (std::size_t row = 0; row < 8; ++row, nodes *= 2) {
        CAPTURE(nodes);
        CHECK(csv_cell(range.out, "npus", row) == std::to_string(8 * nodes));
        const Run one = run_dtcalc("collective all-reduce --size 1MiB --preset h100-ib-ndr400 --nodes " +
                                       std::to_string(nodes) + " --gpus-per-node 8 --format csv",
                                   false);
        CHECK(lines_of(one.out)[1] == lines_of(range.out)[row + 1]);
    }
    const Run npus = run_dtcalc("collective all-reduce --size 1MiB --preset lab-system1 --npus 4..64", false);
    REQUIRE(npus.exit_code == 0);
    CHECK(npus.out.find("# all-reduce on 4 to 64 NPUs") != std::string::npos);
    CHECK(lines_of(npus.out).size() >= 2 + 5);  // title, header, 4 8 16 32 64
}

TEST_CASE("collective takes nccl-tests' -b -e -f -g") {
    // all_reduce_perf -b 8 -e 128M -f 2 -g 8: 8 B doubling to 2^27 B, 25 sizes, on 8 GPUs.
    const Run nccl_tests = run_dtcalc("collective all-reduce -b 8 -e 128M -f 2 -g 8 --preset hgx-h100 --format csv", false);
    const Run ours = run_dtcalc("collective all-reduce --size 8:128MiB --npus 8 --preset hgx-h100 --format csv", false);
    REQUIRE(nccl_tests.exit_code == 0);
    CHECK(lines_of(nccl_tests.out).size() == 26);
    CHECK(nccl_tests.out == ours.out);
    // Without -f nccl-tests adds -i bytes (1M by default); suffixes in either case.
    const Run steps = run_dtcalc("collective all-gather -b 1m -e 4M --preset hgx-h100 --format csv", false);
    REQUIRE(steps.exit_code == 0);
    REQUIRE(lines_of(steps.out).size() == 5);
    for (std::size_t row = 0; row < 4; ++row) CHECK(csv_cell(steps.out, "size_bytes", row) == std::to_string((row + 1) << 20));
    const Run bad = run_dtcalc("collective all-reduce -b 8 -e 4 --preset hgx-h100");
    CHECK(bad.exit_code == 2);
    CHECK(bad.out.rfind("dtcalc: error: -b: ", 0) == 0);
    const Run both = run_dtcalc("collective all-reduce --size 1MiB -b 8 --preset hgx-h100");
    CHECK(both.exit_code == 2);
    CHECK(both.out.rfind("dtcalc: error: --size: ", 0) == 0);
}
