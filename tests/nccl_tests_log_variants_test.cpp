// nccl-tests' text output as it reaches dtcalc in practice: tagged by the
// launcher that ran it, printed by nccl-tests before 2.13.4, or cut short by
// a run that failed (--skip-failed-runs).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "input_error.h"
#include "nccl_tests_log_text.h"
#include "run_dtcalc.h"
#include "temp_file.h"
#include "validate/log_tokens.h"
#include "validate/nccl_inputs.h"
#include "validate/nccl_tests_log.h"

using namespace dtcalc;
using dtcalc::testing::header;
using dtcalc::testing::kFooter;


TEST_CASE("a launcher's tag before each line, and rank lines without groups, read as plain output") {
    // One run on 2 hosts of 2 GPUs, then the same text as launchers tag it and
    // as nccl-tests before 2.13.4 printed its rank lines ("Rank N Pid N on
    // HOST", no "Group N"): the same rows and shape each time.
    const std::string row =
        "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    const std::string plain = header("all_reduce_perf", 2, 2) + row + kFooter;
    auto tagged = [&](const std::string& tag) {
        std::string out;
        std::size_t start = 0;
        while (start < plain.size()) {
            const std::size_t end = plain.find('\n', start);
            out += tag + plain.substr(start, end - start + 1);
            start = end + 1;
        }
        return out;
    };
    std::string groupless = plain;
    for (std::size_t at; (at = groupless.find(" Group  0")) != std::string::npos;) groupless.erase(at, 9);
    REQUIRE(groupless.find("#  Rank  3 Pid 2003 on     hostB device  1") != std::string::npos);
    const auto expected = parse_nccl_tests_log(plain, "t.log");
    REQUIRE(expected.size() == 1);
    CHECK(expected[0].nodes == 2);
    CHECK(expected[0].gpus_per_node == 2);
    for (const std::string& text : {tagged("[1,0]<stdout>:"), tagged("[1,0]<stdout>: "), tagged("[0] "),
                                    tagged("0: "), tagged("  0: "), groupless, tagged("[1,0]<stdout>:") + "\n"}) {
        CAPTURE(text.substr(0, 40));
        const auto rows = parse_nccl_tests_log(text, "t.log");
        REQUIRE(rows.size() == 1);
        CHECK(rows[0].nodes == 2);
        CHECK(rows[0].gpus_per_node == 2);
        CHECK(rows[0].bytes == expected[0].bytes);
        CHECK(rows[0].time_us == expected[0].time_us);
        CHECK(rows[0].where.line == expected[0].where.line);
    }
}

TEST_CASE("strip_launcher_tag takes off a launcher's tag and nothing else") {
    CHECK(strip_launcher_tag("[1,0]<stdout>:# nThread 1") == "# nThread 1");
    CHECK(strip_launcher_tag("[12,3]<stderr>: host: Test NCCL failure") == "host: Test NCCL failure");
    CHECK(strip_launcher_tag("[3] #  Rank  3") == "#  Rank  3");
    CHECK(strip_launcher_tag(" 12:     1024    128") == "    1024    128");
    // Not tags: a result row, NCCL_DEBUG output (host:pid:tid [dev]), half a tag.
    for (const char* line : {"        1024           128    double", "123:456:789 [0] NCCL INFO Channel 00/16",
                             "node1:456:789 [0] NCCL INFO", "[1,0]<stdin>: x", "[] x", "[1,] x", "[1]x", "12:x", "12:"})
        CHECK(strip_launcher_tag(line) == line);
}

