#include "validate/chakra_dataset.h"

#include <string>

#include "chakra/astra_run.h"
#include "validate/csv_table.h"

namespace dtcalc {

DatasetResult run_chakra_dataset(const DatasetSpec& spec, const ValidationContext&) {
    const CsvTable table = read_csv_table(spec.file);
    const std::size_t c_sys = table.column("sys_id");
    const std::size_t c_wall = table.column("wall_cycles");
    const std::size_t c_exposed = table.column("exposed_comm_cycles");

    chakra::AstraRunFiles files;
    files.workload = spec.input("workload");
    files.comm_groups = spec.input("comm-groups");
    files.system = spec.input("system");
    files.network = spec.input("network");
    files.remote_memory = spec.input("remote-memory");
    files.backend = NetworkBackend::AstraUnaware;
    const chakra::AstraRun run = chakra::run_astra(files);

    DatasetResult out;
    out.x_label = "NPU id + 1";
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const long long sys = table.integer(r, c_sys);
        if (sys < 0 || static_cast<std::size_t>(sys) >= run.ranks.size())
            throw InputError({table.path, table.lines[r], 0, "sys_id"},
                             "no NPU " + std::to_string(sys) + " in the trace (" + std::to_string(run.ranks.size()) +
                                 " NPUs)");
        const AstraRankStats& stats = run.ranks[static_cast<std::size_t>(sys)];
        const std::string source = table.path + ":" + std::to_string(table.lines[r]);
        auto add = [&](const char* group, double measured_cycles, double predicted_cycles) {
            if (!(measured_cycles > 0)) return;  // nothing to compare a relative error against
            ValidationCase c;
            c.dataset = spec.name;
            c.group = group;
            c.label = "sys[" + std::to_string(sys) + "]";
            c.source = source;
            c.x = static_cast<double>(sys + 1);
            c.measured = measured_cycles / 1000.0;
            c.predicted = predicted_cycles / 1000.0;
            c.model = "astra-unaware";
            out.cases.push_back(std::move(c));
        };
        add("wall", table.number(r, c_wall), static_cast<double>(stats.wall_cycles));
        add("exposed-comm", table.number(r, c_exposed), static_cast<double>(stats.exposed_comm_cycles));
    }
    return out;
}

}  // namespace dtcalc
