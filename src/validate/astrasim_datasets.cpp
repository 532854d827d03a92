#include "validate/astrasim_datasets.h"

#include <cstdlib>
#include <string>

#include "collective/collective_cost.h"
#include "config/preset.h"
#include "core/units.h"
#include "network/topology.h"
#include "validate/csv_table.h"
#include "validate/nccl_tests_dataset.h"

namespace dtcalc {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) return out;
        start = end + 1;
    }
}

// "... geomean error rate = 20.63% ..." -> "20.63 %"; empty when absent.
std::string published_geomean(const std::string& notes) {
    const std::string key = "geomean error rate = ";
    const std::size_t at = notes.find(key);
    if (at == std::string::npos) return "";
    const std::size_t begin = at + key.size();
    const std::size_t end = notes.find('%', begin);
    if (end == std::string::npos) return "";
    return notes.substr(begin, end - begin) + " %";
}

}  // namespace

DatasetResult run_astrasim_hgx_dataset(const DatasetSpec& spec, const ValidationContext& context) {
    const CsvTable table = read_csv_table(spec.file);
    const std::size_t c_source = table.column("source_url");
    const std::size_t c_gpus = table.column("gpus");
    const std::size_t c_size = table.column("size_bytes");
    const std::size_t c_measured = table.column("measured_us");
    const std::size_t c_astrasim = table.column("astrasim_us");
    const std::size_t c_notes = table.column("notes");

    Preset preset = load_preset(spec.preset, context.preset_dirs);
    force_dataset_nccl_choice(preset.system, spec);

    DatasetResult out;
    out.reference_name = "ASTRA-sim";
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const long long gpus = table.integer(r, c_gpus);
        const std::string group = "all-reduce/" + std::to_string(gpus) + "gpu";
        if (table.rows[r][c_measured].empty()) {
            const std::string published = published_geomean(table.rows[r][c_notes]);
            if (!published.empty())
                out.group_notes.emplace_back(group, "ASTRA-sim published geomean " + published + " (whole sweep)");
            continue;
        }
        const std::uint64_t bytes = static_cast<std::uint64_t>(table.integer(r, c_size));
        const double measured_us = table.number(r, c_measured);
        if (!(measured_us > 0)) throw InputError({table.path, table.lines[r], 0, "measured_us"}, "must be > 0");
        const CommGroup members = first_npus_group(preset.network, gpus, table.path + " gpus");
        const CollectiveResult result =
            collective_time(preset.network, preset.system, preset.backend, {CollectiveKind::AllReduce, bytes, members});

        ValidationCase c;
        c.dataset = spec.name;
        c.group = group;
        c.label = format_byte_size(bytes);
        c.source = table.rows[r][c_source];
        c.x = static_cast<double>(bytes);
        c.measured = measured_us;
        c.predicted = result.time_ns / 1000.0;
        if (!table.rows[r][c_astrasim].empty()) c.reference = table.number(r, c_astrasim);
        c.model = std::string(result.algorithm);
        out.cases.push_back(std::move(c));
    }
    return out;
}

