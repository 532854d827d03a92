// The seed's scenarios (validation/scenarios) run end to end through predict:
// every plan is valid, every output finite, and the memory verdict is the one
// the scenario's description states.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "config/config_readers.h"
#include "predict/predict_options.h"

using namespace dtcalc;

TEST_CASE("every seed scenario predicts end to end") {
    const std::string dir = std::string(DTCALC_VALIDATION_DIR) + "/scenarios";
    const std::vector<std::string> presets{DTCALC_PRESETS_DIR};
    const std::vector<std::string> models{std::string(DTCALC_PRESETS_DIR) + "/../models"};
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".toml") continue;
        CAPTURE(entry.path().filename().string());
        const ConfigValue scenario = read_toml_file(entry.path().string());
        PredictOptions options;
        apply_scenario(scenario, options);
        const ResolvedPrediction resolved = resolve_prediction(options, presets, models);
        const PredictResult r = predict(resolved.inputs);
        REQUIRE(r.plan_problems.empty());
        CHECK(std::isfinite(r.iteration_ns));
        CHECK(r.iteration_ns > 0);
        CHECK(r.compute_ns > 0);
        CHECK(r.compute_ns <= r.iteration_ns);
        CHECK(r.exposed_comm_ns >= 0);
        CHECK(r.mfu > 0);
        CHECK(r.mfu < 1);
        CHECK(r.memory.breakdown.total() > 0);
        const std::string description = scenario.find("description")->text;
        CHECK(r.feasible == (description.find("infeasible") == std::string::npos));
        ++count;
    }
    CHECK(count == 12);
}
