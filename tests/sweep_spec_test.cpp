// Sweep specs: value expressions, constraint rules, the spec reader and the
// design space it spans. Expected values are worked out by hand in comments.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "config/config_readers.h"
#include "sweep/design_space.h"
#include "input_error.h"

using dtcalc::testing::error_of;

namespace {

using namespace dtcalc;

std::vector<double> numbers(const char* name, const char* text) {
    std::vector<double> out;
    for (const ParamValue& v : expand_value_text(*find_parameter(name), text, {"--test", 0, 0, ""})) out.push_back(v.number);
    return out;
}

SweepSpec spec_of(const std::string& toml) { return read_sweep_spec(parse_toml_text(toml, "spec.toml"), ""); }

bool holds(const char* rule, RuleVariables v) { return ConstraintRule::parse(rule, {"--rule", 0, 0, ""}).holds(v); }

RuleVariables variables(double dp, double tp, double heads) {
    RuleVariables v{};
    v[static_cast<std::size_t>(RuleVariable::Dp)] = dp;
    v[static_cast<std::size_t>(RuleVariable::Tp)] = tp;
    v[static_cast<std::size_t>(RuleVariable::Heads)] = heads;
    return v;
}

}  // namespace

TEST_CASE("value expressions: lists, doubling, arithmetic and geometric ranges") {
    CHECK(numbers("dp", "1..64") == std::vector<double>{1, 2, 4, 8, 16, 32, 64});
    CHECK(numbers("dp", "3..20") == std::vector<double>{3, 6, 12});  // doubling from 3 while <= 20
    CHECK(numbers("gbs", "8..40+8") == std::vector<double>{8, 16, 24, 32, 40});
    CHECK(numbers("bandwidth_scale", "0.25..2*2") == std::vector<double>{0.25, 0.5, 1, 2});
    CHECK(numbers("bandwidth_scale", "0.1..0.3+0.1").size() == 3);  // 0.1 0.2 0.3 despite rounding
    CHECK(numbers("tp", "1,2, 8") == std::vector<double>{1, 2, 8});
    CHECK(numbers("zero", "0,3") == std::vector<double>{0, 3});
    CHECK(numbers("sequence_parallel", "false,true") == std::vector<double>{0, 1});
    const std::vector<ParamValue> order = expand_value_text(*find_parameter("order"), "cp,tp,ep,dp,pp", {"--order", 0, 0, ""});
    REQUIRE(order.size() == 1);  // orders hold commas: one value
    CHECK(order[0].text == "cp,tp,ep,dp,pp");
}

TEST_CASE("value expressions that mean nothing are errors naming the flag") {
    CHECK(error_of([] { numbers("dp", "64..1"); }) == "--test: the range '64..1' is empty");
    CHECK(error_of([] { numbers("dp", "0..8"); }) == "--test: expected a positive integer to start the range, got '0'");
    CHECK(error_of([] { numbers("tp", "2,x"); }) == "--test: expected a positive integer, got 'x'");
    CHECK(error_of([] { numbers("dp", "1..8+0"); }) ==
          "--test: expected a range like 1..64, 8..64+8 or 0.5..4*2 (a step > 0, a factor > 1), got '1..8+0'");
    CHECK(error_of([] { numbers("dp", "1..8+0.5"); }) ==
          "--test: expected a positive integer at every step of the range, got '1.5'");
    CHECK(error_of([] { numbers("dp", "1..10000000+1"); }) == "--test: the range '1..10000000+1' has more than a million values");
    CHECK(error_of([] { expand_value_text(*find_parameter("recompute"), "a..b", {"--recompute", 0, 0, ""}); }) ==
          "--recompute: ranges are for numbers; list the values instead, got 'a..b'");
}

TEST_CASE("constraint rules: precedence, divisibility, failing divisions") {
    CHECK(holds("tp <= 8", variables(8, 8, 64)));
    CHECK_FALSE(holds("tp <= 8", variables(8, 16, 64)));
    CHECK(holds("heads % tp == 0", variables(1, 8, 64)));
    CHECK_FALSE(holds("heads % tp == 0", variables(1, 64, 96)));  // 96 = 64 + 32
    CHECK(holds("dp * tp == 64 && tp >= 2", variables(32, 2, 1)));
    CHECK(holds("tp == 1 || dp + tp * 2 == 20", variables(4, 8, 1)));  // 4 + 16 = 20: * before +
    CHECK(holds("!(tp > 8)", variables(1, 8, 1)));
    CHECK(holds("-tp < 0", variables(1, 8, 1)));
    CHECK_FALSE(holds("heads / (tp - 8) > 0", variables(1, 8, 64)));  // division by zero: fails
    CHECK_FALSE(holds("heads % (tp - 8) != 3", variables(1, 8, 64)));
    CHECK(error_of([] { ConstraintRule::parse("tp <= ", {"--rule", 0, 0, ""}); }) ==
          "--rule: rule 'tp <= ': expected a number or a name at character 7");
    CHECK(error_of([] { ConstraintRule::parse("tp < 8)", {"--rule", 0, 0, ""}); }) ==
          "--rule: rule 'tp < 8)': unexpected ')' at character 7");
    CHECK(error_of([] { ConstraintRule::parse("tpp <= 8", {"--rule", 0, 0, ""}); }) ==
          "--rule: rule 'tpp <= 8': unknown name 'tpp' (known: dp, tp, pp, cp, ep, vpp, mbs, gbs, seq, zero, "
          "sequence_parallel, micro_batches, npus, layers, hidden, ffn_hidden, heads, kv_heads, vocab, experts, top_k, "
          "gpus_per_node, nodes) at character 1");
    CHECK(error_of([] { ConstraintRule::parse(std::string(500, '('), {"--rule", 0, 0, ""}); }) ==
          "--rule: rule '" + std::string(500, '(') + "': nested too deeply at character 41");
}

