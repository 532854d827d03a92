#pragma once
// Measured nccl-tests rows from what people have: files and folders of raw
// nccl-tests output (validate/nccl_tests_log.h) and dtcalc's dataset CSVs
// (validate/nccl_tests_csv.h), told apart by content: a file whose first line
// names the columns `collective` and `size_bytes` is a dataset CSV, anything
// else is read as nccl-tests output (and refused, naming the file and line,
// when it is not). A folder is read with everything below it, in name order,
// skipping names that start with '.'.
#include <string>
#include <vector>

#include "validate/nccl_measurement.h"
#include "validate/nccl_tests_log.h"

namespace dtcalc {

/// Every row of every input, in the order given (a folder's files sorted by
/// path). Throws InputError for a path that does not exist, a folder with no
/// files, or any file that cannot be read as either format.
std::vector<NcclMeasurement> read_nccl_inputs(const std::vector<std::string>& paths, const NcclLogShape& shape = {});

}  // namespace dtcalc
