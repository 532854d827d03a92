#include "validate/astrasim_datasets.h"

#include <algorithm>
#include <cmath>
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

    const System system = load_preset(spec.preset, context.preset_dirs).system;
    const NcclForce force = dataset_nccl_force(system, spec);

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
        CommGroup members;
        try {
            members = first_npus_group(system.network, gpus, "");
        } catch (const InputError& e) {
            throw InputError({table.path, table.lines[r], 0, "gpus"}, e.detail());
        }
        CollectiveResult result;
        try {
            result = collective_time(system, {CollectiveKind::AllReduce, bytes, members, force});
        } catch (const InputError& e) {  // keep what the engine says (and a preset's location), at the row
            throw InputError({table.path, table.lines[r], 0, ""}, e.what());
        }

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
    // reference_runs_2.csv: the earliest and latest rank's finish (optional columns).
    auto has_column = [&](const std::string& name) {
        return std::find(table.header.begin(), table.header.end(), name) != table.header.end();
    };
    const bool has_ranks = has_column("ranks_min") && has_column("ranks_max");
    const std::size_t c_ranks_min = has_ranks ? table.column("ranks_min") : 0;
    const std::size_t c_ranks_max = has_ranks ? table.column("ranks_max") : 0;

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
        // A number that is the whole entry (no trailing text), within [lo, hi].
        auto number = [&](std::size_t col, const std::string& text, double lo, double hi, const std::string& expected) {
            const char* begin = text.c_str();
            char* stop = nullptr;
            const double v = std::strtod(begin, &stop);
            if (text.empty() || stop != begin + text.size() || !(v >= lo && v <= hi))
                bad(col, "expected " + expected + ", got '" + text + "'");
            return v;
        };
        System on;
        on.backend = backend;
        Network& network = on.network;
        SystemConfig& system = on.config;
        std::int64_t total_npus = 1;
        for (std::size_t d = 0; d < topologies.size(); ++d) {
            const auto topology = parse_topology(topologies[d]);
            if (!topology) bad(c_topology, "unknown topology '" + topologies[d] + "'");
            const auto algorithm = parse_algorithm(impls[d]);
            if (!algorithm) bad(c_impl, "unknown algorithm '" + impls[d] + "'");
            const double count = number(c_npus, npus[d], 1, static_cast<double>(kMaxNpus), "a whole number of NPUs from 1 to 16777216");
            if (count != std::floor(count)) bad(c_npus, "expected a whole number of NPUs from 1 to 16777216, got '" + npus[d] + "'");
            total_npus *= static_cast<std::int64_t>(count);
            if (total_npus > kMaxNpus) bad(c_npus, "more than 16777216 NPUs in all");
            const double bandwidth = number(c_bw, bandwidths[d], kMinBandwidthGbps, kMaxBandwidthGbps, "a bandwidth from 1e-6 to 1e12 GB/s");
            const double latency = number(c_lat, latencies[d], 0, kMaxLatencyNs, "a latency from 0 to 1e9 ns");
            network.dimensions.push_back({*topology, static_cast<int>(count), bandwidth, latency});
            for (auto& list : system.implementation) list.push_back(*algorithm);
        }
        // The row's algorithms stand where a system file's lists would: errors name the column.
        for (auto& where : system.implementation_where) where.assign(topologies.size(), {table.path, table.lines[r], 0, table.header[c_impl]});
        const auto kind = parse_collective_kind(row[c_coll]);
        if (!kind) bad(c_coll, "unknown collective '" + row[c_coll] + "'");
        const auto optimization = parse_collective_optimization(row[c_opt]);
        if (!optimization) bad(c_opt, "expected baseline or localBWAware, got '" + row[c_opt] + "'");
        // Checked before the casts: the chunk pipeline's work grows with both.
        const long long splits = table.integer(r, c_splits), active = table.integer(r, c_active);
        if (splits < 1 || splits > kMaxChunks) bad(c_splits, "expected 1 to 1024 chunks, got " + std::to_string(splits));
        if (active < 1 || active > kMaxChunks) bad(c_active, "expected 1 to 1024 chunks in flight, got " + std::to_string(active));
        system.preferred_dataset_splits = static_cast<int>(splits);
        system.active_chunks_per_dimension = static_cast<int>(active);
        system.endpoint_delay_ns = number(c_endpoint, row[c_endpoint], 0, kMaxLatencyNs, "a delay from 0 to 1e9 ns");
        system.collective_optimization = *optimization;
        system.local_mem_bw_gbps = 3350;  // every reference run (validation/astrasim/SOURCE.md)
        system.scheduling_policy = SchedulingPolicy::LIFO;
        const std::uint64_t comm_size = static_cast<std::uint64_t>(table.integer(r, c_size));
        // ASTRA-sim's all-gather size is each NPU's input: the product is checked before it is formed.
        if (*kind == CollectiveKind::AllGather && comm_size > kMaxMessageBytes / static_cast<std::uint64_t>(total_npus))
            bad(c_size, "an all-gather of " + std::to_string(comm_size) + " B per NPU on " + std::to_string(total_npus) +
                            " NPUs gathers more than 1 PiB (2^50 B, the largest size accepted)");
        const std::uint64_t bytes = *kind == CollectiveKind::AllGather
                                        ? comm_size * static_cast<std::uint64_t>(network.total_npus())
                                        : comm_size;
        const double cycles = table.number(r, c_cycles);
        if (!(cycles > 0)) bad(c_cycles, "must be > 0");
        CollectiveResult result;
        try {
            result = collective_time(on, {*kind, bytes, whole_network_group(network), {}});
        } catch (const InputError& e) {  // the row's network or sizes: keep what the engine says, at the row
            if (!e.where().file.empty()) throw;
            throw InputError({table.path, table.lines[r], 0, ""}, e.what());
        }

        ValidationCase c;
        c.dataset = spec.name;
        c.group = std::string(network_backend_name(backend)) + "/" + row[c_topology] + "/" + row[c_impl];
        c.label = row[c_npus] + " " + row[c_coll] + " " + format_byte_size(comm_size);
        c.source = table.path + ":" + std::to_string(table.lines[r]);
        c.x = static_cast<double>(bytes);
        c.measured = cycles / 1000.0;
        c.predicted = result.time_ns / 1000.0;
        c.model = row[c_topology] + " " + row[c_impl] + " (" + std::string(result.method) + ")";
        // Where ranks finish apart, the earliest and the latest are cases too.
        if (has_ranks) {
            const double first = table.number(r, c_ranks_min), last = table.number(r, c_ranks_max);
            if (!(first > 0) || first > cycles) bad(c_ranks_min, "must be > 0 and <= sim_cycles");
            if (!(last >= cycles)) bad(c_ranks_max, "must be >= sim_cycles");
            if (first != cycles || last != cycles) {
                ValidationCase earliest = c, latest = c;
                earliest.label += " ranks_min";
                earliest.measured = first / 1000.0;
                earliest.predicted = result.ranks_min_ns / 1000.0;
                latest.label += " ranks_max";
                latest.measured = last / 1000.0;
                latest.predicted = result.ranks_max_ns / 1000.0;
                out.cases.push_back(std::move(c));
                out.cases.push_back(std::move(earliest));
                out.cases.push_back(std::move(latest));
                continue;
            }
        }
        out.cases.push_back(std::move(c));
    }
    return out;
}

}  // namespace dtcalc
