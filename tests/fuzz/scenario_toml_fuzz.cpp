// A predict scenario TOML (`dtcalc predict --scenario`): model, system and
// plan keys, then the prediction it asks for.
#include "config/config_readers.h"
#include "fuzz_target.h"
#include "prediction_checks.h"
#include "predict/predict_options.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    try {
        const ConfigValue scenario = read_toml_file(fuzz::write_input(fuzz::as_text(data, size), "fuzz-scenario.toml"));
        PredictOptions options;
        apply_scenario(scenario, options);
        const ResolvedPrediction resolved = resolve_prediction(options, fuzz::preset_dirs(), fuzz::model_dirs());
        fuzz::require_sound_prediction(resolved, fuzz::as_text(data, size));
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
