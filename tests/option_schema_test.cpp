// The options declared once (predict/option_schema.h): every front end takes
// the same names, and an option that cannot be used is located in the
// caller's own terms (a flag, a TOML key and line, a CSV row, a keyword).
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "capi/embedded_calls.h"
#include "config/config_readers.h"
#include "input_error.h"
#include "predict/option_schema.h"
#include "predict/predict_options.h"
#include "run_dtcalc.h"
#include "sweep/batch_sweep.h"
#include "sweep/sweep.h"
#include "temp_file.h"

namespace {

using namespace dtcalc;
using dtcalc::testing::check_errors;
using dtcalc::testing::error_of;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModels{std::string(DTCALC_SOURCE_DIR) + "/models"};

}  // namespace

TEST_CASE("option schema: each option once, each name and flag distinct") {
    std::set<std::string> names, flags;
    for (const OptionDecl& d : option_schema()) {
        CAPTURE(d.name);
        CHECK(names.insert(std::string(d.name)).second);
        CHECK(flags.insert(option_flag(d.name)).second);
        CHECK(find_option(d.name) == &d);
        CHECK(find_option(option_flag(d.name).substr(2)) == &d);  // "gpus-per-node" reads as gpus_per_node
        CHECK(!d.help.empty());
        // What predict takes sets PredictOptions; text values say what they must be.
        CHECK((d.target == OptionTarget::Option) == (d.apply != nullptr));
        CHECK((d.target == OptionTarget::Model) == (d.apply_model != nullptr));
        CHECK((d.target == OptionTarget::System) == (d.apply_system != nullptr));
        if (d.accepts) CHECK(!d.expected.empty());
    }
    CHECK(find_option("tpp") == nullptr);
    CHECK(option_suggestion("tpp") == " (did you mean 'tp'?)");
}

TEST_CASE("option schema: a scenario key, a sweep parameter and a flag set the same field") {
    PredictOptions from_scenario;
    apply_scenario(parse_toml_text("tp = 4\nsequence_parallel = true\nschedule = \"interleaved\"\nzero = 3\n", "s.toml"), from_scenario);
    PredictOptions from_values;
    for (const auto& [name, text] : {std::pair{"tp", "4"}, {"sequence_parallel", "true"}, {"schedule", "interleaved"}, {"zero", "3"}}) {
        const OptionDecl* d = find_option(name);
        REQUIRE(d != nullptr);
        std::string expected;
        const auto value = parse_option_value(*d, text, expected);
        REQUIRE(value);
        d->apply(from_values, *value);
    }
    for (const PredictOptions* o : {&from_scenario, &from_values}) {
        CHECK(o->tp == 4);
        CHECK(o->sequence_parallel);
        CHECK(o->schedule == "interleaved");
        CHECK(o->zero == 3);
    }
}

TEST_CASE("option schema: predict and sweep take the same flags, old spellings included") {
    const auto predict_help = run_dtcalc("predict --help", false).out;
    const auto sweep_help = run_dtcalc("sweep --help", false).out;
    for (const OptionDecl& d : option_schema()) {
        if (d.target != OptionTarget::Option) continue;
        CAPTURE(d.name);
        CHECK(predict_help.find(option_flag(d.name)) != std::string::npos);
        CHECK(sweep_help.find(option_flag(d.name)) != std::string::npos);
    }
    // --sp and -m / -p were predict's only; the sweep takes them too.
    const auto a = run_dtcalc("sweep -m llama2-7b -p hgx-h100 --tp 2 --sp true -q", false);
    const auto b = run_dtcalc("sweep --model llama2-7b --preset hgx-h100 --tp 2 --sequence-parallel true -q", false);
    CHECK(a.exit_code == 0);
    CHECK(a.out == b.out);
    const auto c = run_dtcalc("predict -m llama2-7b -p hgx-h100 --tp 2 --sp --format csv", false);
    const auto d = run_dtcalc("predict --model llama2-7b --preset hgx-h100 --tp 2 --sequence-parallel --format csv", false);
    CHECK(c.exit_code == 0);
    CHECK(c.out == d.out);
}

