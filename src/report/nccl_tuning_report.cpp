#include "report/nccl_tuning_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <string>

namespace dtcalc {

void write_nccl_tuning_table(std::ostream& out, CollectiveKind kind, const NcclTuningTable& table) {
    fmt::print(out,
               "\nNCCL's tuning for {} on {} GPUs ({} node{} x {}): latency (us) / bandwidth (GB/s) as "
               "NCCL_DEBUG_SUBSYS=TUNING prints it, before its corrections by size; - = off\n",
               collective_kind_name(kind), table.ranks, table.nodes, table.nodes == 1 ? "" : "s",
               table.gpus_per_node);
    fmt::print(out, "{:<10}", "algorithm");
    for (int p = 0; p < kNcclProtocols; ++p)
        fmt::print(out, " {:>15}", nccl_protocol_name(static_cast<NcclProtocol>(p)));
    fmt::print(out, "\n");
    for (int a = 0; a < kNcclTunedAlgorithms; ++a) {
        fmt::print(out, "{:<10}", nccl_algorithm_name(static_cast<NcclAlgorithm>(a)));
        for (int p = 0; p < kNcclProtocols; ++p) {
            const NcclTuning& t = table.entries[static_cast<std::size_t>(a)][static_cast<std::size_t>(p)];
            const std::string cell =
                t.on() ? fmt::format("{:6.1f}/{:7.1f}", t.latency_ns / 1000.0, t.bandwidth_gbps) : std::string("-");
            fmt::print(out, " {:>15}", cell);
        }
        fmt::print(out, "\n");
    }
}

}  // namespace dtcalc
