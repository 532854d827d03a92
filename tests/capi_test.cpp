// The C ABI (capi/dtcalc.h): statuses, messages, ownership, and answers that
// match the command line's.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "capi/dtcalc.h"

namespace {

struct Answer {
    int status;
    std::string result, error;
    bool result_null, error_null;
};

template <class F>
Answer ask(F f, const std::string& settings) {
    char* result = nullptr;
    char* error = nullptr;
    Answer a;
    a.status = f(settings.c_str(), &result, &error);
    a.result_null = result == nullptr;
    a.error_null = error == nullptr;
    if (result) a.result = result;
    if (error) a.error = error;
    dtcalc_free(result);
    dtcalc_free(error);
    return a;
}

const std::string kPresetPath = std::string("preset_path = \"") + DTCALC_PRESETS_DIR + "\"\n";

}  // namespace

TEST_CASE("C ABI: a collective from TOML text gives ASTRA-sim's HGX-H100 figure") {
    const Answer a = ask(dtcalc_collective, kPresetPath + "kind = \"all-reduce\"\nsize = \"1MiB\"\npreset = \"astrasim-hgx-h100-validated\"\n");
    REQUIRE(a.status == DTCALC_OK);
    CHECK(a.error_null);
    const auto json = nlohmann::json::parse(a.result);
    REQUIRE(json.size() == 1);
    // 57,426 cycles (ns): ASTRA-sim's congestion-aware result quoted in seed 002.
    CHECK(json[0]["time_ns"] == 57426);
    CHECK(json[0]["npus"] == 8);
}

TEST_CASE("C ABI: a cluster from the hardware catalogue is the preset it is composed as") {
    const std::string query = kPresetPath + "kind = \"all-reduce\"\nsize = \"1KiB:1GiB:x32\"\n";
    const Answer preset = ask(dtcalc_collective, query + "preset = \"h100-ib-ndr400\"\n");
    const Answer cluster = ask(dtcalc_collective, query + "gpu = \"h100-sxm\"\nnodes = 16\ngpus_per_node = 8\n"
                                                          "nic = \"ndr400\"\nnics_per_node = 8\n");
    REQUIRE(preset.status == DTCALC_OK);
    REQUIRE(cluster.status == DTCALC_OK);
    CHECK(preset.result == cluster.result);
    const Answer predict = ask(dtcalc_predict, kPresetPath + "model = \"llama2-7b\"\ngpu = \"h200\"\ntp = 8\ngbs = 64\n");
    REQUIRE(predict.status == DTCALC_OK);
    CHECK(nlohmann::json::parse(predict.result)["efficiency_note"] == "efficiency assumed from h100-sxm, unvalidated");
}

TEST_CASE("C ABI: a prediction from JSON text is predict's JSON object") {
    const Answer a = ask(dtcalc_predict, std::string("{\"model\": \"llama2-70b\", \"preset\": \"lab-system1\", \"tp\": 8, ") +
                                             "\"gbs\": 64, \"seq\": 1024, \"preset_path\": \"" + DTCALC_PRESETS_DIR + "\"}");
    REQUIRE(a.status == DTCALC_OK);
    const auto json = nlohmann::json::parse(a.result);
    CHECK(json["plan"]["tp"] == 8);
    CHECK(json["plan"]["dp"] == 8);  // 64 NPUs / tp 8
    CHECK(json["iteration_time_us"].get<double>() > 0);
    CHECK(json["plan_problems"].empty());
}

TEST_CASE("C ABI: a plan that breaks a rule and a bad key are input errors naming them") {
    Answer a = ask(dtcalc_predict, kPresetPath + "model = \"gpt3-175b\"\npreset = \"lab-system1\"\ntp = 64\n");
    CHECK(a.status == DTCALC_INPUT_ERROR);
    CHECK(a.result_null);
    CHECK(a.error == "plan: tp (64) must divide heads (96); tp (64) and kv_heads (96) must divide one another");

    a = ask(dtcalc_predict, kPresetPath + "model = \"gpt3-175b\"\npreset = \"lab-system1\"\ntpp = 4\n");
    CHECK(a.status == DTCALC_INPUT_ERROR);
    CHECK(a.result_null);
    CHECK(a.error == "predict settings:4:7: tpp: unknown key (did you mean 'tp'?)");

    a = ask(dtcalc_collective, "kind = \"all-sum\"\nsize = 8\n");
    CHECK(a.status == DTCALC_INPUT_ERROR);
    CHECK(a.error == "collective settings:1:8: kind: expected all-reduce, reduce-scatter, all-gather, all-to-all or send-recv, got 'all-sum'");

    a = ask(dtcalc_sweep, "   \n");
    CHECK(a.status == DTCALC_INPUT_ERROR);
    CHECK(a.error == "sweep settings: empty: expected TOML or JSON settings");

    a = ask(dtcalc_predict, "{\"model\": ");
    CHECK(a.status == DTCALC_INPUT_ERROR);
    CHECK(a.error.find("predict settings:1: invalid JSON") == 0);
}

