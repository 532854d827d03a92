// Plans are checked before anything is built or timed, the same way from every
// front end: a plan that breaks a rule is an input error on the command line
// (exit 2, one line naming the rule and the values), and a row with its reason
// in a sweep; never a crash or an internal message. One that does not fit in
// memory stays a result with feasible false.
#include <doctest/doctest.h>

#include <filesystem>

#include <algorithm>
#include <string>
#include <vector>

#include "input_error.h"
#include "predict/predict_options.h"
#include "run_dtcalc.h"
#include "sweep/step_replay.h"

namespace {

using namespace dtcalc;
using dtcalc::testing::check_errors;
using dtcalc::testing::error_of;
using dtcalc::testing::run_dtcalc;

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModels{std::string(DTCALC_SOURCE_DIR) + "/models"};

ModelSpec dense(int layers, int heads) {
    ModelSpec m;
    m.name = "dense";
    m.layers = layers;
    m.hidden = heads * 64;
    m.ffn_hidden = 4 * m.hidden;
    m.heads = heads;
    m.kv_heads = heads;
    m.vocab = 32000;
    m.seq = 2048;
    return m;
}

bool contains(const std::vector<std::string>& all, const std::string& one) {
    return std::find(all.begin(), all.end(), one) != all.end();
}

PredictOptions options(const char* model, const char* preset) {
    PredictOptions o;
    o.model = model;
    o.system.preset = preset;
    return o;
}

}  // namespace

TEST_CASE("plan rule: vpp > 1 needs pp > 1 and the interleaved schedule") {
    ParallelPlan p;
    p.dp = 8;
    p.vpp = 2;
    p.schedule = PipelineSchedule::Interleaved;
    const std::string rule = "vpp > 1 needs pp > 1: virtual stages split each pipeline rank's layers (vpp 2, pp 1)";
    CHECK(plan_problems(dense(32, 32), p, 8) == std::vector<std::string>{rule});
    p.schedule = PipelineSchedule::OneFOneB;
    CHECK(plan_problems(dense(32, 32), p, 8) ==
          std::vector<std::string>{rule, "vpp > 1 needs the interleaved schedule (vpp 2, schedule 1f1b)"});
    p.dp = 4;
    p.pp = 2;
    p.gbs = 8;
    p.schedule = PipelineSchedule::Interleaved;
    CHECK(plan_problems(dense(32, 32), p, 8).empty());
}

TEST_CASE("plan rule: the sweep's timer is never reached with a plan the rules refuse") {
    // Each plan breaks one rule; the replay must answer with the same problems
    // as plan_problems() (and predict()), not time it.
    struct Bad {
        const char* what;
        void (*edit)(PredictOptions&);
    };
    const Bad bad[] = {
        {"vpp 2 on pp 1", [](PredictOptions& o) { o.vpp = 2; }},
        {"vpp 3 on pp 1, interleaved", [](PredictOptions& o) { o.vpp = 3; o.schedule = "interleaved"; }},
        {"vpp 4 on pp 1, gpipe", [](PredictOptions& o) { o.vpp = 4; o.schedule = "gpipe"; }},
        {"tp 3 does not divide 32 heads", [](PredictOptions& o) { o.tp = 3; o.dp = 1; o.gbs = 8; }},
        {"pp 3 does not divide 32 layers", [](PredictOptions& o) { o.pp = 3; o.dp = 1; }},
        {"pp 2 x vpp 3 does not divide 32 layers", [](PredictOptions& o) { o.pp = 2; o.vpp = 3; o.gbs = 8; }},
        {"gbs 12 not a multiple of dp 8", [](PredictOptions& o) { o.gbs = 12; }},
        {"dp x tp = 16 on 8 NPUs", [](PredictOptions& o) { o.dp = 8; o.tp = 2; }},
        {"interleaved with 3 micro-batches on pp 2", [](PredictOptions& o) { o.pp = 2; o.vpp = 2; o.gbs = 12; }},
    };
    ReplayScratch scratch;
    for (const Bad& b : bad) {
        CAPTURE(b.what);
        PredictOptions o = options("llama2-7b", "hgx-h100");
        b.edit(o);
        const PredictInputs in = resolve_prediction(o, kPresets, kModels).inputs;
        const std::vector<std::string> expected = plan_problems(in.model, in.plan, in.system.network.total_npus());
        REQUIRE(!expected.empty());
        CHECK(predict_without_schedule(in, scratch).plan_problems == expected);
        CHECK(predict(in).plan_problems == expected);
        CHECK(error_of([&] { check_plan(in); }).rfind("plan: " + expected.front(), 0) == 0);
    }
}

