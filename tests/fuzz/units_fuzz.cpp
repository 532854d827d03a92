// Sizes, ranges, time units and shards as typed on the command line.
#include "core/units.h"
#include "fuzz_target.h"
#include "sweep/sweep.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    const std::string_view text = fuzz::as_text(data, size);
    if (const auto bytes = parse_byte_size(text)) {
        // Whatever parses must print and read back as a size of the same order.
        const std::string shown = format_byte_size(*bytes);
        if (shown.empty()) fuzz::finding("empty size text", static_cast<double>(*bytes));
    }
    if (const auto sizes = parse_byte_size_range(text)) {
        if (sizes->empty()) fuzz::finding("empty size range", 0);
        for (std::size_t i = 1; i < sizes->size(); ++i)
            if ((*sizes)[i] < (*sizes)[i - 1]) fuzz::finding("size range goes down", static_cast<double>((*sizes)[i]));
    }
    if (const auto unit = parse_time_unit(text)) fuzz::require_finite(nanoseconds_to(*unit, 1e9), "time unit");
    try {
        const auto [index, count] = parse_shard(text);
        if (index < 1 || index > count) fuzz::finding("shard out of range", index);
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
