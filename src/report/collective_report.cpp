#include "report/collective_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>

#include "collective/bus_bandwidth.h"

namespace dtcalc {
namespace {

std::string algorithm_label(const PhaseBreakdown& p) {
    if (p.kind == CollectiveKind::SendRecv) return "p2p";
    std::string name(algorithm_name(p.algorithm.kind));
    if (p.algorithm.flat) {
        name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
        name = "one" + name;
    }
    return name;
}

std::string number(double value) {
    // Twelve significant digits: every digit the model means, none of the
    // binary noise of unit conversions (14.437000000000001).
    return fmt::format("{:.12g}", value);
}

bool has_algorithm(const std::vector<CollectiveRow>& rows) {
    for (const CollectiveRow& row : rows)
        if (!row.result.algorithm.empty()) return true;
    return false;
}

}  // namespace

double CollectiveRow::algbw_gbps() const {
    return result.time_ns > 0 ? static_cast<double>(size_bytes) / result.time_ns : 0.0;
}

double CollectiveRow::busbw_gbps() const { return algbw_gbps() * bus_bandwidth_factor(kind, npus); }

void write_collective_table(std::ostream& out, const CollectiveReportHeader& header,
                            const std::vector<CollectiveRow>& rows, TimeUnit unit, bool with_phases) {
    if (rows.empty()) return;
    const CollectiveRow& first = rows.front();
    const std::string u(time_unit_name(unit));
    // Rows over several group sizes (--npus 8..1024, --nodes 1..128) lead with
    // their NPU count.
    std::int64_t min_npus = first.npus, max_npus = first.npus;
    for (const CollectiveRow& row : rows) {
        min_npus = std::min(min_npus, row.npus);
        max_npus = std::max(max_npus, row.npus);
    }
    const bool counts = min_npus != max_npus;
    fmt::print(out, "# {} on {} NPUs, {}, backend {}\n", collective_kind_name(first.kind),
               counts ? fmt::format("{} to {}", min_npus, max_npus) : std::to_string(first.npus), header.system_label,
               network_backend_name(first.backend));
    const bool nccl = has_algorithm(rows);
    fmt::print(out, "{}{:>13} {:>12} {:>7} {:>16} {:>13} {:>13}{}\n", counts ? "#    npus " : "#", "size (B)", "size",
               "chunks", "time (" + u + ")", "algbw (GB/s)", "busbw (GB/s)",
               nccl ? fmt::format(" {:>5} {:>9}  {:<10} {}", "nics", "channels", "algorithm", "protocol")
                    : std::string());
    for (const CollectiveRow& row : rows) {
        if (counts) fmt::print(out, "{:>9} ", row.npus);
        fmt::print(out, "{:>14} {:>12} {:>7} {:>16} {:>13.2f} {:>13.2f}{}\n", row.size_bytes,
                   format_byte_size(row.size_bytes), row.result.chunks, format_time(unit, row.result.time_ns),
                   row.algbw_gbps(), row.busbw_gbps(),
                   nccl ? fmt::format(" {:>5} {:>9}  {:<10} {}", row.result.nics, row.result.channels,
                                      row.result.nccl_algorithm, row.result.nccl_protocol)
                        : std::string());
    }
    if (!with_phases) return;
    for (const CollectiveRow& row : rows) {
        fmt::print(out, "\nphases of one chunk ({}{}, {} chunks of {}), times in {}:\n", format_byte_size(row.size_bytes),
                   counts ? fmt::format(" on {} NPUs", row.npus) : std::string(), row.result.chunks,
                   format_byte_size(row.result.chunk_bytes), u);
        fmt::print(out, "{:>4} {:<15} {:<17} {:>6} {:>6} {:>12} {:>11} {:>11} {:>10} {:>10} {:>11} {:>11}\n", "dim",
                   "collective", "algorithm", "npus", "steps", "bytes/step", "latency", "transfer", "endpoint",
                   "reduction", "phase", "wait");
        for (const PhaseBreakdown& p : row.result.phases) {
            fmt::print(out, "{:>4} {:<15} {:<17} {:>6} {:>6} {:>12} {:>11} {:>11} {:>10} {:>10} {:>11} {:>11}\n",
                       p.dimension, collective_kind_name(p.kind),
                       row.result.algorithm.empty() ? algorithm_label(p) : std::string(row.result.algorithm), p.npus,
                       p.steps,
                       p.bytes_per_step, format_time(unit, p.latency_ns), format_time(unit, p.bandwidth_ns),
                       format_time(unit, p.endpoint_ns), format_time(unit, p.reduction_ns), format_time(unit, p.time_ns),
                       format_time(unit, p.wait_ns));
        }
    }
}

void write_collective_csv(std::ostream& out, const std::vector<CollectiveRow>& rows, TimeUnit unit) {
    // One column set for every backend: the nccl backend's choice (NICs in use,
    // channels, algorithm, protocol) is empty where another backend priced it.
    const std::string u(time_unit_name(unit));
    fmt::print(out, "collective,size_bytes,npus,backend,chunks,chunk_bytes,time_{},algbw_GBps,busbw_GBps,nics,channels,"
                    "algorithm,protocol\n",
               u);
    for (const CollectiveRow& row : rows) {
        fmt::print(out, "{},{},{},{},{},{},{},{},{}{}\n", collective_kind_name(row.kind), row.size_bytes, row.npus,
                   network_backend_name(row.backend), row.result.chunks, row.result.chunk_bytes,
                   number(nanoseconds_to(unit, row.result.time_ns)), number(row.algbw_gbps()),
                   number(row.busbw_gbps()),
                   row.result.algorithm.empty()
                       ? std::string(",,,,")
                       : fmt::format(",{},{},{},{}", row.result.nics, row.result.channels, row.result.nccl_algorithm,
                                     row.result.nccl_protocol));
    }
}

void write_collective_json(std::ostream& out, const std::vector<CollectiveRow>& rows) {
    auto us = [](double ns) { return number(ns * 1e-3); };
    out << "[";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const CollectiveRow& row = rows[i];
        fmt::print(out,
                   "{}\n  {{\"collective\": \"{}\", \"size_bytes\": {}, \"npus\": {}, \"backend\": \"{}\", "
                   "\"chunks\": {}, \"chunk_bytes\": {}, \"time_us\": {}, \"time_ns\": {}, \"algbw_GBps\": {}, "
                   "\"busbw_GBps\": {}, ",
                   i == 0 ? "" : ",", collective_kind_name(row.kind), row.size_bytes, row.npus,
                   network_backend_name(row.backend), row.result.chunks, row.result.chunk_bytes, us(row.result.time_ns),
                   number(row.result.time_ns), number(row.algbw_gbps()), number(row.busbw_gbps()));
        if (!row.result.algorithm.empty())
            fmt::print(out, "\"nics\": {}, \"channels\": {}, \"algorithm\": \"{}\", \"protocol\": \"{}\", ",
                       row.result.nics, row.result.channels, row.result.nccl_algorithm, row.result.nccl_protocol);
        // Only where ranks finish apart (doubleBinaryTree; halvingDoubling on a congestion-aware Ring).
        if (row.result.ranks_min_ns != row.result.ranks_max_ns)
            fmt::print(out, "\"ranks_min_us\": {}, \"ranks_max_us\": {}, ", us(row.result.ranks_min_ns),
                       us(row.result.ranks_max_ns));
        out << "\"phases\": [";
        for (std::size_t j = 0; j < row.result.phases.size(); ++j) {
            const PhaseBreakdown& p = row.result.phases[j];
            fmt::print(out,
                       "{}\n    {{\"dimension\": {}, \"collective\": \"{}\", \"algorithm\": \"{}\", \"npus\": {}, "
                       "\"steps\": {}, \"bytes_per_step\": {}, \"latency_us\": {}, \"transfer_us\": {}, "
                       "\"endpoint_us\": {}, \"reduction_us\": {}, \"time_us\": {}, \"wait_us\": {}}}",
                       j == 0 ? "" : ",", p.dimension, collective_kind_name(p.kind),
                       row.result.algorithm.empty() ? algorithm_label(p) : std::string(row.result.algorithm), p.npus,
                       p.steps, p.bytes_per_step, us(p.latency_ns), us(p.bandwidth_ns), us(p.endpoint_ns),
                       us(p.reduction_ns), us(p.time_ns), us(p.wait_ns));
        }
        out << (row.result.phases.empty() ? "]}" : "\n  ]}");
    }
    out << (rows.empty() ? "]\n" : "\n]\n");
}

}  // namespace dtcalc
