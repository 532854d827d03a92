// Every plan option at once (tests/fuzz/plan_settings.h): the input's bytes
// choose each option's value; the settings go through predict(), the sweep's
// timer, and what the C ABI and the Python module call (predict and a
// one-point sweep). Anything but a result or one clear error, or two front
// ends that disagree, is a finding.
#include <cstdio>

#include "fuzz_target.h"
#include "plan_settings.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    fuzz::ChoiceReader choices{data, size};
    const fuzz::PlanSettings settings = fuzz::draw_plan_settings(choices);
    const std::string problem = fuzz::check_plan_settings(settings, fuzz::preset_dirs(), fuzz::model_dirs());
    if (!problem.empty()) {
        std::fprintf(stderr, "%s\n%s", problem.c_str(), settings.toml().c_str());
        fuzz::finding("plan options", 0);
    }
    return 0;
}