TEST_CASE("option schema: an option that cannot be used, where the caller gave it") {
    // The command line: the flag.
    check_errors({
        {"predict --model gpt2 --preset lab-system1 --precision fp8",
         "--precision: fp8 needs a device with an fp8 peak; this system has none"},
        {"predict --model gpt2 --preset hgx-h100 --zero 7", "--zero: expected an integer from 0 to 3, got '7'"},
        {"sweep --model gpt2 --preset hgx-h100 --nodes 2 -q",
         "--nodes: this system has one network dimension, so one node; use a multi-node preset (e.g. h100-ib-ndr400)"},
    });
    // A scenario file: its key and line, unless a flag overrode the value.
    const std::string scenario = write_temp_file("option-schema-scenario.toml",
                                                 "model = \"gpt2\"\npreset = \"lab-system1\"\nprecision = \"fp8\"\n");
    check_errors({
        {"predict --scenario " + scenario,
         scenario + ":3:13: precision: fp8 needs a device with an fp8 peak; this system has none"},
        {"predict --scenario " + scenario + " --preset hgx-h100 --precision fp8 --format csv --model no-such-model",
         "--model: no model named 'no-such-model' (known: dlrm, gpt2, gpt3-175b, llama2-13b, llama2-70b, llama2-7b, "
         "llama3-70b, llama3-8b, llama3.1-405b, megatron-175b, megatron-1t, megatron-22b, megatron-530b, mixtral-8x7b, resnet50)"},
    });
    // The C ABI's settings: key and line.
    CHECK(error_of([] {
              predict_json(parse_config_text(std::string("preset_path = \"") + DTCALC_PRESETS_DIR +
                                                 "\"\nmodel = \"gpt2\"\npreset = \"lab-system1\"\nprecision = \"fp8\"\n",
                                             "predict settings"),
                           "");
          }) == "predict settings:4:13: precision: fp8 needs a device with an fp8 peak; this system has none");
    // A sweep spec: key and line.
    CHECK(error_of([] {
              Sweep(read_sweep_spec(parse_toml_text("tp = [1, 2]\nmodel = \"no-such-model\"\n", "spec.toml"), ""), kPresets, kModels);
          }).starts_with("spec.toml:2:9: model: no model named 'no-such-model'"));
    // A batch CSV: its line and column.
    CHECK(error_of([] {
              BatchSweep(SweepSpec{}, "tp,model,preset\n1,gpt2,hgx-h100\n2,no-such-model,hgx-h100\n", "rows.csv", kPresets, kModels, false);
          }).starts_with("rows.csv:3: model: no model named 'no-such-model'"));
    // The library alone: the option's name.
    PredictOptions o;
    o.model = "gpt2";
    o.system.preset = "hgx-h100";
    o.schedule = "zb";
    CHECK(error_of([&] { resolve_prediction(o, kPresets, kModels); }) == "schedule: expected gpipe, 1f1b or interleaved, got 'zb'");
}

TEST_CASE("option schema: a sweep's model overrides; kv_heads follows heads in a multi-head model unless given") {
    auto reason = [](const std::string& args) {
        const auto r = run_dtcalc("sweep --preset hgx-h100 -q --format jsonl " + args, false);
        REQUIRE(r.exit_code == 0);
        return r.out.find("\"plan_problems\": []") != std::string::npos ? std::string("runs") : r.out;
    };
    CHECK(reason("--model llama2-7b --heads 16 --rule 'kv_heads == 16'") == "runs");
    CHECK(reason("--model llama2-7b --heads 16 --kv-heads 4 --rule 'kv_heads == 4 && heads == 16'") == "runs");
    CHECK(reason("--model llama2-70b --heads 32 --rule 'kv_heads == 8'") == "runs");  // grouped-query: kept
    CHECK(reason("--model llama2-7b --layers 6 --pp 4 --dp 2 --gbs 8").find("layers (6) must be divisible by pp x vpp (4)") !=
          std::string::npos);
}
