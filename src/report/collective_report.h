#pragma once
// Writers for `dtcalc collective`: an nccl-tests-like table, CSV and JSON.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "core/units.h"

namespace dtcalc {

struct CollectiveRow {
    CollectiveKind kind = CollectiveKind::AllReduce;
    std::uint64_t size_bytes = 0;
    std::int64_t npus = 0;
    NetworkBackend backend = NetworkBackend::AstraUnaware;
    CollectiveResult result;

    /// nccl-tests: algbw = size / time; busbw = algbw x bus_bandwidth_factor. GB/s = bytes/ns.
    double algbw_gbps() const;
    double busbw_gbps() const;
};

struct CollectiveReportHeader {
    std::string system_label;  ///< "preset astrasim-hgx-h100-validated" or the file names
};

void write_collective_table(std::ostream& out, const CollectiveReportHeader& header,
                            const std::vector<CollectiveRow>& rows, TimeUnit unit, bool with_phases);
void write_collective_csv(std::ostream& out, const std::vector<CollectiveRow>& rows, TimeUnit unit);
void write_collective_json(std::ostream& out, const std::vector<CollectiveRow>& rows);

}  // namespace dtcalc
