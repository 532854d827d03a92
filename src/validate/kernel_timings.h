#pragma once
// What the dataset kinds of kernels timed on one device share (gemm,
// output-layer): the device of the dataset's preset, the CSV of timings, and
// each row's median with its 10th and 90th percentiles, checked.
#include <cstddef>

#include "compute/training_device.h"
#include "validate/csv_table.h"
#include "validate/dataset_kind.h"

namespace dtcalc {

struct KernelTimings {
    TrainingDevice device;  ///< the preset's, which predicts every row
    CsvTable table;
    std::size_t median = 0, p10 = 0, p90 = 0;  ///< columns median_us, p10_us, p90_us
    std::size_t run = 0;                       ///< column `run`; table.header.size() when absent
};

/// Reads the dataset's preset and file; throws InputError at the gates entry for a missing
/// preset (naming `kind`). The time columns are found by find_time_columns.
KernelTimings read_kernel_timings(const DatasetSpec& spec, const ValidationContext& context, const char* kind);

/// Finds median_us, p10_us and p90_us; throws InputError at the first one missing. A kind
/// calls it after looking up its own columns, so that the first column missing is named.
void find_time_columns(KernelTimings& t);

/// `name`'s column, or table.header.size() when the table has none.
std::size_t optional_column(const CsvTable& table, const char* name);

/// Row r's times, µs: median > 0 and p10 > 0, p90 >= p10; throws InputError at the cell otherwise.
struct RowTimes {
    double median = 0, p10 = 0, p90 = 0;
};
RowTimes row_times(const KernelTimings& t, std::size_t r);

}  // namespace dtcalc
