// Batch mode's CSV rows (`dtcalc sweep --input rows.csv`): header, cells,
// quoting; then, when there are few rows, the rows evaluated on one thread.
#include <string>

#include "fuzz_target.h"
#include "sweep/batch_sweep.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    try {
        const BatchSweep batch(SweepSpec{}, std::string(fuzz::as_text(data, size)), "fuzz-rows.csv", fuzz::preset_dirs(),
                               fuzz::model_dirs(), true);
        if (batch.rows() > 4) return 0;
        SweepSettings settings;
        settings.threads = 1;
        std::string rows;
        (void)batch.run(settings, [&](std::string_view s) { rows.append(s); });
        fuzz::require_finite_text(rows, fuzz::as_text(data, size));
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
