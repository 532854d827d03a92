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
    // In the order the stage runs them:
    //   compute   [0, 100)
    //   TP        [100, 150)     blocking: compute waits for it
    //   DP        [120, 300)     a gradient bucket
    //   compute   [150, 250)
    //   receive   arrives at 400: nothing else ran after 300, a bubble of 100
    //   compute   [400, 500)
    //   PP send   [500, 520)
    // Compute 300; communication [100, 300) and [500, 520) = 220; wall 520;
    // idle 220 = bubble 100 + exposed 120 (compute waits over [100, 150),
    // [250, 300) and [500, 520)).
    StageTimeAccountant s;
    s.compute(0, 100);
    s.communicate(100, 150, TrafficClass::Tensor);
    s.communicate(120, 300, TrafficClass::Data);
    s.compute(150, 250);
    s.receive(400);
    s.compute(400, 500);
    s.communicate(500, 520, TrafficClass::Pipeline);
    const TimeAccounts a = s.finish(520);
    CHECK(a.compute_ns == 300);
    CHECK(a.comm_ns == 220);
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

TEST_CASE("communication hidden under compute is not exposed; touching intervals count once") {
    StageTimeAccountant s;
    s.compute(0, 500);
    s.communicate(10, 400, TrafficClass::Data);
    s.communicate(400, 990, TrafficClass::Data);  // touches the one before: one interval [10, 990)
    s.compute(500, 1000);
    const TimeAccounts a = s.finish(1000);
    CHECK(a.comm_ns == 980);
    CHECK(a.by_class[static_cast<std::size_t>(TrafficClass::Data)].comm_ns == 980);
    CHECK(a.exposed_comm_ns == 0);
    CHECK(a.bubble_ns == 0);
    CHECK(a.idle_ns == 0);
}

TEST_CASE("the communication union: runs in order, and an interval that starts before the run") {
    // In order: [0, 10) [20, 30) [30, 35) [50, 60): runs [0, 10) [20, 35) [50, 60), 10 + 15 + 10 = 35.
    StageTimeAccountant in_order;
    in_order.clear(false);
    in_order.communicate(0, 10, TrafficClass::Tensor);
    in_order.communicate(20, 30, TrafficClass::Pipeline);
    in_order.communicate(30, 35, TrafficClass::Tensor);  // touches the run: merged
    in_order.communicate(50, 60, TrafficClass::Data);
    CHECK(in_order.finish(60).comm_ns == 35);
    // Out of order: [20, 30), then [40, 50), then [5, 25) (a queued collective
    // that started earlier), then [45, 70): runs [5, 30) and [40, 70), 25 + 30 = 55.
    StageTimeAccountant out_of_order;
    out_of_order.clear(false);
    out_of_order.communicate(20, 30, TrafficClass::Tensor);
    out_of_order.communicate(40, 50, TrafficClass::Data);
    out_of_order.communicate(5, 25, TrafficClass::Data);
    out_of_order.communicate(45, 70, TrafficClass::Pipeline);
    CHECK(out_of_order.finish(70).comm_ns == 55);
}

TEST_CASE("predict: iteration = compute + exposed + bubble; no bubble without a pipeline") {
    for (int pp : {1, 2}) {
        PredictOptions o;
        o.model = "llama2-7b";
        o.system.preset = "hgx-h100";
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

TEST_CASE("unfused attention costs time and stores the s x s scores; flash does neither") {
    PredictOptions o;
    o.model = "llama2-7b";
    o.system.preset = "hgx-h100";
    o.tp = 8;
    o.gbs = 8;
    o.seq = 4096;
    const PredictResult flash = predict(resolve_prediction(o, kPresets, kModels).inputs);
    o.attention = "unfused";
    const PredictResult unfused = predict(resolve_prediction(o, kPresets, kModels).inputs);
    CHECK(unfused.compute_ns > flash.compute_ns);
    // 32 layers x 5 a s bytes per token (a 32 heads, s 4096) over t = 8, 4096 tokens:
    // 32 x 5 x 32 x 4096 / 8 x 4096 = 10,737,418,240 B more.
    CHECK(unfused.memory.breakdown.activations - flash.memory.breakdown.activations ==
          doctest::Approx(10737418240.0).epsilon(1e-9));
}

TEST_CASE("Llama 3.1 405B on pp 8 x vpp 8 runs with the embedding and loss counted as layers, not evenly") {
    PredictOptions o;
    o.model = "llama3.1-405b";
    o.system.preset = "h100-ib-ndr400";
    o.system.nodes = 128;
    o.system.gpus_per_node = 8;
    o.tp = 8;
    o.pp = 8;
    o.cp = 2;
    o.vpp = 8;
    o.gbs = 512;
    o.seq = 8192;
    o.sequence_parallel = true;
    o.zero = 1;
    const PredictInputs even = resolve_prediction(o, kPresets, kModels).inputs;
    const std::vector<std::string> problems = plan_problems(even.model, even.plan, 1024);
    REQUIRE(problems.size() == 1);
    // 126 + 2 = 128 slots over 64 chunks; 127 (either one alone) does not divide.
    CHECK(problems[0] ==
          "layers (126) must be divisible by pp x vpp (64); the pipeline split embedding-and-loss (128 slots) divides: "
          "Megatron-Core's account_for_embedding/loss_in_pipeline_split count the embedding and the loss as layers");
    o.pipeline_split = "embedding-and-loss";
    const PredictResult r = predict(resolve_prediction(o, kPresets, kModels).inputs);
    REQUIRE(r.plan_problems.empty());
    CHECK(r.iteration_ns > 0);
    CHECK(r.feasible);  // fits an 80 GB H100, as the published run did
}
