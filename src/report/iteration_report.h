#pragma once
// What one evaluated workload says, in one value every writer reads: the
// headline (ASTRA-sim's wall / compute / communication / exposed times),
// per-layer rows (the columns of ASTRA-sim 1.0's EndToEnd.csv), roofline
// statistics, per-role summaries and the critical path.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/units.h"
#include "schedule/evaluate.h"
#include "workload/workload_graph.h"

namespace dtcalc {

struct LayerRow {
    std::string name;
    double fwd_compute_ns = 0;
    double wg_compute_ns = 0;
    double ig_compute_ns = 0;
    double update_ns = 0;
    double fwd_exposed_ns = 0;  ///< compute-stream time left waiting for this layer's forward collectives
    double wg_exposed_ns = 0;
    double ig_exposed_ns = 0;
    double fwd_comm_ns = 0;     ///< this layer's forward collectives, end to end
    double wg_comm_ns = 0;
    double ig_comm_ns = 0;
};

struct IterationReport {
    std::string workload;
    std::string system_label;
    std::string backend;
    int passes = 1;
    std::int64_t npus = 0;
    double wall_ns = 0;        ///< all passes
    double iteration_ns = 0;   ///< wall / passes
    double compute_ns = 0;     ///< compute busy of the slowest role
    double comm_ns = 0;        ///< communication busy of the slowest role
    double exposed_comm_ns = 0;
    RooflineStats roofline;
    std::vector<LayerRow> layers;
    std::vector<RoleSummary> roles;
    std::vector<std::string> critical_path;  ///< op names, first to last
};

IterationReport make_iteration_report(const WorkloadGraph& graph, const Schedule& schedule, int passes);

/// One row per role (for a training step: per pipeline stage), named
/// "<prefix> <role>", summing every op of that role by the LayerRow columns.
std::vector<LayerRow> make_role_rows(const WorkloadGraph& graph, const Schedule& schedule, const std::string& prefix);

void write_iteration_table(std::ostream& out, const IterationReport& report, TimeUnit unit);
void write_iteration_csv(std::ostream& out, const IterationReport& report, TimeUnit unit);
void write_iteration_json(std::ostream& out, const IterationReport& report);
/// ASTRA-sim 1.0's EndToEnd.csv columns, one row per layer, times in `unit`.
void write_layers_csv(std::ostream& out, const IterationReport& report, TimeUnit unit);

}  // namespace dtcalc
