#include "chakra/node_timing.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "collective/chunk_pipeline.h"
#include "collective/collective_cost.h"
#include "collective/link_cost.h"
#include "core/error.h"
#include "core/units.h"

namespace dtcalc::chakra {
namespace {

// ASTRA-sim's per-message processing on a communicator group's ring.
constexpr double kLocalMessageNs = 10;

CollectiveKind engine_kind(CommType type) {
    switch (type) {
        case CommType::AllGather: return CollectiveKind::AllGather;
        case CommType::ReduceScatter: return CollectiveKind::ReduceScatter;
        case CommType::AllToAll: return CollectiveKind::AllToAll;
        default: return CollectiveKind::AllReduce;
    }
}

// One message on the network: the dimension the two NPUs are charged to.
double message_ns(const TimingModel& model, std::int64_t src, std::int64_t dst, std::uint64_t bytes) {
    const Network& network = model.system->network;
    const int dim = network.charged_dimension(src, dst);
    if (dim < 0) return 0;
    const Dimension& d = network.dimensions[static_cast<std::size_t>(dim)];
    const int hops = network.hops(src, dst);
    const double serialization = static_cast<double>(bytes) / astra_bytes_per_ns(d.bandwidth_gbps);
    if (model.system->backend == NetworkBackend::AstraAware) return hops * std::floor(d.latency_ns + serialization);
    return std::floor(hops * d.latency_ns + serialization);
}

}  // namespace

bool timed_collective(CommType type) {
    return type == CommType::AllReduce || type == CommType::AllGather || type == CommType::ReduceScatter ||
           type == CommType::AllToAll || type == CommType::Broadcast;
}

double replay_time(const TraceNode& node) {
    if (node.exact_duration_ns >= 0) return node.exact_duration_ns;
    const double ns = static_cast<double>(node.duration_micros) * 1000.0;
    return ns > 0 ? ns : 1.0;
}

CompTime comp_time(const TimingModel& model, const TraceNode& node) {
    CompTime t;
    const SystemConfig& sys = model.system->config;
    if (!sys.roofline_enabled || node.is_cpu_op || model.replay_only) {
        t.ns = replay_time(node);
        return t;
    }
    if (node.tensor_size == 0) {  // skipped as invalid: no time, no statistics
        if (node.exact_duration_ns >= 0) t.ns = node.exact_duration_ns;
        return t;
    }
    const double num_ops = static_cast<double>(node.num_ops);
    const double intensity = num_ops / static_cast<double>(node.tensor_size);
    const double peak = sys.peak_perf_tflops * 1e12;
    const double bandwidth = sys.local_mem_bw_gbps * 1e9;
    const double perf = std::min(bandwidth * intensity, peak);
    t.roofline = true;
    t.intensity = intensity;
    t.perf_flops = perf;
    t.memory_bound = perf < peak;
    t.ns = perf > 0 ? std::floor(num_ops / perf * 1e9) : 0.0;
    if (node.exact_duration_ns >= 0) t.ns = node.exact_duration_ns;
    return t;
}

CollectiveTimes collective_time_all(const TimingModel& model, CommType type, std::uint64_t comm_size) {
    const CommGroup group = whole_network_group(model.system->network);
    std::uint64_t bytes = comm_size;
    if (type == CommType::AllGather) {
        // comm_size <= 2^50 and the group <= 2^24 NPUs: checked before the product is formed.
        const auto npus = static_cast<std::uint64_t>(group.size());
        if (comm_size > kMaxMessageBytes / npus)
            throw InputError({"", 0, 0, ""},
                             "attribute comm_size: out of range: an all-gather of " + std::to_string(comm_size) + " B per NPU on " +
                                 std::to_string(npus) + " NPUs gathers more than 1 PiB (2^50 B, the largest size accepted)");
        bytes = comm_size * npus;
    }
    CollectiveResult r = collective_time(*model.system, {engine_kind(type), bytes, group, {}});
    return {r.time_ns, std::move(r.rank_finish_ns)};
}

double collective_time_group(const TimingModel& model, CommType type, std::uint64_t comm_size,
                             std::span<const int> ranks, int position) {
    const std::uint64_t n = ranks.size();
    if (n <= 1) return 0;
    const SystemConfig& sys = model.system->config;
    const std::uint64_t splits = static_cast<std::uint64_t>(sys.preferred_dataset_splits);
    std::uint64_t chunk = comm_size / splits;
    if (type != CommType::AllGather) chunk = std::max(chunk, n);
    std::uint64_t steps = 0, reducing = 0, message = 0;
    switch (type) {
        case CommType::AllReduce: steps = 2 * (n - 1); reducing = n - 1; message = chunk / n; break;
        case CommType::ReduceScatter: steps = n - 1; reducing = n - 1; message = chunk / n; break;
        case CommType::AllGather: steps = n - 1; message = chunk; break;
        case CommType::AllToAll: steps = n * (n - 1) / 2; message = chunk / n; break;
        default: return 0;
    }
    // Message time on each ring link, link k entering member k.
    std::vector<double> link(n);
    for (std::uint64_t k = 0; k < n; ++k)
        link[k] = message_ns(model, ranks[(k + n - 1) % n], ranks[k], message);
    double ns = kLocalMessageNs + static_cast<double>(steps) * kLocalMessageNs +
                static_cast<double>(reducing) * reduction_ns(message, sys.local_mem_bw_gbps);
    const std::uint64_t me = static_cast<std::uint64_t>(position);
    const double laps = static_cast<double>(steps / n);
    double lap = 0;
    for (double v : link) lap += v;
    ns += laps * lap;
    for (std::uint64_t k = 0; k < steps % n; ++k) ns += link[(me + n - k) % n];
    // Chunks through the one queue of the ring, `active` at a time.
    const int dim = std::max(0, model.system->network.charged_dimension(ranks[(me + n - 1) % n], ranks[me]));
    const double serialization =
        link_serialization_ns(model.system->network.dimensions[static_cast<std::size_t>(dim)], model.system->backend, message);
    const std::vector<PipelinePhase> phases{{0, ns, serialization}};
    return run_chunk_pipeline(phases, sys.preferred_dataset_splits, sys.active_chunks_per_dimension).total_ns;
}

double send_time(const TimingModel& model, std::int64_t src, std::int64_t dst, std::uint64_t bytes) {
    return message_ns(model, src, dst, bytes);
}

double memory_time(const TimingModel& model, std::uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    switch (model.remote.kind) {
        case RemoteMemoryKind::None: return std::floor(b / model.system->config.local_mem_bw_gbps);
        case RemoteMemoryKind::PerNpu:
            return model.remote.latency_ns + std::floor(b / (model.remote.bandwidth_gbps * 1e9) * 1e9);
        case RemoteMemoryKind::PerNode:
            return model.remote.npus_per_node *
                   (model.remote.latency_ns + std::floor(b / (model.remote.bandwidth_gbps * 1e9) * 1e9));
        case RemoteMemoryKind::Pool:
            return static_cast<double>(model.system->network.total_npus()) *
                   (model.remote.latency_ns + std::floor(b / (model.remote.bandwidth_gbps * 1e9) * 1e9));
    }
    return 0;
}

}  // namespace dtcalc::chakra
