// A CSV of measured training runs (validation/training/cases.csv's columns, read
// by name), as `dtcalc calibrate` and `validate --dataset` read it; a file of one
// small run is then predicted, whose metric must be a finite, positive number.
#include <string>

#include "fuzz_target.h"
#include "predict/training_cases.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    try {
        const std::string path = fuzz::write_input(fuzz::as_text(data, size), "fuzz-cases.csv");
        const std::vector<TrainingCase> cases = read_training_cases(path, "hgx-h100");
        for (const TrainingCase& c : cases) fuzz::require_finite(c.measured, "a case's measured value");
        if (cases.size() != 1 || !cases[0].options.gbs || *cases[0].options.gbs > 1024) return 0;
        const TrainingCaseResult r = evaluate_training_case(cases[0], fuzz::preset_dirs(), fuzz::model_dirs());
        if (!(r.predicted > 0)) fuzz::finding("a case's predicted metric is not positive", r.predicted);
        fuzz::require_finite(r.predicted, "a case's predicted metric");
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