TEST_CASE("plan rule: the command line refuses a plan that breaks a rule, exit 2, one line") {
    const std::string seven_b = "predict --model llama2-7b --preset hgx-h100 ";
    check_errors({
        {seven_b + "--vpp 2",
         "plan: vpp > 1 needs pp > 1: virtual stages split each pipeline rank's layers (vpp 2, pp 1)"},
        {seven_b + "--vpp 3 --schedule interleaved",
         "plan: vpp > 1 needs pp > 1: virtual stages split each pipeline rank's layers (vpp 3, pp 1); "
         "layers (32) must be divisible by pp x vpp (3); the pipeline split embedding (33 slots) or loss (33 slots) "
         "divides: Megatron-Core's account_for_embedding/loss_in_pipeline_split count the embedding and the loss as "
         "layers"},
        {seven_b + "--vpp 2 --schedule gpipe",
         "plan: vpp > 1 needs pp > 1: virtual stages split each pipeline rank's layers (vpp 2, pp 1); "
         "vpp > 1 needs the interleaved schedule (vpp 2, schedule gpipe)"},
        {seven_b + "--tp 3 --dp 1 --gbs 8",
         "plan: dp x tp x pp x cp (1 x 3 x 1 x 1 = 3) must equal the NPU count (8); tp (3) must divide heads (32); "
         "tp (3) and kv_heads (32) must divide one another"},
        {seven_b + "--pp 2 --vpp 3 --gbs 8", "plan: layers (32) must be divisible by pp x vpp (6)"},
        {"predict --model gpt2 --preset hgx-h100 --tp 2", "plan: tp (2) must divide heads (25); tp (2) and kv_heads (25) must divide one another"},
        {"export-chakra --model llama2-7b --preset hgx-h100 --vpp 2 --output " + (std::filesystem::temp_directory_path() / "dtcalc-plan-checks").string(),
         "plan: vpp > 1 needs pp > 1: virtual stages split each pipeline rank's layers (vpp 2, pp 1)"},
    });
}

TEST_CASE("plan rule: a sweep point that breaks a rule is a row with its reason") {
    const auto r = run_dtcalc("sweep --model llama2-7b --preset hgx-h100 --vpp 2 -q", false);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find(",false,\"vpp > 1 needs pp > 1: virtual stages split each pipeline rank's layers (vpp 2, pp 1)\",") !=
          std::string::npos);
    // Held out: vpp over pp 1 and 2 with every schedule, tp over the heads of gpt2 (25).
    const auto many = run_dtcalc("sweep --model gpt2 --preset hgx-h100 --pp 1,2 --vpp 1..5+1 --tp 1..8 "
                                 "--schedule gpipe,1f1b,interleaved --gbs 8 -q --format jsonl",
                                 false);
    CHECK(many.exit_code == 0);
    CHECK(many.out.find("vpp > 1 needs pp > 1") != std::string::npos);
    CHECK(many.out.find("tp (2) must divide heads (25)") != std::string::npos);
    CHECK(many.out.find("layers (48) must be divisible by pp x vpp (10)") != std::string::npos);
}

TEST_CASE("plan rule: a plan that does not fit in memory is a result, not an error") {
    const auto r = run_dtcalc("predict --model llama2-70b --preset hgx-h100 --tp 8 --format json", false);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("\"feasible\": false, \"infeasible_reasons\": [\"stage 0 needs") != std::string::npos);
}
