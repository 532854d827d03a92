#include "validate/nccl_tests_dataset.h"

#include <memory>
#include <string>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_parameters.h"
#include "config/preset.h"
#include "core/units.h"
#include "network/cluster_shape.h"
#include "validate/csv_table.h"

namespace dtcalc {

NcclForce dataset_nccl_force(const SystemConfig& system, const DatasetSpec& spec) {
    if (spec.algorithm.empty() && spec.protocol.empty()) return {};
    auto at = [&](const InputLocation& where, const char* key) {
        if (where.line > 0) return where;
        InputLocation entry = spec.where;  // a spec built in code: the entry, with the key
        entry.key = key;
        return entry;
    };
    const InputLocation algorithm_at = at(spec.algorithm_where, "algorithm");
    const InputLocation protocol_at = at(spec.protocol_where, "protocol");
    if (!system.nccl)
        throw InputError(spec.algorithm.empty() ? protocol_at : algorithm_at,
                         "forcing an algorithm or protocol needs a preset with an [nccl] table");
    NcclForce force;
    if (!spec.algorithm.empty()) {
        const auto a = parse_nccl_algorithm(spec.algorithm);
        if (!a) throw InputError(algorithm_at, "expected ring, tree, nvls, nvls-tree or pat, got '" + spec.algorithm + "'");
        force.algorithm = *a;
    }
    if (!spec.protocol.empty()) {
        const auto p = parse_nccl_protocol(spec.protocol);
        if (!p) throw InputError(protocol_at, "expected LL, LL128 or Simple, got '" + spec.protocol + "'");
        force.protocol = *p;
    }
    return force;
}

DatasetResult run_nccl_tests_dataset(const DatasetSpec& spec, const ValidationContext& context) {
    const CsvTable table = read_csv_table(spec.file);
    const std::size_t c_source = table.column("source_url");
    const std::size_t c_gpus = table.column("gpus");
    const std::size_t c_nodes = table.column("nodes");
    const std::size_t c_coll = table.column("collective");
    const std::size_t c_size = table.column("size_bytes");
    const std::size_t c_time = table.column("time_us");

    Preset preset = load_preset(spec.preset, context.preset_dirs);
    const NcclForce force = dataset_nccl_force(preset.system, spec);

    DatasetResult out;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const InputLocation row_at{table.path, table.lines[r], 0, ""};
        std::string name = table.rows[r][c_coll];
        if (name.ends_with("_perf")) name.resize(name.size() - 5);
        const auto kind = parse_collective_kind(name);
        if (!kind) throw InputError({table.path, table.lines[r], 0, "collective"}, "unknown collective '" + name + "'");
        const long long gpus = table.integer(r, c_gpus);
        const long long nodes = table.integer(r, c_nodes);
        if (nodes < 1 || gpus < nodes || gpus % nodes != 0)
            throw InputError({table.path, table.lines[r], 0, "gpus"},
                             "expected gpus to be a multiple of nodes, got " + std::to_string(gpus) + " GPUs on " +
                                 std::to_string(nodes) + " nodes");
        const double measured_us = table.number(r, c_time);
        if (!(measured_us > 0)) throw InputError({table.path, table.lines[r], 0, "time_us"}, "must be > 0");
        const std::uint64_t bytes = static_cast<std::uint64_t>(table.integer(r, c_size));

        Network network;
        try {
            network = shape_cluster(preset.network, nodes, gpus / nodes);
        } catch (const InputError& e) {
            throw InputError(row_at, e.detail());
        }
        const CollectiveQuery query{*kind, bytes, whole_network_group(network), force};
        CollectiveResult result;
        try {
            result = collective_time(network, preset.system, preset.backend, query);
        } catch (const InputError& e) {  // keep what the engine says (and a preset's location), at the row
            throw InputError(row_at, e.what());
        }

        ValidationCase c;
        c.dataset = spec.name;
        c.group = std::string(collective_kind_name(*kind)) + "/" + std::to_string(gpus) + "gpu/" +
                  std::to_string(nodes) + "node";
        c.label = bytes % 1048576 == 0 ? format_byte_size(bytes) : std::to_string(bytes) + " B";
        c.source = table.rows[r][c_source];
        c.x = static_cast<double>(bytes);
        c.measured = measured_us;
        c.predicted = result.time_ns / 1000.0;
        c.model = std::string(result.algorithm);
        out.cases.push_back(std::move(c));
    }
    return out;
}

}  // namespace dtcalc