TEST_CASE("C ABI: a sweep is a JSON array of its points; calls run on several threads at once") {
    const std::string spec = kPresetPath + "model = \"llama2-70b\"\npreset = \"lab-system1\"\ngbs = 64\nseq = 1024\n"
                                           "tp = \"1..64\"\nrecompute = [\"none\", \"full\"]\nthreads = 2\n";
    const Answer one = ask(dtcalc_sweep, spec);
    REQUIRE(one.status == DTCALC_OK);
    const auto rows = nlohmann::json::parse(one.result);
    REQUIRE(rows.size() == 14);  // tp 1 2 4 ... 64 x 2
    CHECK(rows[0]["point"] == 0);
    CHECK(rows[0]["parameters"]["tp"] == 1);
    CHECK(rows[13]["parameters"]["recompute"] == "full");
    std::vector<std::string> answers(4);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i) threads.emplace_back([&, i] { answers[static_cast<std::size_t>(i)] = ask(dtcalc_sweep, spec).result; });
    for (std::thread& t : threads) t.join();
    for (const std::string& s : answers) CHECK(s == one.result);
}

TEST_CASE("C ABI: null pointers are refused without allocating") {
    char* result = nullptr;
    char* error = nullptr;
    CHECK(dtcalc_predict(nullptr, &result, &error) == DTCALC_NULL_ARGUMENT);
    CHECK(result == nullptr);
    CHECK(error == nullptr);
    CHECK(dtcalc_predict("model = \"x\"", nullptr, &error) == DTCALC_NULL_ARGUMENT);
    CHECK(std::string(dtcalc_version()) == "0.1.0");
    dtcalc_free(nullptr);
}

TEST_CASE("C ABI: vpp > 1 with pp 1 is an input error for a prediction and a row for a sweep") {
    // It used to crash the caller in the sweep, and answer an internal message in a prediction.
    const std::string seven_b = kPresetPath + "model = \"llama2-7b\"\npreset = \"hgx-h100\"\n";
    const std::string rule = "vpp > 1 needs pp > 1: virtual stages split each pipeline rank's layers (vpp 2, pp 1)";
    Answer a = ask(dtcalc_predict, seven_b + "vpp = 2\n");
    CHECK(a.status == DTCALC_INPUT_ERROR);
    CHECK(a.error == "plan: " + rule);
    a = ask(dtcalc_predict, seven_b + "pp = 2\nvpp = 3\ngbs = 8\n");
    CHECK(a.status == DTCALC_INPUT_ERROR);
    CHECK(a.error == "plan: layers (32) must be divisible by pp x vpp (6)");
    a = ask(dtcalc_sweep, seven_b + "vpp = 2\n");
    REQUIRE(a.status == DTCALC_OK);
    auto rows = nlohmann::json::parse(a.result);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0]["feasible"] == false);
    CHECK(rows[0]["plan_problems"] == nlohmann::json::array({rule}));
    a = ask(dtcalc_sweep, seven_b + "vpp = [1, 2, 4]\ntp = [1, 3]\nschedule = [\"gpipe\", \"interleaved\"]\n");
    REQUIRE(a.status == DTCALC_OK);
    rows = nlohmann::json::parse(a.result);
    CHECK(rows.size() == 12);
    int runs = 0;
    for (const auto& row : rows) runs += row["plan_problems"].empty() ? 1 : 0;
    CHECK(runs == 2);  // tp 1, vpp 1, either schedule
    // A plan that runs but does not fit is a result with its reason.
    a = ask(dtcalc_predict, kPresetPath + "model = \"llama2-70b\"\npreset = \"hgx-h100\"\ntp = 8\n");
    REQUIRE(a.status == DTCALC_OK);
    const auto json = nlohmann::json::parse(a.result);
    CHECK(json["feasible"] == false);
    CHECK(json["infeasible_reasons"].size() == 1);
}
