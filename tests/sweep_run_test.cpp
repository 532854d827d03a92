// Running sweeps: the same bytes whatever the thread count or sharding, rows
// that match `predict`, rankings, batch mode, and the command line's errors.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "run_dtcalc.h"
#include "config/config_readers.h"
#include "sweep/batch_sweep.h"
#include "temp_file.h"

using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;

namespace {

using namespace dtcalc;

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModels{std::string(DTCALC_SOURCE_DIR) + "/models"};
const std::string kLab = std::string(DTCALC_SOURCE_DIR) + "/examples/lab-dse/lab-dse.toml";

SweepSpec lab_spec() { return read_sweep_spec(read_toml_file(kLab), std::string(DTCALC_SOURCE_DIR) + "/examples/lab-dse"); }

std::string run_to_string(const Sweep& sweep, SweepSettings settings) {
    std::string out;
    sweep.run(settings, [&](std::string_view s) { out += s; });
    return out;
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("the lab sweep writes the same bytes with 1 or 4 threads, and its three shards concatenate into it") {
    const Sweep sweep(lab_spec(), kPresets, kModels);
    CHECK(sweep.space().size() == 112);  // 56 points per case, two cases
    for (SweepFormat format : {SweepFormat::Csv, SweepFormat::JsonLines}) {
        SweepSettings settings;
        settings.format = format;
        settings.threads = 1;
        const std::string one = run_to_string(sweep, settings);
        settings.threads = 4;
        const std::string four = run_to_string(sweep, settings);
        CHECK(one == four);
        std::string shards;
        for (int i = 1; i <= 3; ++i) {
            settings.shard_index = i;
            settings.shard_count = 3;
            shards += run_to_string(sweep, settings);
        }
        CHECK(one == shards);
        CHECK(lines(one) == (format == SweepFormat::Csv ? 113 : 112));  // a header line for CSV
    }
}

TEST_CASE("a sweep row carries predict's own CSV row for the point, byte for byte") {
    const Run predict = run_dtcalc(std::string("predict --model llama2-70b --preset lab-system1 --gbs 512 --seq 1024 ") +
                                   "--dp 8 --tp 8 --recompute full --format csv");
    const Run sweep = run_dtcalc(std::string("sweep --model llama2-70b --preset lab-system1 --gbs 512 --seq 1024 ") +
                                 "--dp 8 --tp 4,8 --recompute full --quiet --threads 2 --comm-by-group");
    REQUIRE(predict.exit_code == 0);
    REQUIRE(sweep.exit_code == 0);
    std::istringstream p(predict.out), s(sweep.out);
    std::string predict_header, predict_row, sweep_header, row0, row1;
    std::getline(p, predict_header);
    std::getline(p, predict_row);
    std::getline(s, sweep_header);
    std::getline(s, row0);
    std::getline(s, row1);
    CHECK(sweep_header == "point," + predict_header + ",cost_per_mtok");
    CHECK(row0.find(",true,") == std::string::npos);  // dp 8 x tp 4 is 32 of the 64 NPUs: cannot run
    CHECK(row1.rfind("1," + predict_row + ",", 0) == 0);
}

TEST_CASE("rows of points that cannot run keep the plan, leave the results empty and say why") {
    SweepSpec spec = read_sweep_spec(parse_toml_text(R"(
model = "gpt3-175b"
preset = "lab-system1"
tp = [8, 64]
gbs = 8
[constraints]
rules = ["tp <= 32 || gbs > 8"]
)",
                                                     "spec.toml"),
                                     "");
    const Sweep sweep(std::move(spec), kPresets, kModels);
    SweepSettings settings;
    settings.threads = 1;
    const std::string out = run_to_string(sweep, settings);
    std::istringstream in(out);
    std::string header, ok, broken;
    std::getline(in, header);
    std::getline(in, ok);
    std::getline(in, broken);
    CHECK(ok.find(",true,") != std::string::npos);
    // dp defaults to 64 / 64 = 1; the rule fails before predict runs.
    // The idle time and the cost are empty too (communication by group is not asked for).
    CHECK(broken == "1,gpt3-175b,preset lab-system1,64,1,64,1,1,1,0,1,1f1b,1,8,2048,none,0,bf16,,,,,,,,,,,false,"
                    "\"rule 'tp <= 32 || gbs > 8' does not hold\",,");
    settings.feasible_only = true;
    CHECK(lines(run_to_string(sweep, settings)) == 2);  // the header and the point that runs
}

TEST_CASE("the lab summary ranks by time, finds the best that fits and a Pareto front") {
    const Sweep sweep(lab_spec(), kPresets, kModels);
    SweepSettings settings;
    settings.threads = 2;
    const SweepReport report = sweep.run(settings, [](std::string_view) {});
    REQUIRE(report.records.size() == 112);
    std::vector<RankedPoint> llama(report.records.begin(), report.records.begin() + 56);
    const Ranking r = rank_points(llama, SweepObjective::Time, 5);
    REQUIRE(r.best.size() == 5);
    for (std::size_t i = 1; i < r.best.size(); ++i) CHECK(r.best[i - 1].iteration_ns <= r.best[i].iteration_ns);
    REQUIRE(r.best_fitting);
    CHECK(r.best_fitting->memory_bytes <= 80.0 * 1073741824.0);
    for (const RankedPoint& p : llama)  // nothing that fits is faster
        if (p.fits) CHECK(p.iteration_ns >= r.best_fitting->iteration_ns);
    // The front: time up, memory strictly down, and no point beats one of its points on both.
    for (std::size_t i = 1; i < r.pareto.size(); ++i) {
        CHECK(r.pareto[i - 1].iteration_ns <= r.pareto[i].iteration_ns);
        CHECK(r.pareto[i - 1].memory_bytes > r.pareto[i].memory_bytes);
    }
    for (const RankedPoint& f : r.pareto)
        for (const RankedPoint& p : llama)
            if (p.runs) CHECK_FALSE((p.iteration_ns < f.iteration_ns && p.memory_bytes < f.memory_bytes));
    std::ostringstream summary;
    sweep.write_summary(summary, report, TimeUnit::Seconds);
    CHECK(summary.str().find("llama70b on system 1: 56 points") != std::string::npos);
    CHECK(summary.str().find("gpt175b on system 2: 56 points: 2 cannot run") != std::string::npos);  // tp 64, 96 heads
}

TEST_CASE("batch mode: rows in, the same rows with predict's columns out") {
    const std::string csv = "# note,tp,dp,recompute\nfirst,8,8,full\n\"second, quoted\",4,16,\n";
    SweepSpec spec;
    spec.set(*find_parameter("model"), {{0, "llama2-70b"}}, {});
    spec.set(*find_parameter("preset"), {{0, "lab-system1"}}, {});
    const BatchSweep batch(std::move(spec), csv, "rows.csv", kPresets, kModels, false);
    SweepSettings settings;
    settings.threads = 2;
    std::string out;
    const BatchReport report = batch.run(settings, [&](std::string_view s) { out += s; });
    CHECK(report.records.size() == 2);
    std::istringstream in(out);
    std::string header, first, second;
    std::getline(in, header);
    std::getline(in, first);
    std::getline(in, second);
    // The file's own columns first; predict's dp, tp and recompute are not repeated.
    CHECK(header.rfind("# note,tp,dp,recompute,model,system,npus,pp,cp,", 0) == 0);
    CHECK(first.rfind("first,8,8,full,llama2-70b,preset lab-system1,64,1,1,", 0) == 0);
    CHECK(second.rfind("\"second, quoted\",4,16,,llama2-70b,", 0) == 0);
}

TEST_CASE("batch mode: a row with a missing column is an error naming the row, or reported and skipped with keep-going") {
    const std::string csv = "tp,dp\n8,8\n4\n2,32\n";
    auto spec = [] {
        SweepSpec s;
        s.set(*find_parameter("model"), {{0, "llama2-70b"}}, {});
        s.set(*find_parameter("preset"), {{0, "lab-system1"}}, {});
        return s;
    };
    try {
        BatchSweep batch(spec(), csv, "rows.csv", kPresets, kModels, false);
        FAIL("a missing column must be an error");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == "rows.csv:3: the row has 1 field, the header 2 (a column is missing or extra)");
    }
    const BatchSweep batch(spec(), csv, "rows.csv", kPresets, kModels, true);
    REQUIRE(batch.bad_rows().size() == 1);
    std::string out;
    SweepSettings settings;
    const BatchReport report = batch.run(settings, [&](std::string_view s) { out += s; });
    CHECK(report.records.size() == 2);
    CHECK(lines(out) == 4);  // header + every row, the bad one with its reason
    CHECK(out.find("false,\"rows.csv:3: the row has 1 field, the header 2 (a column is missing or extra)\"") != std::string::npos);
}