TEST_CASE("the seed lab's space: dp x tp x sp = 64 over powers of two, with and without recompute, is 56 points") {
    const SweepSpec spec = spec_of(R"(
model = "llama2-70b"
preset = "lab-system1"
recompute = ["none", "full"]
tp = "1..64"
dp = "1..64"
cp = "1..64"
[constraints]
npus = 64
)");
    const DesignSpace space(spec);
    // 2^a x 2^b x 2^c = 2^6 with a, b, c >= 0: C(8, 2) = 28 plans, x 2 recompute settings.
    CHECK(space.size() == 56);
    // Registry order, whatever the file's: dp slowest, then tp, cp, recompute fastest.
    std::vector<DesignSpace::Assigned> first, second;
    space.assignment(0, first);
    space.assignment(1, second);
    REQUIRE(first.size() == 6);
    CHECK(first[2].param->name == "dp");
    CHECK(first[3].param->name == "tp");
    CHECK(first[4].param->name == "cp");
    CHECK(first[5].param->name == "recompute");
    // The first kept combination is dp 1, tp 1, cp 64 (the smallest dp and tp).
    CHECK(first[2].value->number == 1);
    CHECK(first[3].value->number == 1);
    CHECK(first[4].value->number == 64);
    CHECK(first[5].value->text == "none");
    CHECK(second[5].value->text == "full");
}

TEST_CASE("cases replace the top-level parameters they name; each is its own space") {
    const SweepSpec spec = spec_of(R"(
model = "llama2-70b"
preset = "lab-system1"
tp = [1, 2, 4]
[[case]]
name = "one"
[[case]]
name = "two"
tp = [8, 16]
mbs = [1, 2]
)");
    const DesignSpace space(spec);
    REQUIRE(space.cases().size() == 2);
    CHECK(space.cases()[0].points() == 3);
    CHECK(space.cases()[1].points() == 4);  // tp 8 16 x mbs 1 2
    CHECK(space.size() == 7);
    CHECK(space.locate(3).case_index == 1);
    CHECK(space.cases()[1].first_point == 3);
}

TEST_CASE("malformed specs are errors naming the file, line and key") {
    CHECK(error_of([] { spec_of("model = \"llama2-70b\"\ndpp = 4\n"); }) ==
          "spec.toml:2:7: dpp: unknown parameter (did you mean 'dp'?); `dtcalc sweep --help` lists them");
    CHECK(error_of([] { spec_of("tp = []\n"); }) == "spec.toml:1:6: tp: the list of values is empty");
    CHECK(error_of([] { spec_of("tp = \"16..4\"\n"); }) == "spec.toml:1:6: tp: the range '16..4' is empty");
    CHECK(error_of([] { spec_of("recompute = [\"none\", \"most\"]\n"); }) ==
          "spec.toml:1:22: recompute[1]: expected none, selective or full, got 'most'");
    CHECK(error_of([] { spec_of("tp = 2.5\n"); }) == "spec.toml:1:6: tp: expected a positive integer, got '2.5'");
    CHECK(error_of([] { spec_of("objective = \"speed\"\n"); }) ==
          "spec.toml:1:13: objective: expected time, tokens_per_s, tokens_per_s_per_gpu, mfu, memory or cost, got 'speed'");
    CHECK(error_of([] { spec_of("[constraints]\nnpu = 64\n"); }).find("constraints.npu") != std::string::npos);
    CHECK(error_of([] { spec_of("memory_limit = \"80GiB\"\n[constraints]\nmemory_limit = \"40GiB\"\n"); }) ==
          "spec.toml:3:16: constraints.memory_limit: memory_limit is given both as a parameter and as a constraint; keep one");
    CHECK(error_of([] { spec_of("[constraints]\nrules = [\"tp <\"]\n"); }) ==
          "spec.toml:2:10: constraints.rules[0]: rule 'tp <': expected a number or a name at character 5");
}
