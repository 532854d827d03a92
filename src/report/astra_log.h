#pragma once
// What ASTRA-sim prints for each NPU at the end of a Chakra run, and the same
// numbers as CSV and JSON for scripts.
//
// The log lines are ASTRA-sim 2.0's (spdlog "[time] [logger] [info] ..."), one
// block per NPU in the order the NPUs finish (ties: lower rank first):
//   sys[N] finished, W cycles, exposed communication E cycles.
//   sys[N]. Post statistics processing start.
//   sys[N]. Post statistics processing end.
//   sys[N], Wall time: W
//   sys[N], CPU time / GPU time / Comm time / Remote mem time / Invalid time: T
//                                        (only the kinds of node the NPU has)
//   sys[N], Compute bound percentage: P%       (these four with
//   sys[N], Average compute utilization: P%     roofline-enabled)
//   sys[N], Average memory utilization: P%
//   sys[N], Average operation intensity: X
//   sys[N] peak memory usage: B               (with track-local-mem)
// so a script that splits these lines (the lab parser of seed 004 does
// `line.split(" ")[2] == "[statistics]"` and `line.split(": ")[1]`) reads
// dtcalc's output unchanged. The peak is printed in bytes, as the ASTRA-sim
// of the seed does; `human_memory` prints it as newer ASTRA-sim versions do
// ("46.56 GB", powers of 1024).
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>

namespace dtcalc {

struct AstraRankStats {
    int sys_id = 0;
    std::uint64_t finish_cycles = 0;        ///< when the NPU's last node ended
    std::uint64_t exposed_comm_cycles = 0;  ///< finish - accelerator compute cycles
    std::uint64_t wall_cycles = 0;          ///< latest end of any node
    std::optional<std::uint64_t> cpu_cycles, gpu_cycles, comm_cycles, remote_mem_cycles, invalid_cycles;
    bool roofline = false;  ///< print the four utilisation lines
    double compute_bound_pct = 0;
    double compute_utilization_pct = 0;
    double memory_utilization_pct = 0;
    double operation_intensity = 0;
    std::optional<std::uint64_t> peak_memory_bytes;
};

struct AstraLogOptions {
    std::string timestamp = "1970-01-01 00:00:00.000";  ///< the same on every line (output stays deterministic)
    bool human_memory = false;
};

void write_astra_log(std::ostream& out, std::span<const AstraRankStats> ranks, const AstraLogOptions& options);

/// One row per NPU in rank order; a value the NPU does not have is left empty.
void write_astra_csv(std::ostream& out, std::span<const AstraRankStats> ranks);

/// {"workload": ..., "npus": N, "roles": R, "trace_nodes": M, "ranks": [{...}, ...]}
struct AstraRunSummary {
    std::string workload;
    long long npus = 0;
    int roles = 0;
    std::uint64_t trace_nodes = 0;
};
void write_astra_json(std::ostream& out, const AstraRunSummary& run, std::span<const AstraRankStats> ranks);

}  // namespace dtcalc