DatasetResult run_astrasim_reference_dataset(const DatasetSpec& spec, const ValidationContext&) {
    const CsvTable table = read_csv_table(spec.file);
    const std::size_t c_backend = table.column("backend");
    const std::size_t c_topology = table.column("topology");
    const std::size_t c_npus = table.column("npus_per_dim");
    const std::size_t c_bw = table.column("bandwidth_GBps_per_dim");
    const std::size_t c_lat = table.column("latency_ns_per_dim");
    const std::size_t c_coll = table.column("collective");
    const std::size_t c_size = table.column("size_bytes");
    const std::size_t c_impl = table.column("impl_per_dim");
    const std::size_t c_splits = table.column("splits");
    const std::size_t c_active = table.column("active_chunks");
    const std::size_t c_endpoint = table.column("endpoint_delay");
    const std::size_t c_opt = table.column("collective_opt");
    const std::size_t c_cycles = table.column("sim_cycles");

    DatasetResult out;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const auto& row = table.rows[r];
        auto bad = [&](std::size_t col, const std::string& what) {
            throw InputError({table.path, table.lines[r], 0, table.header[col]}, what);
        };
        const NetworkBackend backend =
            row[c_backend] == "congestion_aware" ? NetworkBackend::AstraAware : NetworkBackend::AstraUnaware;
        if (row[c_backend] != "congestion_aware" && row[c_backend] != "congestion_unaware")
            bad(c_backend, "expected congestion_aware or congestion_unaware, got '" + row[c_backend] + "'");
        const auto topologies = split(row[c_topology], '_');
        const auto npus = split(row[c_npus], 'x');
        const auto bandwidths = split(row[c_bw], 'x');
        const auto latencies = split(row[c_lat], 'x');
        const auto impls = split(row[c_impl], 'x');
        if (npus.size() != topologies.size() || bandwidths.size() != topologies.size() ||
            latencies.size() != topologies.size() || impls.size() != topologies.size())
            bad(c_topology, "every per-dimension column needs one entry per dimension");
        Network network;
        SystemConfig system;
        for (std::size_t d = 0; d < topologies.size(); ++d) {
            const auto topology = parse_topology(topologies[d]);
            if (!topology) bad(c_topology, "unknown topology '" + topologies[d] + "'");
            const auto algorithm = parse_algorithm(impls[d]);
            if (!algorithm) bad(c_impl, "unknown algorithm '" + impls[d] + "'");
            network.dimensions.push_back({*topology, std::atoi(npus[d].c_str()), std::atof(bandwidths[d].c_str()),
                                          std::atof(latencies[d].c_str())});
            if (network.dimensions.back().npus < 1 || !(network.dimensions.back().bandwidth_gbps > 0))
                bad(c_npus, "expected positive NPU counts and bandwidths");
            for (auto& list : system.implementation) list.push_back(*algorithm);
        }
        const auto kind = parse_collective_kind(row[c_coll]);
        if (!kind) bad(c_coll, "unknown collective '" + row[c_coll] + "'");
        const auto optimization = parse_collective_optimization(row[c_opt]);
        if (!optimization) bad(c_opt, "expected baseline or localBWAware, got '" + row[c_opt] + "'");
        system.preferred_dataset_splits = static_cast<int>(table.integer(r, c_splits));
        system.active_chunks_per_dimension = static_cast<int>(table.integer(r, c_active));
        if (system.preferred_dataset_splits < 1 || system.active_chunks_per_dimension < 1)
            bad(c_splits, "splits and active chunks must be >= 1");
        system.endpoint_delay_ns = table.number(r, c_endpoint);
        system.collective_optimization = *optimization;
        system.local_mem_bw_gbps = 3350;  // every reference run (validation/astrasim/SOURCE.md)
        system.scheduling_policy = SchedulingPolicy::LIFO;
        const std::uint64_t comm_size = static_cast<std::uint64_t>(table.integer(r, c_size));
        const std::uint64_t bytes = *kind == CollectiveKind::AllGather
                                        ? comm_size * static_cast<std::uint64_t>(network.total_npus())
                                        : comm_size;
        const double cycles = table.number(r, c_cycles);
        if (!(cycles > 0)) bad(c_cycles, "must be > 0");
        const CollectiveResult result =
            collective_time(network, system, backend, {*kind, bytes, whole_network_group(network)});

        ValidationCase c;
        c.dataset = spec.name;
        c.group = std::string(network_backend_name(backend));
        c.label = row[c_npus] + " " + row[c_coll] + " " + format_byte_size(comm_size);
        c.source = table.path + ":" + std::to_string(table.lines[r]);
        c.x = static_cast<double>(bytes);
        c.measured = cycles / 1000.0;
        c.predicted = result.time_ns / 1000.0;
        c.model = row[c_topology] + " " + row[c_impl];
        out.cases.push_back(std::move(c));
    }
    return out;
}

}  // namespace dtcalc
