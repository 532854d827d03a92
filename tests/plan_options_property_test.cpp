// The option space, drawn at random (tests/fuzz/plan_settings.h): every
// combination of plan options is a result or one clear error in every front
// end — the library, the sweep's timer, the C ABI's predict and sweep, and the
// command line — and they agree on every plan that runs. The fuzz target
// plan_options does the same from a fuzzer's bytes.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "capi/dtcalc.h"
#include "fuzz/plan_settings.h"
#include "run_dtcalc.h"

namespace {

using namespace dtcalc;
using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;

const std::vector<std::string> kPresets{DTCALC_PRESETS_DIR};
const std::vector<std::string> kModels{std::string(DTCALC_SOURCE_DIR) + "/models"};

fuzz::PlanSettings draw(std::mt19937_64& random) {
    std::vector<std::uint8_t> bytes(64);
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(random());
    fuzz::ChoiceReader choices{bytes.data(), bytes.size()};
    return fuzz::draw_plan_settings(choices);
}

}  // namespace

TEST_CASE("random plan options: a result or one clear error everywhere, the same answer in every front end") {
    std::mt19937_64 random(1124);
    int runs = 0, refused = 0;
    for (int i = 0; i < 2500; ++i) {
        const fuzz::PlanSettings s = draw(random);
        INFO(s.toml());
        CHECK(fuzz::check_plan_settings(s, kPresets, kModels) == "");
        // The C ABI itself: an answer, or DTCALC_INPUT_ERROR with a message, never anything else.
        char* result = nullptr;
        char* error = nullptr;
        const std::string settings = std::string("preset_path = \"") + DTCALC_PRESETS_DIR + "\"\nmodel_path = \"" +
                                     DTCALC_SOURCE_DIR + "/models\"\n" + s.toml();
        const int status = dtcalc_predict(settings.c_str(), &result, &error);
        CHECK((status == DTCALC_OK || status == DTCALC_INPUT_ERROR));
        CHECK((status == DTCALC_OK) == (result != nullptr));
        CHECK((status == DTCALC_INPUT_ERROR) == (error != nullptr && *error != '\0'));
        if (status == DTCALC_OK) ++runs;
        else ++refused;
        dtcalc_free(result);
        dtcalc_free(error);
    }
    MESSAGE("random plan options: " << runs << " run, " << refused << " refused");
    CHECK(runs >= 200);
    CHECK(refused >= 200);
}

TEST_CASE("random plan options on the command line: exit 0 with a report, or exit 2 with one error line") {
    std::mt19937_64 random(2411);
    for (int i = 0; i < 40; ++i) {
        const fuzz::PlanSettings s = draw(random);
        std::string command = "predict --format json";
        for (const std::string& a : s.predict_flags()) command += " '" + a + "'";
        INFO(command);
        const Run r = run_dtcalc(command);
        CHECK((r.exit_code == 0 || r.exit_code == 2));
        if (r.exit_code == 0) CHECK(r.out.find("\"iteration_time_us\"") != std::string::npos);
        if (r.exit_code == 2) {  // stdout and stderr together: the one error line and nothing else
            CHECK(r.out.rfind("dtcalc: error: ", 0) == 0);
            CHECK(r.out.find('\n') == r.out.size() - 1);
        }
    }
}
