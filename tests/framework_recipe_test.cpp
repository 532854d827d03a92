// Framework recipes (config/framework_recipe.h, predict/framework_defaults.h):
// a recipe fills the plan options a caller did not give, an explicit option
// always wins (flag, scenario key, sweep parameter), the report names the
// recipe, and a recipe that cannot be used is an error at its line.
#include <doctest/doctest.h>

#include <string>

#include "config/framework_recipe.h"
#include "predict/framework_defaults.h"
#include "predict/option_schema.h"
#include "predict/predict_options.h"
#include "run_dtcalc.h"
#include "temp_file.h"

namespace {

using namespace dtcalc;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModels{std::string(DTCALC_SOURCE_DIR) + "/models"};

ParallelPlan plan_of(PredictOptions o) {
    o.model = "llama2-7b";
    o.system.preset = "hgx-h100";
    return resolve_prediction(o, kPresets, kModels).inputs.plan;
}

std::string error_of(const std::string& framework) {
    PredictOptions o;
    o.framework = framework;
    try {
        plan_of(o);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("the four recipes ship and each sets what its sources say") {
    const std::vector<std::string> names = list_frameworks(framework_dirs(kPresets));
    CHECK(names == std::vector<std::string>{"megatron-2022", "megatron-core", "nemo", "torchtitan"});

    // megatron-core: Megatron-LM's command-line defaults, which are also the
    // options' own defaults (no flag given: no SP, no overlap, no distributed
    // optimizer, no recomputation, TE's fused attention, an even split).
    PredictOptions none;
    const ParallelPlan core = plan_of(none);
    CHECK(!core.sequence_parallel);
    CHECK(!core.tp_comm_overlap);
    CHECK(core.zero == 0);
    CHECK(core.recompute == Recompute::None);
    CHECK(core.attention == AttentionKernel::Flash);
    CHECK(core.split == PipelineSplit::Even);

    // NeMo's performance recipes: SP, TP overlap (userbuffers), the distributed optimizer.
    PredictOptions nemo;
    nemo.framework = "nemo";
    const ParallelPlan n = plan_of(nemo);
    CHECK(n.sequence_parallel);
    CHECK(n.tp_comm_overlap);
    CHECK(n.zero == 1);

    // TorchTitan: FSDP2 (ZeRO-3), SequenceParallel norms, op-level selective AC.
    PredictOptions titan;
    titan.framework = "torchtitan";
    const ParallelPlan t = plan_of(titan);
    CHECK(t.zero == 3);
    CHECK(t.sequence_parallel);
    CHECK(t.recompute == Recompute::Selective);

    // The 2022 paper: s x s scores stored (no flash), SP with selective recomputation.
    PredictOptions paper;
    paper.framework = "megatron-2022";
    const ParallelPlan p = plan_of(paper);
    CHECK(p.attention == AttentionKernel::Unfused);
    CHECK(p.sequence_parallel);
    CHECK(p.recompute == Recompute::Selective);
}

TEST_CASE("an explicit option wins over the recipe, whichever front end gave it") {
    // Through set_option (flags, scenario keys, sweep parameters, CSV cells).
    PredictOptions o;
    o.framework = "nemo";
    set_option(o, *find_option("zero"), OptionValue{0, {}});
    set_option(o, *find_option("sequence_parallel"), OptionValue{0, {}});
    const ParallelPlan p = plan_of(o);
    CHECK(p.zero == 0);
    CHECK(!p.sequence_parallel);
    CHECK(p.tp_comm_overlap);  // not given: the recipe's
    // A value equal to the built-in default still counts as given.
    PredictOptions same;
    same.framework = "torchtitan";
    set_option(same, *find_option("recompute"), OptionValue{0, "none"});
    CHECK(plan_of(same).recompute == Recompute::None);
    CHECK(plan_of(same).zero == 3);
    // Code that fills the fields itself: a field away from its default is kept.
    PredictOptions direct;
    direct.framework = "nemo";
    direct.zero = 3;
    direct.attention = "unfused";
    CHECK(plan_of(direct).zero == 3);
    CHECK(plan_of(direct).attention == AttentionKernel::Unfused);
    CHECK(plan_of(direct).sequence_parallel);  // still the recipe's
}

TEST_CASE("the command line: --framework, an override, the report names the recipe") {
    const auto r = run_dtcalc("predict -m llama2-7b -p hgx-h100 --tp 2 --framework torchtitan --zero 1 --format json");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("\"framework\": \"torchtitan\"") != std::string::npos);
    CHECK(r.out.find("\"zero\": 1,") != std::string::npos);                    // the flag
    CHECK(r.out.find("\"recompute\": \"selective\"") != std::string::npos);    // the recipe
    CHECK(r.out.find("\"sequence_parallel\": true") != std::string::npos);     // the recipe
    const auto table = run_dtcalc("predict -m llama2-7b -p hgx-h100");
    CHECK(table.out.find("backend nccl, framework megatron-core)") != std::string::npos);
}

TEST_CASE("a sweep over recipes: each point takes its own recipe's defaults, a swept option wins") {
    const auto r = run_dtcalc("sweep -m llama2-7b -p hgx-h100 --tp 2 --framework megatron-core,nemo,torchtitan "
                              "--zero 0,1 --no-progress --quiet --format jsonl", false);
    REQUIRE(r.exit_code == 0);
    // Six points; zero is swept (given), so each point has its own zero.
    int lines = 0, sp = 0;
    for (std::size_t at = 0; (at = r.out.find('\n', at)) != std::string::npos; ++at) ++lines;
    for (std::size_t at = 0; (at = r.out.find("\"sp\": 1", at)) != std::string::npos; ++at) ++sp;
    CHECK(lines == 6);
    CHECK(r.out.find("\"framework\": \"nemo\"") != std::string::npos);
}

TEST_CASE("a recipe that cannot be used is an error at its line") {
    CHECK(error_of("pytorch-lightning").find("framework: no framework named 'pytorch-lightning' (known: megatron-2022, "
                                             "megatron-core, nemo, torchtitan)") == 0);
    const std::string typo = write_temp_file("recipe_typo.toml", "name = \"x\"\ndescription = \"x\"\nsources = [\"test\"]\n"
                                                                 "[defaults]\nsequence_paralel = true\n");
    CHECK(error_of(typo) == typo + ":5:20: defaults.sequence_paralel: unknown option 'sequence_paralel' (did you mean "
                                   "'sequence_parallel'?)");
    const std::string base = write_temp_file("recipe_base.toml", "name = \"x\"\ndescription = \"x\"\nsources = [\"test\"]\n"
                                                                 "[defaults]\nnodes = 4\n");
    CHECK(error_of(base).find(base + ":5:9: defaults.nodes: 'nodes' is not a plan option a recipe can set") == 0);
    const std::string value = write_temp_file("recipe_value.toml", "name = \"x\"\ndescription = \"x\"\nsources = [\"test\"]\n"
                                                                   "[defaults]\nattention = \"paged\"\n");
    CHECK(error_of(value).find(value + ":5:") == 0);
    CHECK(error_of(value).find("flash or unfused") != std::string::npos);
    const std::string missing = write_temp_file("recipe_missing.toml", "name = \"x\"\ndescription = \"x\"\nsources = [\"test\"]\n");
    CHECK(error_of(missing).find("defaults") != std::string::npos);
}
