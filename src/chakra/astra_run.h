#pragma once
// A Chakra workload run the way ASTRA-sim's analytical binaries run it
// (AstraSim_Analytical_Congestion_Unaware / _Aware), from the same files:
// the traces PREFIX.<rank>.et, the comm-group JSON, the system JSON, the
// network YAML and the remote-memory JSON.
//
//   traces (trace_set.h) -> roles and timed ops (trace_graph.h)
//     -> evaluate(..., IssuePolicy::ReadyLowestIndex) -> per-NPU statistics
//
// The system JSON is read by the shared reader (config/system_config_reader.h);
// its `replay-only` switch, which that reader treats as having no effect, is
// honoured here (every node replays its recorded duration).
#include <string>
#include <vector>

#include "chakra/trace_graph.h"
#include "collective/backend.h"
#include "compute/system.h"
#include "report/astra_log.h"
#include "schedule/evaluate.h"

namespace dtcalc::chakra {

struct AstraRunFiles {
    std::string workload;  ///< the prefix: PREFIX.<rank>.et
    std::string comm_groups = "empty";
    std::string system;
    std::string network;
    std::string remote_memory;  ///< "" means NO_MEMORY_EXPANSION
    NetworkBackend backend = NetworkBackend::AstraUnaware;
    int threads = 0;  ///< for reading the files; <= 0: the machine's cores
};

struct AstraRun {
    System system;  ///< the files' network and knobs, the backend asked for; the device is peak-perf and local-mem-bw
    TraceGraph trace;
    Schedule schedule;
    std::vector<AstraRankStats> ranks;  ///< one per NPU, rank order
    /// "NETWORK.yml: dimension 0 (Ring): latency ..." for each network value
    /// outside its topology's usual range (network/plausible_links.h).
    std::vector<std::string> warnings;
};

AstraRun run_astra(const AstraRunFiles& files);

/// The system JSON's replay-only switch (false when absent).
bool system_replay_only(const std::string& system_file);

}  // namespace dtcalc::chakra
