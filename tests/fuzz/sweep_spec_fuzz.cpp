// A sweep spec (TOML): parameters, cases, constraints, objective; then, when
// the space is small (the lab example's 112 points), the sweep itself on one
// thread, as CSV (that parses, a field per column) and as JSON lines (each
// line valid JSON).
#include <string>

#include "config/config_readers.h"
#include "fuzz_target.h"
#include "sweep/sweep.h"
#include "sweep/sweep_spec.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    try {
        const std::string path = fuzz::write_input(fuzz::as_text(data, size), "fuzz-sweep.toml");
        // Relative paths in a spec resolve as they do for the lab example's.
        SweepSpec spec = read_sweep_spec(read_toml_file(path), std::string(DTCALC_SOURCE_DIR) + "/examples/lab-dse");
        const Sweep sweep(std::move(spec), fuzz::preset_dirs(), fuzz::model_dirs());
        if (sweep.space().size() > 256) return 0;
        for (const SweepFormat format : {SweepFormat::Csv, SweepFormat::JsonLines}) {
            SweepSettings settings;
            settings.threads = 1;
            settings.format = format;
            std::string rows;
            (void)sweep.run(settings, [&](std::string_view s) { rows.append(s); });
            fuzz::require_finite_text(rows, fuzz::as_text(data, size));
            if (format == SweepFormat::JsonLines) fuzz::require_valid_json(rows, true);
            else fuzz::require_valid_csv(rows);
        }
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
