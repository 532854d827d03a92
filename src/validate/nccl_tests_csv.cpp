#include "validate/nccl_tests_csv.h"

#include "validate/csv_table.h"

namespace dtcalc {

bool looks_like_nccl_tests_csv(const std::string& first_line) {
    return first_line.find("collective") != std::string::npos && first_line.find("size_bytes") != std::string::npos;
}

std::vector<NcclMeasurement> read_nccl_tests_csv(const std::string& path) {
    const CsvTable table = read_csv_table(path);
    const std::size_t c_source = table.column("source_url");
    const std::size_t c_gpus = table.column("gpus");
    const std::size_t c_nodes = table.column("nodes");
    const std::size_t c_coll = table.column("collective");
    const std::size_t c_size = table.column("size_bytes");
    const std::size_t c_time = table.column("time_us");

    std::vector<NcclMeasurement> out;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        std::string name = table.rows[r][c_coll];
        if (name.ends_with("_perf")) name.resize(name.size() - 5);
        const auto kind = parse_collective_kind(name);
        if (!kind) throw InputError({table.path, table.lines[r], 0, "collective"}, "unknown collective '" + name + "'");
        const long long gpus = table.integer(r, c_gpus);
        const long long nodes = table.integer(r, c_nodes);
        if (nodes < 1 || gpus < nodes || gpus % nodes != 0 || gpus > (1 << 24))
            throw InputError({table.path, table.lines[r], 0, "gpus"},
                             "expected gpus to be a multiple of nodes, got " + std::to_string(gpus) + " GPUs on " +
                                 std::to_string(nodes) + " nodes");
        const double measured_us = table.number(r, c_time);
        if (!(measured_us > 0)) throw InputError({table.path, table.lines[r], 0, "time_us"}, "must be > 0");
        NcclMeasurement m;
        m.kind = *kind;
        m.nodes = static_cast<int>(nodes);
        m.gpus_per_node = static_cast<int>(gpus / nodes);
        m.bytes = static_cast<std::uint64_t>(table.integer(r, c_size));
        m.time_us = measured_us;
        m.where = {table.path, table.lines[r], 0, ""};
        m.source = table.rows[r][c_source];
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace dtcalc
