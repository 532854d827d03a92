// Where a stage's iteration goes: wall = compute + exposed communication +
// bubble, each worked out by hand from the intervals below.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "predict/predict.h"
#include "predict/predict_options.h"
#include "predict/time_accounts.h"

namespace {

using namespace dtcalc;

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModels{std::string(DTCALC_SOURCE_DIR) + "/models"};

}  // namespace

TEST_CASE("time accounts of one stage, worked by hand") {
    // Compute   [0, 100) [150, 250) [400, 500)                      busy 300
    // TP        [100, 150)           blocking, compute waits: exposed 50
    // DP        [120, 300)           compute idles over [120, 150) and [250, 300)
    // PP        [500, 520)           the send after the last compute: exposed 20
    // Nothing runs over [300, 400): waiting for a receive, the bubble (100).
    // Wall 520 = compute 300 + exposed 120 + bubble 100.
    const std::vector<std::pair<double, double>> compute{{0, 100}, {150, 250}, {400, 500}};
    std::vector<ClassedInterval> comm{{500, 520, TrafficClass::Pipeline},
                                      {120, 300, TrafficClass::Data},
                                      {100, 150, TrafficClass::Tensor}};
    const TimeAccounts a = account_stage_time(520, 300, compute, comm);
    CHECK(a.compute_ns == 300);
    CHECK(a.comm_ns == 220);  // [100, 300) and [500, 520)
    CHECK(a.exposed_comm_ns == 120);
    CHECK(a.bubble_ns == 100);
    CHECK(a.idle_ns == 220);
    const auto& tp = a.by_class[static_cast<std::size_t>(TrafficClass::Tensor)];
    const auto& dp = a.by_class[static_cast<std::size_t>(TrafficClass::Data)];
    const auto& pp = a.by_class[static_cast<std::size_t>(TrafficClass::Pipeline)];
    CHECK(tp.comm_ns == 50);
    CHECK(tp.exposed_ns == 50);
    CHECK(dp.comm_ns == 180);
    CHECK(dp.exposed_ns == 80);  // [120, 150) beside TP, and [250, 300) alone
    CHECK(pp.comm_ns == 20);
    CHECK(pp.exposed_ns == 20);
    CHECK(a.by_class[static_cast<std::size_t>(TrafficClass::Context)].comm_ns == 0);
}

TEST_CASE("communication hidden under compute is not exposed; exposed never exceeds communication") {
    const std::vector<std::pair<double, double>> compute{{0, 1000}};
    std::vector<ClassedInterval> comm{{10, 990, TrafficClass::Data}};
    const TimeAccounts a = account_stage_time(1000, 1000, compute, comm);
    CHECK(a.comm_ns == 980);
    CHECK(a.exposed_comm_ns == 0);
    CHECK(a.bubble_ns == 0);
    CHECK(a.idle_ns == 0);
}

TEST_CASE("predict: iteration = compute + exposed + bubble; no bubble without a pipeline") {
    for (int pp : {1, 2}) {
        PredictOptions o;
        o.model = "llama2-7b";
        o.preset = "hgx-h100";
        o.tp = 4;
        o.pp = pp;
        o.gbs = 16;
        const PredictResult r = predict(resolve_prediction(o, kPresets, kModels).inputs);
        REQUIRE(r.plan_problems.empty());
        CAPTURE(pp);
        CHECK(r.compute_ns + r.exposed_comm_ns + r.bubble_ns == doctest::Approx(r.iteration_ns).epsilon(1e-12));
        CHECK(r.idle_ns == doctest::Approx(r.exposed_comm_ns + r.bubble_ns).epsilon(1e-12));
        CHECK(r.exposed_comm_ns <= r.comm_ns);
        CHECK(r.exposed_comm_ns > 0);  // blocking tensor-parallel all-reduces
        if (pp == 1) CHECK(r.bubble_ns == 0);
        else CHECK(r.bubble_ns > 0);
    }
}
