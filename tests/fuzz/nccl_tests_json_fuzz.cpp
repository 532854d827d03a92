// nccl-tests' JSON output (-J), as `dtcalc calibrate` and `validate --dataset`
// read it: every row read is then predicted on h100-ib-ndr400 reshaped to the
// row's nodes x GPUs per node (the first 64 rows, to stay within the time limit).
#include "config/preset.h"
#include "fuzz_target.h"
#include "validate/nccl_tests_json.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    static const System system =
        load_preset(std::string(DTCALC_SOURCE_DIR) + "/presets/h100-ib-ndr400.toml", {}).system;
    try {
        const NcclTestsLog log = parse_nccl_tests_json(std::string(fuzz::as_text(data, size)), "fuzz.json");
        for (std::size_t i = 0; i < log.rows.size() && i < 64; ++i) {
            fuzz::require_finite(log.rows[i].time_us, "measured time");
            if (!(log.rows[i].time_us > 0)) fuzz::finding("a row's time is not > 0", log.rows[i].time_us);
            try {
                fuzz::require_finite(predict_nccl_measurement(system, {}, log.rows[i]).time_ns, "predicted time");
            } catch (const InputError& e) {
                fuzz::rejected(e);  // a shape or size the preset cannot take: an error at the row
            }
        }
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