TEST_CASE("batch mode: an unknown column and an unreadable value are errors naming the column and row") {
    auto spec = [] {
        SweepSpec s;
        s.set(*find_parameter("model"), {{0, "llama2-70b"}}, {});
        s.set(*find_parameter("preset"), {{0, "lab-system1"}}, {});
        return s;
    };
    auto error = [&](const std::string& csv) {
        try {
            BatchSweep batch(spec(), csv, "rows.csv", kPresets, kModels, false);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error("tp,tensor_parallel\n8,8\n") ==
          "rows.csv:1: column 2 'tensor_parallel': unknown parameter (columns starting with '#' are carried through)");
    CHECK(error("tp,dpp\n8,8\n") == "rows.csv:1: column 2 'dpp': unknown parameter (did you mean 'dp'?) (columns starting with '#' are carried through)");
    CHECK(error("tp,dp\n8,eight\n") == "rows.csv:2: dp: expected a positive integer, got 'eight'");
    CHECK(error("tp,recompute\n8,most\n") == "rows.csv:2: recompute: expected none, selective or full, got 'most'");
    CHECK(error("tp,model\n8,no-such-model\n").rfind("rows.csv:2: ", 0) == 0);
}

TEST_CASE("sweep on the command line: bad input exits 2 naming the key, results exit 0") {
    const std::string bad = testing::write_temp_file("bad-sweep.toml", "model = \"llama2-70b\"\ntp = [1, 2\n");
    Run r = run_dtcalc("sweep " + bad);
    CHECK(r.exit_code == 2);
    CHECK(r.out.rfind("dtcalc: error: " + bad + ":2:", 0) == 0);
    r = run_dtcalc("sweep --model llama2-70b --preset lab-system1 --tp 16..4");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: --tp: the range '16..4' is empty\n");
    r = run_dtcalc("sweep --model llama2-70b --preset lab-system1 --shard 4/3");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: --shard: expected i/n with 1 <= i <= n (like 2/8), got '4/3'\n");
    const std::string rows = testing::write_temp_file("rows.csv", "tp,dp\n8,8\n4\n");
    r = run_dtcalc("sweep --model llama2-70b --preset lab-system1 --input " + rows + " --quiet");
    CHECK(r.exit_code == 2);
    CHECK(r.out == "dtcalc: error: " + rows + ":3: the row has 1 field, the header 2 (a column is missing or extra) "
                   "(nothing written; --keep-going writes the other rows and this one with its reason)\n");
    r = run_dtcalc("sweep --model llama2-70b --preset lab-system1 --input " + rows + " --quiet --keep-going");
    CHECK(r.exit_code == 2);  // the rows are written, and the bad one still fails the run
    CHECK(lines(r.out) == 5);  // the report, header, two rows, the closing error
    // Plans that cannot run are rows, not errors.
    r = run_dtcalc("sweep --model gpt3-175b --preset lab-system1 --tp 64 --quiet");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("tp (64) must divide heads (96)") != std::string::npos);
}
