#include "config/system_config_reader.h"

#include "config/config_readers.h"
#include "core/units.h"

namespace dtcalc {
namespace {

constexpr std::string_view kImplementationKeys[kGroupCollectiveKinds] = {
    "all-reduce-implementation", "reduce-scatter-implementation", "all-gather-implementation",
    "all-to-all-implementation"};

std::vector<AlgorithmChoice> read_implementation(ConfigTableReader& reader, std::string_view key,
                                                 std::size_t dimensions) {
    const auto& items = reader.list(key);
    std::vector<AlgorithmChoice> out;
    for (const ConfigValue& item : items) {
        const std::string& name = as_string(item);
        const auto choice = parse_algorithm(name);
        if (!choice)
            fail_at(item, "unknown algorithm '" + name +
                              "' (expected ring, direct, halvingDoubling, doubleBinaryTree, or a one* flat variant)");
        out.push_back(*choice);
    }
    const bool flat = out.front().flat;
    if (flat && out.size() != 1)
        fail_at(reader.required(key), "a flat one* algorithm must be the only entry");
    for (std::size_t i = 1; i < out.size(); ++i)
        if (out[i].flat) fail_at(items[i], "a flat one* algorithm must be the only entry");
    if (!flat && out.size() != dimensions)
        fail_at(reader.required(key), "has " + std::to_string(out.size()) + " entries but the network has " +
                                          std::to_string(dimensions) + " dimensions");
    return out;
}

// Chunks of a collective, or chunks in flight: 1 to kMaxChunks. The chunk
// pipeline's work grows as chunks x slots, so the bound also bounds its time.
int chunk_count(ConfigTableReader& reader, std::string_view key) {
    const ConfigValue& value = reader.required(key);
    const int n = as_positive_integer(value);
    if (n > kMaxChunks)
        fail_at(value, "out of range (got " + std::to_string(n) + "): accepted are 1 to " + std::to_string(kMaxChunks));
    return n;
}

}  // namespace

SystemConfig system_config_from(const ConfigValue& table, std::size_t dimensions) {
    ConfigTableReader reader(table);
    SystemConfig config;
    for (int k = 0; k < kGroupCollectiveKinds; ++k) {
        config.implementation[k] = read_implementation(reader, kImplementationKeys[k], dimensions);
        for (const ConfigValue& item : reader.list(kImplementationKeys[k])) config.implementation_where[k].push_back(item.where);
    }

    config.preferred_dataset_splits = chunk_count(reader, "preferred-dataset-splits");
    config.active_chunks_per_dimension = chunk_count(reader, "active-chunks-per-dimension");
    const ConfigValue& delay = reader.required("endpoint-delay");
    config.endpoint_delay_ns = as_non_negative_number(delay);
    if (config.endpoint_delay_ns > kMaxLatencyNs)
        fail_at(delay, number_out_of_range(config.endpoint_delay_ns, 0, kMaxLatencyNs, "ns (up to 1 s)"));
    const ConfigValue& mem_bw = reader.required("local-mem-bw");
    config.local_mem_bw_gbps = as_positive_number(mem_bw);
    if (config.local_mem_bw_gbps < kMinBandwidthGbps || config.local_mem_bw_gbps > kMaxBandwidthGbps)
        fail_at(mem_bw, number_out_of_range(config.local_mem_bw_gbps, kMinBandwidthGbps, kMaxBandwidthGbps,
                                            "GB/s (1 kB/s to 1 ZB/s)"));

    const ConfigValue& optimization = reader.required("collective-optimization");
    const auto opt = parse_collective_optimization(as_string(optimization));
    if (!opt) fail_at(optimization, "expected 'baseline' or 'localBWAware', got '" + optimization.text + "'");
    config.collective_optimization = *opt;

    const ConfigValue& policy = reader.required("scheduling-policy");
    const auto pol = parse_scheduling_policy(as_string(policy));
    if (!pol) fail_at(policy, "expected 'LIFO' or 'FIFO', got '" + policy.text + "'");
    config.scheduling_policy = *pol;

    if (const ConfigValue* peak = reader.optional("peak-perf")) {
        config.peak_perf_tflops = as_positive_number(*peak);
        // 1 MFLOP/s to 1 ZFLOP/s per NPU.
        if (config.peak_perf_tflops < 1e-6 || config.peak_perf_tflops > 1e9)
            fail_at(*peak, number_out_of_range(config.peak_perf_tflops, 1e-6, 1e9, "TFLOP/s"));
    }
    config.roofline_enabled = reader.optional_boolean_flag("roofline-enabled").value_or(false);
    config.track_local_mem = reader.optional_boolean_flag("track-local-mem").value_or(false);

    // ASTRA-sim's scheduling variants that dtcalc does not model are accepted
    // only at their defaults, so a file that relies on another value is an error,
    // not a silently different answer.
    if (const ConfigValue* intra = reader.optional("intra-dimension-scheduling"); intra && as_string(*intra) != "FIFO")
        fail_at(*intra, "only FIFO is modelled (got '" + intra->text + "')");
    if (const ConfigValue* inter = reader.optional("inter-dimension-scheduling");
        inter && as_string(*inter) != "baseline")
        fail_at(*inter, "only baseline is modelled (got '" + inter->text + "')");
    // Keys ASTRA-sim reads that change nothing in dtcalc's model: boost mode,
    // tracing and replay switches, and the LogGP parameters of its memory bus
    // (unused by its analytical backends' collectives).
    reader.ignore({"boost-mode", "trace-enabled", "replay-only", "L", "o", "g", "G", "model-shared-bus"});
    reader.finish();
    return config;
}

SystemConfig load_astra_system_json(const std::string& path, std::size_t dimensions) {
    return system_config_from(read_json_file(path), dimensions);
}

}  // namespace dtcalc
