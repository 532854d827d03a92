// `dtcalc astra` end to end: ASTRA-sim's flags (both spellings), its log
// lines read by the lab's parser (seed 004's extract_metric, its logic
// restated below), CSV and JSON, and bad input (exit code 2, one line).
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "run_dtcalc.h"
#include "chakra_test_traces.h"

using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;

namespace {

std::string sanity_flags(const char* sep) {
    const std::string d = dtcalc::testing::chakra_dir();
    auto flag = [&](const std::string& name, const std::string& value) { return "--" + name + sep + value + " "; };
    return flag("workload-configuration", dtcalc::testing::sanity_prefix()) +
           flag("comm-group-configuration", dtcalc::testing::sanity_groups()) +
           flag("system-configuration", d + "/system_system_16.json") +
           flag("network-configuration", d + "/network_system_16.yml") +
           flag("remote-memory-configuration", d + "/remote_memory.json");
}

std::vector<std::string> split(const std::string& text, const std::string& by) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = text.find(by, start);
        parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return parts;
        start = at + by.size();
    }
}

// The lab's parser for one NPU (seed 004, Task 2.3), restated: split each line
// on " "; if field 2 is "[statistics]" or "[workload]" and field 4 contains
// "sys[N]", split the line on ": "; with exactly two parts, strip "\n" and "%"
// from the second and store it under the metric the first part names. (Lines
// with fewer than three fields would make its list_output[2] fail.)
std::map<std::string, double> extract_metric(const std::vector<std::string>& lines, int sys) {
    std::map<std::string, double> m;
    const std::string tag = "sys[" + std::to_string(sys) + "]";
    for (const std::string& line : lines) {
        const std::vector<std::string> fields = split(line, " ");
        REQUIRE(fields.size() >= 3);
        if ((fields[2] == "[statistics]" || fields[2] == "[workload]") && fields.size() > 4 &&
            fields[4].find(tag) != std::string::npos) {
            const std::vector<std::string> parts = split(line, ": ");
            if (parts.size() != 2) continue;
            std::string s = parts[1];
            for (const char* drop : {"\n", "%"})
                for (std::size_t at; (at = s.find(drop)) != std::string::npos;) s.erase(at, 1);
            for (const char* key : {"Wall time", "GPU time", "Comm time", "Compute bound percentage",
                                    "Average compute utilization", "Average memory utilization",
                                    "Average operation intensity", "peak memory usage"})
                if (parts[0].find(key) != std::string::npos) m[key] = std::stod(s);
        }
    }
    return m;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
    return lines;
}

}  // namespace

TEST_CASE("the lab's parser reads dtcalc's log: ASTRA-sim's numbers for sys[0] and sys[8]") {
    const Run r = run_dtcalc("astra " + sanity_flags(" "), false);
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    CHECK(lines.size() == 16 * 11);
    // astrasim_output_sanity_system16.csv, rows 0 and 8.
    const auto m0 = extract_metric(lines, 0);
    CHECK(m0.at("Wall time") == 2047456430);
    CHECK(m0.at("GPU time") == 806761323);
    CHECK(m0.at("Comm time") == 2009844638);
    CHECK(m0.at("Compute bound percentage") == 96.745);
    CHECK(m0.at("Average compute utilization") == 97.662);
    CHECK(m0.at("Average memory utilization") == 6.395);
    CHECK(m0.at("Average operation intensity") == 41728.7);
    CHECK(m0.at("peak memory usage") == doctest::Approx(49993419325.0).epsilon(0.0002));
    const auto m8 = extract_metric(lines, 8);
    CHECK(m8.at("Wall time") == 2009235254);
    CHECK(m8.at("Comm time") == 1916368932);
    CHECK(m8.at("Average memory utilization") == 6.331);
    // The seed's sanity check looks for this exact text.
    CHECK(r.out.find("[workload] [info] sys[0] finished, 2047456430 cycles, exposed communication 1240695107 cycles.\n") !=
          std::string::npos);
    // ASTRA-sim prints the NPUs as they finish: stage 1 (8-15) ends first.
    CHECK(lines[0].find("sys[8] finished") != std::string::npos);
    CHECK(lines[0].rfind("[1970-01-01 00:00:00.000] [workload] [info] ", 0) == 0);
}

TEST_CASE("--flag=value and --flag value give the same output; so do repeated runs") {
    const Run a = run_dtcalc("astra " + sanity_flags("="));
    const Run b = run_dtcalc("astra " + sanity_flags(" "));
    CHECK(a.exit_code == 0);
    CHECK(a.out == b.out);
    const Run c = run_dtcalc("astra " + sanity_flags("=") + "--threads 1");
    CHECK(c.out == a.out);
}

