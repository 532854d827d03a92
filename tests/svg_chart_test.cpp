// The chart maths (tick placement, log scale mapping, ranges), the text
// measures, and the charts predict, sweep and collective draw: every expected
// value worked out by hand in the comments.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "report/chart_axis.h"
#include "report/collective_plot.h"
#include "report/predict_plot.h"
#include "report/svg_chart.h"
#include "sweep/sweep_plot.h"
#include "run_dtcalc.h"

namespace {

using namespace dtcalc;

void check_values(const std::vector<double>& got, const std::vector<double>& expected) {
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == doctest::Approx(expected[i]));
}

}  // namespace

TEST_CASE("nice steps: 1, 2 or 5 times a power of ten, no more than max_ticks intervals") {
    // 57.4 / 6 = 9.57: 10 is the first of 1, 2, 5, 10 x 10^0 >= 9.57.
    CHECK(nice_step(57.4, 6) == doctest::Approx(10));
    // 0.74 / 5 = 0.148: 0.2 (2 x 10^-1).
    CHECK(nice_step(0.74, 5) == doctest::Approx(0.2));
    // 3000 / 6 = 500 exactly: 5 x 10^2 itself.
    CHECK(nice_step(3000, 6) == doctest::Approx(500));
    // 11 / 10 = 1.1: 2.
    CHECK(nice_step(11, 10) == doctest::Approx(2));
}

TEST_CASE("linear ticks sit on whole multiples of the step inside the range") {
    check_values(linear_ticks(0, 57.4, 6), {0, 10, 20, 30, 40, 50});
    check_values(linear_ticks(0.13, 0.87, 5), {0.2, 0.4, 0.6, 0.8});
    // Negative to positive, step 50 (230 / 6 = 38.3 -> 50): -100, -50, 0, 50, 100.
    check_values(linear_ticks(-110, 120, 6), {-100, -50, 0, 50, 100});
    // Ends that are multiples are kept: [0, 8] step 2 (8 / 6 = 1.33 -> 2).
    check_values(linear_ticks(0, 8, 6), {0, 2, 4, 6, 8});
    CHECK(linear_ticks(5, 5, 6).empty());
}

TEST_CASE("linear ranges round out to whole steps, from zero when asked") {
    // [6.12, 6.12] from zero: span 6.12 / 6 = 1.02 -> step 2, so [0, 8].
    auto [lo, hi] = linear_range(6.12, 6.12, true, 6);
    CHECK(lo == 0);
    CHECK(hi == doctest::Approx(8));
    // [56.44, 80] from zero: 80 / 6 = 13.3 -> step 20: [0, 80].
    std::tie(lo, hi) = linear_range(56.44, 80, true, 6);
    CHECK(lo == 0);
    CHECK(hi == doctest::Approx(80));
    // [27, 43] not from zero: 16 / 6 = 2.67 -> step 5: [25, 45].
    std::tie(lo, hi) = linear_range(27, 43, false, 6);
    CHECK(lo == doctest::Approx(25));
    CHECK(hi == doctest::Approx(45));
}

TEST_CASE("a log scale maps equal ratios to equal distances") {
    // [1, 1000] over pixels 0..300: one decade per 100 px.
    const AxisScale x{1, 1000, true, 0, 300};
    CHECK(x.at(1) == doctest::Approx(0));
    CHECK(x.at(10) == doctest::Approx(100));
    CHECK(x.at(100) == doctest::Approx(200));
    CHECK(x.at(1000) == doctest::Approx(300));
    // sqrt(10) = 10^0.5: half a decade, 50 px.
    CHECK(x.at(std::sqrt(10.0)) == doctest::Approx(50));
    // A y axis grows upwards: [1 KiB, 1 MiB] = 10 doublings over pixels 400..100, 30 px per doubling.
    const AxisScale y{1024, 1048576, true, 400, 100};
    CHECK(y.at(2048) == doctest::Approx(370));
    CHECK(y.at(32768) == doctest::Approx(250));  // 2^15 = 5 doublings above 2^10
    // Linear: [0, 80] over 100..500, 5 px per unit.
    const AxisScale lin{0, 80, false, 100, 500};
    CHECK(lin.at(56.44) == doctest::Approx(382.2));
}

