// ASTRA-sim 1.0 text workloads (DATA, MODEL, HYBRID_*, DLRM), run for one
// pass on the 16-NPU example system; the iteration report and Chrome trace
// they give (JSON, CSV) must parse and hold only finite numbers.
#include <sstream>

#include "config/system_source.h"
#include "fuzz_target.h"
#include "report/chrome_trace.h"
#include "report/iteration_report.h"
#include "schedule/evaluate.h"
#include "workload/astra_v1_workload.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    static const ResolvedSystem sys = [] {
        SystemSource source;
        source.network_file = std::string(DTCALC_SOURCE_DIR) + "/examples/gemm/network_8x2.yml";
        source.system_file = std::string(DTCALC_SOURCE_DIR) + "/examples/gemm/system_8x2.json";
        return resolve_system(source, {});
    }();
    try {
        const V1Workload workload = parse_v1_workload_text(std::string(fuzz::as_text(data, size)), "fuzz-workload.txt");
        const WorkloadGraph graph = build_v1_training_graph(workload, sys.system.network, 1);
        const EvaluationSystem eval = roofline_evaluation(sys.system);
        const Schedule schedule = evaluate(graph, eval);
        fuzz::require_finite(schedule.wall_ns, "iteration time");
        const IterationReport iteration = make_iteration_report(graph, schedule, 1);
        std::ostringstream report, trace, summary_csv, layers_csv;
        write_iteration_json(report, iteration);
        write_chrome_trace(trace, graph, schedule);
        for (const std::string& text : {report.str(), trace.str()}) {
            fuzz::require_finite_text(text, fuzz::as_text(data, size));
            fuzz::require_valid_json(text);
        }
        write_iteration_csv(summary_csv, iteration, TimeUnit::Microseconds);
        write_layers_csv(layers_csv, iteration, TimeUnit::Microseconds);
        for (const std::string& text : {summary_csv.str(), layers_csv.str()}) {
            fuzz::require_finite_text(text, fuzz::as_text(data, size));
            fuzz::require_valid_csv(text);
        }
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
