#include "validate/kernel_timings.h"

#include <string>

#include "config/preset.h"

namespace dtcalc {

KernelTimings read_kernel_timings(const DatasetSpec& spec, const ValidationContext& context, const char* kind) {
    if (spec.preset.empty()) {
        InputLocation at = spec.where;
        at.key = "preset";
        throw InputError(at, std::string("missing: the ") + kind + " kind needs a preset (the device to predict with)");
    }
    KernelTimings t;
    t.device = load_preset(spec.preset, context.preset_dirs).system.device;
    t.table = read_csv_table(spec.file);
    t.run = optional_column(t.table, "run");
    return t;
}

void find_time_columns(KernelTimings& t) {
    t.median = t.table.column("median_us");
    t.p10 = t.table.column("p10_us");
    t.p90 = t.table.column("p90_us");
}

std::size_t optional_column(const CsvTable& table, const char* name) {
    for (std::size_t c = 0; c < table.header.size(); ++c)
        if (table.header[c] == name) return c;
    return table.header.size();
}

RowTimes row_times(const KernelTimings& t, std::size_t r) {
    const CsvTable& table = t.table;
    const RowTimes out{table.number(r, t.median), table.number(r, t.p10), table.number(r, t.p90)};
    if (!(out.median > 0)) throw InputError({table.path, table.lines[r], 0, "median_us"}, "must be > 0");
    if (!(out.p10 > 0)) throw InputError({table.path, table.lines[r], 0, "p10_us"}, "must be > 0");
    if (out.p90 < out.p10) throw InputError({table.path, table.lines[r], 0, "p90_us"}, "must be >= p10_us");
    return out;
}

}  // namespace dtcalc
