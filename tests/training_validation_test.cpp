// predict against published training throughputs (validation/training): the
// median absolute error must stay within 5 % and no case above 12 %.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "predict/predict.h"
#include "predict/predict_options.h"
#include "predict/training_cases.h"
#include "temp_file.h"

using namespace dtcalc;

TEST_CASE("published training throughputs: median error <= 5 %, none above 12 %") {
    const std::string dir = std::string(DTCALC_VALIDATION_DIR) + "/training";
    const std::vector<TrainingCase> cases = read_training_cases(dir + "/cases.csv", "h100-ib-ndr400");
    REQUIRE(cases.size() >= 20);
    const std::vector<std::string> presets{DTCALC_PRESETS_DIR};
    const std::vector<std::string> models{std::string(DTCALC_PRESETS_DIR) + "/../models"};
    std::vector<double> errors;
    for (const TrainingCase& c : cases) {
        const TrainingCaseResult r = evaluate_training_case(c, presets, models);
        INFO(c.id << " " << c.metric << ": predicted " << r.predicted << ", measured " << c.measured);
        CHECK(std::fabs(r.error) <= 0.12);
        errors.push_back(std::fabs(r.error));
    }
    std::sort(errors.begin(), errors.end());
    const double median = errors.size() % 2 ? errors[errors.size() / 2]
                                            : (errors[errors.size() / 2 - 1] + errors[errors.size() / 2]) / 2;
    MESSAGE("median |error| " << 100 * median << " %, max " << 100 * errors.back() << " % over " << errors.size() << " cases");
    CHECK(median <= 0.05);
}

TEST_CASE("every published run's plan fits the memory of its GPU (80 GB H100)") {
    // These plans ran: a model that reports one of them out of memory is wrong about
    // memory, whatever its throughput. Each must be feasible with its breakdown within 80 GiB.
    const std::string dir = std::string(DTCALC_VALIDATION_DIR) + "/training";
    const std::vector<TrainingCase> cases = read_training_cases(dir + "/cases.csv", "h100-ib-ndr400");
    const std::vector<std::string> presets{DTCALC_PRESETS_DIR};
    const std::vector<std::string> models{std::string(DTCALC_PRESETS_DIR) + "/../models", dir + "/models"};
    for (const TrainingCase& c : cases) {
        PredictOptions options = c.options;
        options.memory_limit.clear();  // the reader lifts the limit to judge time alone: back to the GPU's 80 GiB
        const ResolvedPrediction resolved = resolve_prediction(options, presets, models);
        const PredictResult r = predict(resolved.inputs);
        INFO(c.id << ": " << r.memory.breakdown.total() / 1073741824.0 << " GiB, "
                  << (r.infeasible_reasons.empty() ? "" : r.infeasible_reasons.front()));
        CHECK(r.feasible);
        CHECK(r.memory.breakdown.total() > 0);
        CHECK(r.memory.breakdown.total() <= 80.0 * 1073741824.0);
    }
}

TEST_CASE("a cases CSV reads its columns by name: in any order, with more plan options") {
    // The required columns shuffled, and two plan options cases.csv does not have:
    // gradients reduced in bf16 and unfused attention, which the megatron-core recipe
    // would otherwise set to fp32 and flash.
    const std::string path = dtcalc::testing::write_temp_file(
        "training-cases-by-name.csv",
        "model,case,grad_reduce_in_fp32,framework,nodes,gpus_per_node,dp,tp,pp,cp,vpp,sequence_parallel,"
        "tp_comm_overlap,mbs,gbs,seq,precision,zero,recompute,attention,source,measured,metric\n"
        "llama2-7b,run-1,false,megatron-core,1,8,8,1,1,1,1,0,0,1,64,4096,bf16,1,none,unfused,a log,1234.5,"
        "tokens_per_s_per_gpu\n");
    const std::vector<TrainingCase> cases = read_training_cases(path, "hgx-h100");
    REQUIRE(cases.size() == 1);
    const TrainingCase& c = cases[0];
    CHECK(c.id == "run-1");
    CHECK(c.options.model == "llama2-7b");
    CHECK(c.metric == "tokens_per_s_per_gpu");
    CHECK(c.measured == 1234.5);
    CHECK(c.source == "a log");
    CHECK(c.options.zero == 1);
    CHECK(c.options.gbs == 64);
    CHECK_FALSE(c.options.grad_reduce_in_fp32);
    CHECK(c.options.attention == "unfused");
    // Given explicitly, so the recipe's defaults do not override them.
    const std::vector<std::string> presets{DTCALC_PRESETS_DIR};
    const std::vector<std::string> models{std::string(DTCALC_PRESETS_DIR) + "/../models"};
    const ResolvedPrediction r = resolve_prediction(c.options, presets, models);
    CHECK_FALSE(r.inputs.plan.grad_reduce_in_fp32);
    CHECK(r.inputs.plan.attention == AttentionKernel::Unfused);
}

TEST_CASE("a cases CSV as a spreadsheet saves it: CRLF line ends, a quoted source, an empty cell leaves the recipe's value") {
    // Two runs of one model with the nemo recipe (bf16 gradient reduction). The first
    // leaves grad_reduce_in_fp32 empty: the recipe's bf16 stays. The second gives 1:
    // fp32. A required column left empty is an error naming its row and column.
    const std::string header =
        "case,model,framework,nodes,gpus_per_node,dp,tp,pp,cp,vpp,sequence_parallel,tp_comm_overlap,"
        "grad_reduce_in_fp32,mbs,gbs,seq,precision,zero,recompute,metric,measured,source\r\n";
    const std::string path = dtcalc::testing::write_temp_file(
        "training-cases-crlf.csv",
        header + "a,llama2-7b,nemo,1,8,8,1,1,1,1,0,0,,1,64,4096,bf16,1,none,tokens_per_s_per_gpu,1000,\"log, run a\"\r\n" +
            "b,llama2-7b,nemo,1,8,8,1,1,1,1,0,0,1,1,64,4096,bf16,1,none,tokens_per_s_per_gpu,900,log b\r\n");
    const std::vector<TrainingCase> cases = read_training_cases(path, "hgx-h100");
    REQUIRE(cases.size() == 2);
    CHECK(cases[0].source == "log, run a");
    CHECK(cases[1].source == "log b");
    CHECK(cases[1].line == 3);
    const std::vector<std::string> presets{DTCALC_PRESETS_DIR};
    const std::vector<std::string> models{std::string(DTCALC_PRESETS_DIR) + "/../models"};
    CHECK_FALSE(resolve_prediction(cases[0].options, presets, models).inputs.plan.grad_reduce_in_fp32);
    CHECK(resolve_prediction(cases[1].options, presets, models).inputs.plan.grad_reduce_in_fp32);

    const std::string missing = dtcalc::testing::write_temp_file(
        "training-cases-empty-tp.csv",
        header + "a,llama2-7b,nemo,1,8,8,,1,1,1,0,0,,1,64,4096,bf16,1,none,tokens_per_s_per_gpu,1000,log\r\n");
    std::string error;
    try {
        read_training_cases(missing, "hgx-h100");
    } catch (const std::exception& e) {
        error = e.what();
    }
    CHECK(error.find(missing + ":2: tp: expected") == 0);
}