TEST_CASE("log ticks: 1-2-5 per decade, decades alone over more than four, powers of two") {
    check_values(log_ticks(0.7, 30, TickStyle::Decimal, 12), {1, 2, 5, 10, 20});
    // 10^-1 .. 10^5 is six decades: the powers of ten only.
    check_values(log_ticks(0.1, 1e5, TickStyle::Decimal, 12), {0.1, 1, 10, 100, 1000, 1e4, 1e5});
    // 1000 .. 70000: 2^10 .. 2^16, seven ticks.
    check_values(log_ticks(1000, 70000, TickStyle::PowersOfTwo, 12), {1024, 2048, 4096, 8192, 16384, 32768, 65536});
    // 2^10 .. 2^30 is 21 powers; at most 12 ticks: every second one (21 / 12 rounded up = 2).
    const std::vector<double> every_other = log_ticks(1024, 1073741824, TickStyle::PowersOfTwo, 12);
    REQUIRE(every_other.size() == 11);
    CHECK(every_other.front() == 1024);
    CHECK(every_other[1] == 4096);
    CHECK(every_other.back() == 1073741824);
}

TEST_CASE("log ranges: at least a factor of two, padded by 4 % of their width") {
    // [1, 10000]: 4 decades, padded by 0.16 decade at each end.
    auto [lo, hi] = log_range(1, 10000);
    CHECK(std::log10(lo) == doctest::Approx(-0.16));
    CHECK(std::log10(hi) == doctest::Approx(4.16));
    // A single value 100: widened to [100 / sqrt 2, 100 x sqrt 2], then padded by 4 % of log10 2.
    std::tie(lo, hi) = log_range(100, 100);
    CHECK(std::log10(hi) - std::log10(lo) == doctest::Approx(1.08 * std::log10(2.0)));
    CHECK(std::sqrt(lo * hi) == doctest::Approx(100));
    CHECK(wants_log_axis(1, 21));
    CHECK_FALSE(wants_log_axis(1, 20));
}

