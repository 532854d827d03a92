// Uses the installed C++ library: a prediction through predict_options.h.
#include <cstdio>
#include <string>

#include "predict/predict_options.h"

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const std::string share = argv[1];
    dtcalc::PredictOptions o;
    o.model = "llama2-70b";
    o.system.preset = "lab-system1";
    o.tp = 8;
    o.gbs = 64;
    const dtcalc::ResolvedPrediction resolved = dtcalc::resolve_prediction(o, {share + "/presets"}, {share + "/models"});
    const dtcalc::PredictResult r = dtcalc::predict(resolved.inputs);
    std::printf("llama2-70b tp 8 on lab-system1: %.3f ms per iteration\n", r.iteration_ns * 1e-6);
    return r.iteration_ns > 0 ? 0 : 1;
}
