// A model TOML (transformer or layer list), then predicted on 8 GPUs of a
// preset with a small plan.
#include "config/model_loader.h"
#include "fuzz_target.h"
#include "prediction_checks.h"
#include "predict/predict_options.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    try {
        const std::string path = fuzz::write_input(fuzz::as_text(data, size), "fuzz-model.toml");
        (void)load_model(path, {});
        PredictOptions options;
        options.model = path;
        options.system.preset = "hgx-h100";
        options.system.gpus_per_node = 8;
        options.system.nodes = 1;
        options.tp = 2;
        options.pp = 2;
        options.gbs = 8;
        const ResolvedPrediction resolved = resolve_prediction(options, fuzz::preset_dirs(), {});
        fuzz::require_sound_prediction(resolved, fuzz::as_text(data, size));
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