TEST_CASE("text: widths, wrapping to a width, escaping") {
    // 10 characters at 12 px: 10 x 12 x 0.6 = 72 px; "µs" is two characters, not three bytes.
    CHECK(text_width("0123456789", 12) == doctest::Approx(72));
    CHECK(text_width("\xc2\xb5s", 10) == doctest::Approx(12));
    // At 10 px a character is 6 px: 60 px hold 10 characters.
    const std::vector<std::string> lines = wrap_text("one two three four five", 10, 60);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "one two");  // "one two three" would be 13
    CHECK(lines[1] == "three four");
    CHECK(lines[2] == "five");
    for (const std::string& l : lines) CHECK(text_width(l, 10) <= 60);
    // A word wider than the line is cut and marked: 7 characters fit in 42 px, 4 of them before "...".
    CHECK(wrap_text("abcdefghijkl", 10, 42) == std::vector<std::string>{"abcd..."});
    CHECK(svg_escape("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
    CHECK(svg_escape(std::string("x\x01y")) == "xy");
}

TEST_CASE("colours and markers: no pair repeats among the first 50") {
    for (std::size_t i = 0; i < 50; ++i)
        for (std::size_t j = i + 1; j < 50; ++j)
            CHECK_FALSE((std::string(chart_color(i)) == chart_color(j) && chart_marker(i) == chart_marker(j)));
}

TEST_CASE("predict's time bar adds up to the iteration, exposed time shared among groups") {
    // Iteration 10 s = compute 6 + exposed 3 + bubble 1. TP exposed 2 s and
    // DP exposed 2 s, in flight together for 1 s: together 4 s, the union 3 s.
    // Each gets 2 x 3 / 4 = 1.5 s of the bar.
    PredictResult r;
    r.iteration_ns = 10e9;
    r.compute_ns = 6e9;
    r.exposed_comm_ns = 3e9;
    r.comm_ns = 5e9;
    r.bubble_ns = 1e9;
    r.comm_by_class[static_cast<std::size_t>(TrafficClass::Tensor)] = {3e9, 2e9};
    r.comm_by_class[static_cast<std::size_t>(TrafficClass::Data)] = {4e9, 2e9};
    const BarChart chart = predict_time_chart(r);
    CHECK(chart.unit == "s");
    REQUIRE(chart.rows.size() == 1);
    const std::vector<BarSegment>& s = chart.rows[0].segments;
    REQUIRE(s.size() == 4);
    CHECK(s[0].name == "compute");
    CHECK(s[0].value == doctest::Approx(6));
    CHECK(s[1].name == "tp exposed");
    CHECK(s[1].value == doctest::Approx(1.5));
    CHECK(s[2].name == "dp exposed");
    CHECK(s[2].value == doctest::Approx(1.5));
    CHECK(s[3].name == "pipeline bubble");
    CHECK(s[3].value == doctest::Approx(1));
    CHECK(chart.notes.front().find("add up to 4.000 s, the exposed total is 3.000 s") != std::string::npos);

    // Without the groups (a sweep not asked for them): one exposed segment; in ms below 1 s.
    r.iteration_ns = 10e6;
    r.compute_ns = 6e6;
    r.exposed_comm_ns = 3e6;
    r.bubble_ns = 1e6;
    r.comm_by_class_known = false;
    const BarChart plain = predict_time_chart(r);
    CHECK(plain.unit == "ms");
    REQUIRE(plain.rows[0].segments.size() == 3);
    CHECK(plain.rows[0].segments[1].name == "exposed communication");
    CHECK(plain.rows[0].segments[1].value == doctest::Approx(3));
}

TEST_CASE("the sweep's chart: fitting and not fitting apart, the Pareto front, the best point") {
    // (time ms, memory GiB, fits):
    //   0: (10, 90, no)   fastest, most memory: on the front
    //   1: (12, 50, yes)  on the front; the best by time that fits
    //   2: (13, 60, yes)  beaten by 1 on both: off the front
    //   3: (20, 30, yes)  on the front
    //   4: cannot run
    //   5: (25, 30, yes)  as much memory as 3 and slower: off the front
    const double GiB = 1073741824.0;
    std::vector<RankedPoint> points(6);
    const double t[] = {10, 12, 13, 20, 0, 25}, m[] = {90, 50, 60, 30, 0, 30};
    const bool fits[] = {false, true, true, true, false, true};
    for (std::size_t i = 0; i < 6; ++i) {
        points[i].point = i;
        points[i].runs = i != 4;
        points[i].fits = fits[i];
        points[i].iteration_ns = t[i] * 1e6;
        points[i].memory_bytes = m[i] * GiB;
        points[i].memory_limit_bytes = 80 * GiB;  // point 0 (90 GiB) is over it
    }
    const XyChart chart = sweep_case_chart(
        points, SweepObjective::Time, [](const RankedPoint& p) { return "point " + std::to_string(p.point); }, "t");
    REQUIRE(chart.series.size() == 3);
    const Series& front = chart.series[0];
    CHECK(front.line);
    REQUIRE(front.points.size() == 3);
    CHECK(front.points[0] == std::pair{10.0, 90.0});
    CHECK(front.points[1] == std::pair{12.0, 50.0});
    CHECK(front.points[2] == std::pair{20.0, 30.0});
    CHECK(chart.series[1].name == "fits in memory (4)");
    CHECK(chart.series[2].name == "does not fit (1)");
    CHECK(chart.x.label == "iteration time (ms)");
    REQUIRE(chart.callouts.size() == 1);
    CHECK(chart.callouts[0].x == 12);
    CHECK(chart.callouts[0].y == 50);
    CHECK(chart.notes[0] == "best by time that fits in memory: point 1 (12.000 ms, 50.00 GiB)");
    CHECK(chart.notes[1] == "1 of 6 points cannot run or are not allowed (not drawn).");
    REQUIRE(chart.y_lines.size() == 1);
    CHECK(chart.y_lines[0].y == 80);
    CHECK(chart.y_lines[0].label == "memory limit 80.00 GiB");

    // On a system that states no memory capacity nothing was checked: such
    // points are neither "fits" nor "does not fit", and no limit is drawn.
    // predict calls every point that runs feasible when there is no limit.
    for (RankedPoint& p : points) {
        p.memory_limit_bytes = 0;
        p.fits = p.runs;
    }
    const XyChart unknown = sweep_case_chart(points, SweepObjective::Time, [](const RankedPoint&) { return "x"; }, "t");
    REQUIRE(unknown.series.size() == 4);
    CHECK(unknown.series[1].name.empty());  // no "fits in memory (0)" in the legend
    CHECK(unknown.series[2].name.empty());
    CHECK(unknown.series[3].name == "memory not checked: no capacity known (5)");
    CHECK(unknown.notes[0] == "best by time (memory not checked): x (10.000 ms, 90.00 GiB)");
    CHECK(unknown.y_lines.empty());
}

TEST_CASE("collective plots: against size per GPU count, or against GPU count") {
    auto row = [](std::uint64_t bytes, std::int64_t npus, double ns) {
        CollectiveRow r;
        r.size_bytes = bytes;
        r.npus = npus;
        r.result.time_ns = ns;
        return r;
    };
    // One size, three counts: against GPUs. 1 MiB all-reduce on 8 GPUs in 100 us:
    // algbw 1048576 / 100000 ns = 10.48576 GB/s, busbw x 2 x 7 / 8 = 18.35008.
    const CollectivePlot by_count =
        collective_plot_from_rows({row(1048576, 8, 1e5), row(1048576, 16, 2e5), row(1048576, 32, 3e5)}, "preset p");
    CHECK(by_count.x == CollectivePlotX::Gpus);
    REQUIRE(by_count.series.size() == 1);
    REQUIRE(by_count.series[0].points.size() == 3);
    CHECK(by_count.series[0].points[0].x == 8);
    CHECK(by_count.series[0].points[0].time_us == doctest::Approx(100));
    CHECK(by_count.series[0].points[0].busbw_gbps == doctest::Approx(18.35008));
    // Two sizes on two counts: against size, a series per count.
    const CollectivePlot grid = collective_plot_from_rows(
        {row(1024, 8, 1e3), row(2048, 8, 2e3), row(1024, 16, 3e3), row(2048, 16, 4e3)}, "preset p");
    CHECK(grid.x == CollectivePlotX::Size);
    REQUIRE(grid.series.size() == 2);
    CHECK(grid.series[1].name == "16 NPUs");
    CHECK(grid.series[1].points[1].x == 2048);
    CHECK(grid.series[1].points[1].time_us == doctest::Approx(4));
    const std::string svg = collective_plot_svg(grid);
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(svg.find(">16 NPUs</text>") != std::string::npos);
    CHECK(svg.find(">1 KiB</text>") != std::string::npos);
    CHECK(svg.find("nan") == std::string::npos);
}

TEST_CASE("--plot where nothing can be written: exit 2 naming the flag, nothing on stdout") {
    using dtcalc::testing::check_errors;
    const std::string bad = "/nonexistent-dir/x.svg";
    check_errors({
        {"predict --scenario " DTCALC_VALIDATION_DIR "/scenarios/t3.2-gpt3-175b-pp8-tp8-64xh100.toml --plot " + bad,
         "--plot: cannot write '" + bad + "'"},
        {"collective all-reduce --size 1MiB --preset lab-system1 --plot " + bad, "--plot: cannot write '" + bad + "'"},
        // Checked before the sweep runs: no rows are written.
        {"sweep --model llama2-70b --preset lab-system1 --gbs 64 --seq 1024 --tp 4,8 --quiet --plot " + bad,
         "--plot: cannot write '" + bad + "'"},
    });
}

TEST_CASE("one value on a linear axis: a range around it") {
    // 50 alone, not from zero: 45..55 (10 % either side), step 2 (10 / 6 = 1.67 -> 2): [44, 56].
    auto [lo, hi] = linear_range(50, 50, false, 6);
    CHECK(lo == doctest::Approx(44));
    CHECK(hi == doctest::Approx(56));
    // 0 alone from zero: [0, 1], step 0.2 (1 / 6 = 0.167 -> 0.2).
    std::tie(lo, hi) = linear_range(0, 0, true, 6);
    CHECK(lo == 0);
    CHECK(hi == doctest::Approx(1));
}
