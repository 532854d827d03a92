#pragma once
// The constants of the `nccl` backend: one set per preset (its [nccl] table),
// every one of them stated and sourced in the preset file. Nothing here is
// per data row. The model reads link bandwidths from the preset's [network]
// (dimension 0 = NVLink per GPU, outer dimensions = one NIC per GPU) and
// multiplies them by the efficiencies below; latencies are NCCL-style per-step
// figures in microseconds.
//
// Names: algorithms ring, tree (double binary tree), nvls (in-switch reduction
// on NVSwitch, one node), nvls-tree (NVLS inside nodes, a tree across them),
// pat (AllGather/ReduceScatter with one GPU per node), p2p (all-to-all and
// send/recv as grouped point-to-point); protocols LL, LL128, Simple.
#include <array>
#include <optional>
#include <string_view>

namespace dtcalc {

enum class NcclAlgorithm { Ring, Tree, Nvls, NvlsTree, Pat, P2p };
enum class NcclProtocol { LL, LL128, Simple };

inline constexpr int kNcclTunedAlgorithms = 5;  ///< ring, tree, nvls, nvls-tree, pat (index = enum value)
inline constexpr int kNcclProtocols = 3;        ///< LL, LL128, Simple (index = enum value)
inline constexpr int kNcclTreeCorrectionSizes = 24;

/// Case-insensitive: "ring", "tree", "nvls", "nvls-tree" (or "nvlstree"), "pat".
std::optional<NcclAlgorithm> parse_nccl_algorithm(std::string_view name);
std::string_view nccl_algorithm_name(NcclAlgorithm algorithm);
/// Case-insensitive: "ll", "ll128", "simple".
std::optional<NcclProtocol> parse_nccl_protocol(std::string_view name);
std::string_view nccl_protocol_name(NcclProtocol protocol);
/// "ring/Simple", "nvls/Simple", "p2p/Simple", ...: static strings.
std::string_view nccl_choice_name(NcclAlgorithm algorithm, NcclProtocol protocol);

using NcclPerProtocol = std::array<double, kNcclProtocols>;
using NcclPerAlgorithm = std::array<NcclPerProtocol, kNcclTunedAlgorithms>;
/// Indexed by node count: one node, two nodes, three or more (NCCL's buckets).
using NcclPerNodeBucket = std::array<double, 3>;

struct NcclParameters {
    // --- Bandwidth: fractions of the [network] link bandwidths ---
    double nvlink_efficiency = 0;           ///< ring/tree data rate per GPU = NVLink bandwidth x this
    bool nvls = false;                      ///< NVSwitch with multicast/in-switch reduction
    double nvls_efficiency = 0;             ///< NVLS all-reduce rate = eff x NVLink rate x n/(n+1)
    double alltoall_nvlink_efficiency = 0;  ///< all-to-all NVLink data rate = NVLink bandwidth x this
    double network_ring_efficiency = 0;     ///< ring/tree rate across nodes = NICs per node x NIC x this
    double network_p2p_efficiency = 0;      ///< point-to-point rate of one NIC = NIC bandwidth x this

    // --- Protocols ---
    double ll_bandwidth_factor = 0;                ///< LL carries 8 data bytes per 16 (NCCL: 0.5)
    double ll128_bandwidth_factor = 0;             ///< LL128 carries 120 of 128 bytes (NCCL: 0.92)
    NcclPerNodeBucket ll_max_bus_bandwidth{};      ///< GB/s cap on LL bus bandwidth
    double ll128_max_bandwidth_per_channel = 0;    ///< GB/s per ring channel
    NcclPerProtocol step_bytes{};                  ///< payload of one pipeline step per channel
    double nvls_pipeline_bytes = 0;                ///< per NVLS channel before the pipeline is full

    bool ll128 = false;                            ///< LL128 enabled (NVLink systems)

    // --- Tree ---
    double tree_bandwidth_factor = 0;              ///< NCCL: 0.92
    double tree_ll_bandwidth_factor = 0;           ///< NCCL: 1/3.8
    NcclPerNodeBucket tree_ll128_bandwidth_factor{};  ///< NCCL: 7/9 on one node, 120/128 across nodes
    NcclPerNodeBucket tree_max_bandwidth_per_channel{};
    NcclPerNodeBucket tree_ll128_max_bandwidth_per_channel{};
    NcclPerNodeBucket nvls_tree_max_bandwidth_per_channel{};
    /// NCCL's selection-only derating of tree bandwidth, per protocol, for
    /// 64 B x 2^i (i = 0..23).
    std::array<std::array<double, kNcclTreeCorrectionSizes>, kNcclProtocols> tree_correction{};

    // --- PAT (one GPU per node) ---
    double pat_bandwidth_factor = 0;
    double pat_per_rank_latency_us = 0;
    double pat_network_latency_divisor = 1;

    // --- Channels ---
    int ring_channels = 1;             ///< one node
    int ring_channels_multi_node = 1;  ///< several nodes
    int tree_channels_multi_node = 1;
    int nvls_channels = 1;
    int p2p_channels = 1;                  ///< channels point-to-point work is spread over
    int p2p_channels_per_network_peer = 1; ///< starting count before NCCL's scale-down

    // --- Point-to-point ---
    double p2p_latency_us = 0;
    double p2p_nvlink_chunk_bytes = 0;
    double p2p_network_chunk_bytes = 0;
    double p2p_nvlink_channel_bandwidth = 0;   ///< GB/s one channel moves over NVLink
    double p2p_network_channel_bandwidth = 0;  ///< GB/s one channel moves through a NIC

    // --- Latencies (microseconds) ---
    NcclPerAlgorithm base_latency_us{};     ///< once per collective
    NcclPerAlgorithm nvlink_latency_us{};   ///< per intra-node step
    NcclPerAlgorithm network_latency_us{};  ///< per inter-node step
    double network_overhead_us = 0;         ///< host proxy cost of every step of a multi-node ring
    double multi_node_overhead_us = 0;      ///< once per collective that spans nodes
    double ring_plateau_factor = 1;         ///< NCCL's selection-only multi-node ring latency factor

    // --- NCCL's own view of the links, used only to choose (nccl_selection.h) ---
    double selection_nvlink_efficiency = 0;   ///< NCCL: 20.6 of 25 GB/s per Hopper NVLink
    double selection_network_efficiency = 0;  ///< NCCL: 48 of 50 GB/s per NDR NIC

    // --- What NCCL_ALGO / NCCL_PROTO would force (--algo / --proto) ---
    std::optional<NcclAlgorithm> forced_algorithm;
    std::optional<NcclProtocol> forced_protocol;
};

}  // namespace dtcalc