TEST_CASE("--format csv and json carry the same numbers per NPU") {
    const Run csv = run_dtcalc("astra " + sanity_flags(" ") + "--format csv");
    REQUIRE(csv.exit_code == 0);
    const auto rows = lines_of(csv.out);
    REQUIRE(rows.size() == 17);
    CHECK(rows[0] ==
          "sys_id,finish_cycles,wall_cycles,gpu_cycles,cpu_cycles,comm_cycles,remote_mem_cycles,exposed_comm_cycles,"
          "compute_bound_pct,comp_util_pct,mem_util_pct,op_intensity,peak_mem_bytes\n");
    CHECK(rows[1].rfind("0,2047456430,2047456430,806761323,,2009844638,,1240695107,96.745,97.662,6.395,41728.700,", 0) == 0);
    const Run json = run_dtcalc("astra " + sanity_flags(" ") + "--format json");
    REQUIRE(json.exit_code == 0);
    const auto doc = nlohmann::json::parse(json.out);
    CHECK(doc["npus"] == 16);
    CHECK(doc["roles"] == 2);
    CHECK(doc["trace_nodes"] == 5544);
    REQUIRE(doc["ranks"].size() == 16);
    CHECK(doc["ranks"][8]["wall_cycles"] == 2009235254ULL);
    CHECK(doc["ranks"][8]["exposed_comm_cycles"] == 1202473931ULL);
    CHECK(doc["ranks"][8]["cpu_cycles"].is_null());
}

TEST_CASE("--peak-memory human prints it as newer ASTRA-sim does") {
    const Run r = run_dtcalc("astra " + sanity_flags(" ") + "--peak-memory human");
    // The CSV's 49,993,419,325 is 46.56 x 2^30: ASTRA-sim printed "46.56 GB".
    CHECK(r.out.find("sys[0] peak memory usage: 46.56 GB\n") != std::string::npos);
    CHECK(r.out.find("sys[8] peak memory usage: 44.94 GB\n") != std::string::npos);
}

TEST_CASE("ASTRA-sim's other flags: accepted at the values dtcalc models, refused otherwise") {
    CHECK(run_dtcalc("astra " + sanity_flags(" ") + "--num-queues-per-dim 1 --comm-scale 1 --rendezvous-protocol false "
                                                    "--logging-configuration x.toml --backend unaware")
              .exit_code == 0);
    const Run q = run_dtcalc("astra " + sanity_flags(" ") + "--num-queues-per-dim=2");
    CHECK(q.exit_code == 2);
    CHECK(q.out == "dtcalc: error: --num-queues-per-dim: only 1 queue per dimension (ASTRA-sim's default) is modelled, got 2\n");
    const Run s = run_dtcalc("astra " + sanity_flags(" ") + "--comm-scale 2");
    CHECK(s.out == "dtcalc: error: --comm-scale: only 1 (ASTRA-sim's default) is modelled, got 2\n");
    const Run b = run_dtcalc("astra " + sanity_flags(" ") + "--backend fast");
    CHECK(b.out == "dtcalc: error: --backend: expected unaware or aware, got 'fast'\n");
}

TEST_CASE("bad traces: exit 2 and one line naming the file and node") {
    using namespace dtcalc::testing;
    const std::string d = chakra_dir();
    const std::string configs = "--system-configuration " + d + "/system_system_16.json --network-configuration " + d +
                                "/network_system_16.yml";
    SUBCASE("rank files for fewer NPUs than the network has") {
        std::vector<std::vector<dtcalc::chakra::Node>> eight(8, {comp(1, 1)});
        const std::string prefix = write_traces("only_eight", eight);
        const Run r = run_dtcalc("astra --workload-configuration " + prefix + " " + configs);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".8.et: does not exist: the network has 16 NPUs, so the workload "
                                                    "needs one trace per NPU, " + prefix + ".0.et to " + prefix +
                           ".15.et; missing ranks 8-15\n");
    }
    SUBCASE("a truncated file") {
        std::vector<std::vector<dtcalc::chakra::Node>> ranks(16, {comp(1, 1), comp(2, 1, {1})});
        const std::string prefix = write_traces("cut", ranks);
        std::string bytes = dtcalc::chakra::encode_et(dtcalc::chakra::chakra_metadata("test"), ranks[3]);
        write_text(prefix + ".3.et", bytes.substr(0, bytes.size() - 2));
        const Run r = run_dtcalc("astra --workload-configuration " + prefix + " " + configs);
        CHECK(r.exit_code == 2);
        CHECK(r.out.rfind("dtcalc: error: " + prefix + ".3.et: byte ", 0) == 0);
        CHECK(r.out.find(": truncated: the message after node 1 needs ") != std::string::npos);
    }
    SUBCASE("a pg_name not in the comm-group file") {
        std::vector<std::vector<dtcalc::chakra::Node>> ranks(16, {collective(4, 0, 1024, "99")});
        const std::string prefix = write_traces("pg99", ranks);
        const Run r = run_dtcalc("astra --workload-configuration " + prefix + " --comm-group-configuration " +
                                 sanity_groups() + " " + configs);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".0.et: node 4: pg_name '99' is not a communicator in " +
                           sanity_groups() + "\n");
    }
}