TEST_CASE("a run nccl-tests reported failed: the error quotes it; --skip-failed-runs reads past it") {
    using dtcalc::testing::write_temp_file;
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    const std::string row2 = "        2048           256    double     sum      -1    11.00    0.19    0.19       0    11.00    0.19    0.19       0\n";
    const std::string report = "hostB: Test NCCL failure common.cu:1279 'remote process exited or there was a network "
                               "error / '\n .. hostB pid 2001: Test failure common.cu:1100\n";
    const std::string says = "nccl-tests says: hostB: Test NCCL failure common.cu:1279 'remote process exited or "
                             "there was a network error / '";
    // As nccl-tests prints a failed run (a pairwise sweep with a node down):
    // its report on line 12, right under the table's column header (line 1
    // the version, 2 the program, 3 the header line, 4-5 '#' and "Using
    // devices", 6-7 the ranks, 8-11 the column header).
    const std::string failed = header("all_reduce_perf") + report;
    CHECK_INPUT_ERROR(parse_nccl_tests_log(failed, "f.log"),
                      "f.log:12: the all_reduce_perf run failed before its first result row; " + says);
    CHECK_THROWS_AS(parse_nccl_tests_log(failed, "f.log"), NcclTestsRunFailed);
    // A log that ends after its header (the job was stopped) is a run that failed too, at its header line.
    CHECK_INPUT_ERROR(parse_nccl_tests_log(header("all_reduce_perf"), "g.log"),
                      "g.log:3: the all_reduce_perf run printed no result rows: the log ends (the job was stopped?)");
    // So is one cut off after some rows, without nccl-tests' closing lines.
    const auto cut = parse_nccl_tests_log_with_failures(header("all_reduce_perf") + row + row2, "c.log");
    CHECK(cut.rows.size() == 2);
    REQUIRE(cut.failed_runs.size() == 1);
    CHECK(cut.failed_runs[0].rows_read() == 2);
    CHECK(std::string(cut.failed_runs[0].what()) ==
          "c.log:3: the all_reduce_perf run stops after 2 result rows (the last 2048 B, on line 13) without "
          "nccl-tests' closing '# Avg bus bandwidth' line: the log ends (the job was stopped?)");

    // A failed run beside a good one in the same log (as a pairwise sweep
    // writes one log per pair of nodes, each program a run): an error at the
    // failed run's report, whichever run comes first ...
    const std::string failed_then_good = failed + header("all_reduce_perf") + row + kFooter;
    CHECK_INPUT_ERROR(parse_nccl_tests_log(failed_then_good, "h.log"),
                      "h.log:12: the all_reduce_perf run failed before its first result row; " + says);
    const std::string good_then_failed = header("all_reduce_perf") + row + kFooter + failed;
    CHECK_INPUT_ERROR(parse_nccl_tests_log(good_then_failed, "h.log"),
                      "h.log:27: the all_reduce_perf run failed before its first result row; " + says);
    // ... a run that failed after printing rows keeps them, and says which was its last ...
    const std::string failed_midway = header("all_reduce_perf") + row + report;
    const auto midway = parse_nccl_tests_log_with_failures(failed_midway, "m.log");
    CHECK(midway.rows.size() == 1);
    REQUIRE(midway.failed_runs.size() == 1);
    CHECK(midway.failed_runs[0].rows_read() == 1);
    CHECK(std::string(midway.failed_runs[0].what()) ==
          "m.log:13: the all_reduce_perf run failed after 1 result row (the last 1024 B, on line 12); " + says);
    // ... and the reader that is told to read past failures has every good row and each failed run.
    const auto both = parse_nccl_tests_log_with_failures(failed_then_good, "h.log");
    CHECK(both.rows.size() == 1);
    REQUIRE(both.failed_runs.size() == 1);
    CHECK(both.failed_runs[0].where().line == 12);
    CHECK(both.failed_runs[0].rows_read() == 0);
    // Runs that end with their closing lines are not failures, one or many.
    CHECK(parse_nccl_tests_log_with_failures(header("all_reduce_perf") + row + kFooter + header("all_reduce_perf") +
                                                 row2 + kFooter,
                                             "ok.log")
              .failed_runs.empty());

    const std::string good = write_temp_file("failed-runs-sweep/a_good.log", header("all_reduce_perf") + row + kFooter);
    const std::string bad = write_temp_file("failed-runs-sweep/b_failed.log", failed);
    const std::string partial = write_temp_file("failed-runs-sweep/c_partial.log", good_then_failed);
    const std::string folder = std::filesystem::path(good).parent_path().string();
    CHECK_INPUT_ERROR(read_measured_inputs({folder}, {}, ""),
                      bad + ":12: the all_reduce_perf run failed before its first result row; " + says);
    const MeasuredInputs kept = read_measured_inputs({folder}, {}, "", true);
    CHECK(kept.collectives.size() == 2);  // a_good's row and c_partial's good run's
    REQUIRE(kept.failed_runs.size() == 2);
    CHECK(kept.failed_runs[0].where().file == bad);
    CHECK(kept.failed_runs[0].where().line == 12);
    CHECK(kept.failed_runs[1].where().file == partial);
    CHECK(kept.failed_runs[1].where().line == 27);
    CHECK(failed_run_note(kept.failed_runs[0]) == std::string(kept.failed_runs[0].what()) +
                                                      " (left out: --skip-failed-runs)");
    const auto midway_file = write_temp_file("failed-runs-midway/m.log", failed_midway);
    const MeasuredInputs read_midway = read_measured_inputs({midway_file}, {}, "", true);
    CHECK(read_midway.collectives.size() == 1);
    REQUIRE(read_midway.failed_runs.size() == 1);
    CHECK(failed_run_note(read_midway.failed_runs[0]) ==
          midway_file + ":13: the all_reduce_perf run failed after 1 result row (the last 1024 B, on line 12); " +
              says + " (its 1 row read, the sizes after it missing: --skip-failed-runs)");
    // Nothing left to read: an error, not an empty result.
    CHECK_INPUT_ERROR(read_measured_inputs({bad}, {}, "", true),
                      bad + ":12: every input's runs failed (1 run); this one: the all_reduce_perf run failed "
                            "before its first result row; " + says);
    // Any other bad file still stops the read.
    const std::string odd = write_temp_file("failed-runs-odd/odd.log", "size,time\n1024,10\n");
    CHECK_THROWS_AS(read_measured_inputs({odd}, {}, "", true), InputError);

    // The command line: validate and calibrate say each failed run on stderr.
    using dtcalc::testing::run_dtcalc;
    const auto v = run_dtcalc("validate --dataset " + folder + " --preset h100-ib-ndr400 --skip-failed-runs");
    CHECK(v.exit_code == 0);
    CHECK(v.out.find("dtcalc: note: " + bad + ":12: the all_reduce_perf run failed before its first result row") !=
          std::string::npos);
    CHECK(v.out.find("dtcalc: note: " + partial + ":27: the all_reduce_perf run failed") != std::string::npos);
    CHECK(v.out.find("(left out: --skip-failed-runs)") != std::string::npos);
    const auto c = run_dtcalc("calibrate --preset h100-ib-ndr400 " + folder +
                              " --skip-failed-runs --no-leave-one-out --no-progress");
    CHECK(c.out.find("dtcalc: note: " + bad + ":12: the all_reduce_perf run failed before its first result row") !=
          std::string::npos);
    dtcalc::testing::check_errors({
        {"validate --dataset " + folder + " --preset h100-ib-ndr400",
         bad + ":12: the all_reduce_perf run failed before its first result row; " + says},
        {"validate --dataset " + partial + " --preset h100-ib-ndr400",
         partial + ":27: the all_reduce_perf run failed before its first result row; " + says},
        {"validate --skip-failed-runs",
         "--skip-failed-runs: only for --dataset files and folders of nccl-tests output; the gates file's datasets "
         "are read whole"},
    });
}
