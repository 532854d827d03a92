#include "config/nccl_params_reader.h"

#include <fmt/format.h>

#include <string>
#include <tuple>
#include <utility>

namespace dtcalc {
namespace {

double fraction(const ConfigValue& v) {
    const double f = as_positive_number(v);
    if (f > 1) fail_at(v, "expected a fraction in (0, 1], got " + fmt::format("{}", f));
    return f;
}

double fraction_or_zero(const ConfigValue& v) {
    const double f = as_non_negative_number(v);
    if (f > 1) fail_at(v, "expected a fraction in [0, 1], got " + fmt::format("{}", f));
    return f;
}

template <std::size_t N>
std::array<double, N> numbers(ConfigTableReader& r, std::string_view key) {
    const ConfigValue& list = r.required(key);
    if (list.type != ConfigValue::Type::List || list.items.size() != N)
        fail_at(list, "expected a list of " + std::to_string(N) + " numbers");
    std::array<double, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = as_non_negative_number(list.items[i]);
    return out;
}

int channel_count(const ConfigValue& v) {
    const int n = as_positive_integer(v);
    if (n > 64) fail_at(v, "NCCL runs at most 64 channels, got " + std::to_string(n));
    return n;
}

int channels(ConfigTableReader& r, std::string_view key) { return channel_count(r.required(key)); }

// A figure NCCL states per node bucket (one node, two nodes, more): one number
// for all three, or a list of three.
NcclPerNodeBucket per_node_bucket(ConfigTableReader& r, std::string_view key) {
    const ConfigValue& v = r.required(key);
    if (v.type != ConfigValue::Type::List) {
        const double x = as_positive_number(v);
        return {x, x, x};
    }
    if (v.items.size() != 3) fail_at(v, "expected a number, or a list of 3 (one node, two nodes, more)");
    NcclPerNodeBucket out{};
    for (std::size_t i = 0; i < 3; ++i) out[i] = as_positive_number(v.items[i]);
    return out;
}

// NVLS channels: one count for one node and several, or [one node, several
// nodes] (NCCL's _SM100_NVL and _SM100).
std::pair<int, int> nvls_channel_counts(ConfigTableReader& r, std::string_view key) {
    const ConfigValue& v = r.required(key);
    if (v.type != ConfigValue::Type::List) return {channel_count(v), channel_count(v)};
    if (v.items.size() != 2) fail_at(v, "expected a number, or a list of 2 (one node, several nodes)");
    return {channel_count(v.items[0]), channel_count(v.items[1])};
}

NcclPerAlgorithm per_algorithm(const ConfigValue& table) {
    ConfigTableReader r(table);
    NcclPerAlgorithm out{};
    out[static_cast<std::size_t>(NcclAlgorithm::Ring)] = numbers<kNcclProtocols>(r, "ring");
    out[static_cast<std::size_t>(NcclAlgorithm::Tree)] = numbers<kNcclProtocols>(r, "tree");
    out[static_cast<std::size_t>(NcclAlgorithm::Nvls)] = numbers<kNcclProtocols>(r, "nvls");
    out[static_cast<std::size_t>(NcclAlgorithm::NvlsTree)] = numbers<kNcclProtocols>(r, "nvls-tree");
    out[static_cast<std::size_t>(NcclAlgorithm::Pat)] = numbers<kNcclProtocols>(r, "pat");
    r.finish();
    return out;
}

}  // namespace

NcclParameters nccl_parameters_from(const ConfigValue& table) {
    NcclParameters p;
    ConfigTableReader r(table);
    {
        ConfigTableReader h(r.required("hardware"));
        NcclHardware& hw = p.hardware;
        const ConfigValue& sm = h.required("sm");
        hw.sm = as_positive_integer(sm);
        if (hw.sm < 60 || hw.sm > 120) fail_at(sm, "expected a compute capability x 10 (80 Ampere, 90 Hopper, 100 Blackwell)");
        const ConfigValue& links = h.required("nvlinks-per-gpu");
        hw.nvlinks_per_gpu = static_cast<int>(as_non_negative_number(links));
        if (hw.nvlinks_per_gpu != as_non_negative_number(links) || hw.nvlinks_per_gpu > 64)
            fail_at(links, "expected a whole number of NVLinks, at most 64");
        hw.nvlink_link_gbps = h.non_negative_number("nvlink-bandwidth-per-link");
        if (hw.nvlinks_per_gpu > 0 && hw.nvlink_link_gbps <= 0)
            fail_at(h.required("nvlink-bandwidth-per-link"), "must be > 0 with NVLinks");
        hw.nvswitch = h.boolean_flag("nvswitch");
        hw.nics_per_node = channels(h, "nics-per-node");
        hw.gpus_per_nic = channels(h, "gpus-per-nic");
        // Optional (presets written before it describe one NIC per GPU at most).
        if (h.has("nics-per-gpu")) {
            hw.nics_per_gpu = channels(h, "nics-per-gpu");
            if (hw.nics_per_gpu > 1 && hw.gpus_per_nic > 1)
                fail_at(h.required("nics-per-gpu"), "GPUs share NICs (gpus-per-nic > 1) or have several each, not both");
        }
        const ConfigValue& gen = h.required("pcie-gen");
        hw.pcie_gen = as_positive_integer(gen);
        if (hw.pcie_gen > 6) fail_at(gen, "expected a PCIe generation from 1 to 6");
        hw.pcie_lanes = channels(h, "pcie-lanes");
        const ConfigValue& cpu = h.required("cpu-vendor");
        const std::string& vendor = as_string(cpu);
        if (vendor == "intel") hw.cpu = NcclCpuVendor::Intel;
        else if (vendor == "amd") hw.cpu = NcclCpuVendor::Amd;
        else if (vendor == "arm") hw.cpu = NcclCpuVendor::Arm;
        else fail_at(cpu, "expected intel, amd or arm, got '" + vendor + "'");
        h.finish();
    }
    p.nvls = r.boolean_flag("nvls");
    p.nvls_efficiency = fraction_or_zero(r.required("nvls-efficiency"));
    if (p.nvls && p.nvls_efficiency == 0) fail_at(r.required("nvls-efficiency"), "must be > 0 when nvls = true");
    std::tie(p.nvls_channels, p.nvls_channels_across_nodes) = nvls_channel_counts(r, "nvls-channels");
    if (r.has("nvls-loop-overhead-us"))
        fail_at(r.required("nvls-loop-overhead-us"),
                "nvls-loop-overhead-us (us per NVLS loop of 8 heads) was replaced by nvls-chunk-overhead-us (us per "
                "head's chunk, the loop's cost / heads; presets/nccl/hopper.toml has 0.33)");
    p.nvls_chunk_overhead_us = r.non_negative_number("nvls-chunk-overhead-us");
    p.alltoall_nvlink_efficiency = fraction(r.required("alltoall-nvlink-efficiency"));
    p.network_p2p_efficiency = fraction(r.required("network-p2p-efficiency"));
    p.network_alltoall_efficiency = fraction(r.required("network-alltoall-efficiency"));
    p.ring_network_channel_bandwidth = r.positive_number("ring-network-channel-bandwidth");
    p.ring_network_slice_overhead_us = r.non_negative_number("ring-network-slice-overhead-us");
    p.ring_plateau_factor = r.positive_number("ring-plateau-factor");
    // Optional, together: one rank's out-of-place copy (nccl_one_rank.h).
    if (r.has("copy-efficiency") || r.has("copy-overhead-us")) {
        if (!r.has("copy-overhead-us"))
            fail_at(r.required("copy-efficiency"), "copy-efficiency needs copy-overhead-us beside it (a copy's fixed cost)");
        if (!r.has("copy-efficiency"))
            fail_at(r.required("copy-overhead-us"), "copy-overhead-us needs copy-efficiency beside it (a copy's share of the HBM rate)");
        p.copy_efficiency = fraction(r.required("copy-efficiency"));
        p.copy_overhead_us = r.non_negative_number("copy-overhead-us");
    }
    if (r.has("assumed")) p.assumed = r.string_list("assumed");

    {
        ConfigTableReader c(r.required("protocol"));
        p.ll128 = c.boolean_flag("ll128");
        p.ll_bandwidth_factor = fraction(c.required("ll-bandwidth-factor"));
        p.ll128_bandwidth_factor = fraction(c.required("ll128-bandwidth-factor"));
        p.ll_max_bus_bandwidth = numbers<3>(c, "ll-max-bus-bandwidth");
        p.ll128_max_bandwidth_per_channel = per_node_bucket(c, "ll128-max-bandwidth-per-channel");
        p.step_bytes = numbers<kNcclProtocols>(c, "step-bytes");
        if (c.has("nvls-pipeline-bytes"))
            fail_at(c.required("nvls-pipeline-bytes"),
                    "nvls-pipeline-bytes was replaced by [nccl] nvls-chunk-overhead-us (us per NVLS chunk; "
                    "presets/nccl/hopper.toml has 0.33)");
        c.finish();
    }
    {
        ConfigTableReader c(r.required("tree"));
        p.tree_bandwidth_factor = fraction(c.required("bandwidth-factor"));
        p.tree_ll_bandwidth_factor = fraction(c.required("ll-bandwidth-factor"));
        p.tree_ll128_bandwidth_factor = numbers<3>(c, "ll128-bandwidth-factor");
        p.tree_max_bandwidth_per_channel = numbers<3>(c, "max-bandwidth-per-channel");
        p.tree_ll128_max_bandwidth_per_channel = numbers<3>(c, "ll128-max-bandwidth-per-channel");
        p.nvls_tree_max_bandwidth_per_channel = numbers<3>(c, "nvls-tree-max-bandwidth-per-channel");
        const ConfigValue& correction = c.required("correction");
        if (correction.type != ConfigValue::Type::List || correction.items.size() != kNcclProtocols)
            fail_at(correction, "expected 3 lists (LL, LL128, Simple) of 24 factors");
        for (std::size_t proto = 0; proto < kNcclProtocols; ++proto) {
            const ConfigValue& row = correction.items[proto];
            if (row.type != ConfigValue::Type::List || row.items.size() != kNcclTreeCorrectionSizes)
                fail_at(row, "expected a list of 24 factors (64 B x 2^0 .. 2^23)");
            for (std::size_t i = 0; i < kNcclTreeCorrectionSizes; ++i)
                p.tree_correction[proto][i] = fraction(row.items[i]);
        }
        c.finish();
    }
    {
        ConfigTableReader c(r.required("pat"));
        p.pat_bandwidth_factor = fraction(c.required("bandwidth-factor"));
        p.pat_per_rank_latency_us = c.non_negative_number("per-rank-latency-us");
        p.pat_network_latency_divisor = c.positive_number("network-latency-divisor");
        c.finish();
    }
    {
        ConfigTableReader c(r.required("p2p"));
        p.p2p_latency_us = c.non_negative_number("latency-us");
        p.p2p_nvlink_chunk_bytes = c.positive_number("nvlink-chunk-bytes");
        p.p2p_network_chunk_bytes = c.positive_number("network-chunk-bytes");
        p.p2p_network_channel_bandwidth = c.positive_number("network-channel-bandwidth");
        p.p2p_network_chunk_overhead_us = c.non_negative_number("network-chunk-overhead-us");
        p.p2p_network_connection_start_us = c.non_negative_number("network-connection-start-us");
        p.p2p_copy_bandwidth_per_channel = c.positive_number("copy-bandwidth-per-channel");
        p.p2p_per_channel_net_bandwidth = c.positive_number("per-channel-net-bandwidth");
        c.finish();
    }
    {
        ConfigTableReader c(r.required("latency-us"));
        p.base_latency_us = per_algorithm(c.required("base"));
        p.nvlink_latency_us = per_algorithm(c.required("nvlink"));
        p.network_latency_us = per_algorithm(c.required("network"));
        c.finish();
    }
    r.finish();
    return p;
}

}  // namespace dtcalc
