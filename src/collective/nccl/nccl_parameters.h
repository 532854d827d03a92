#pragma once
// The constants of the `nccl` backend: one set per preset (its [nccl] table),
// every one of them stated and sourced in the preset file. Nothing here is
// per data row, per node count or per collective. Hardware facts (NcclHardware)
// and NCCL's own tables are inputs; channel counts, graph bandwidths and NICs
// in use are derived from them as NCCL derives them (nccl_topology.h); the few
// calibrated data rates are labelled in the preset with the rows they were
// fitted on. The NIC line rate is the preset's [network] outer-dimension
// bandwidth; latencies are NCCL's per-step figures in microseconds.
//
// Names: algorithms ring, tree (double binary tree), nvls (in-switch reduction
// on NVSwitch, one node), nvls-tree (NVLS inside nodes, a tree across them),
// pat (AllGather/ReduceScatter with one GPU per node), p2p (all-to-all and
// send/recv as grouped point-to-point); protocols LL, LL128, Simple.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// Host CPU, where NCCL's model depends on it (getNetOverhead, llMaxBws, and
/// from sm100 the NVLS-tree correction, x86 only). Arm: Grace (GH200, GB200).
enum class NcclCpuVendor { Intel, Amd, Arm };

/// Facts about one node's hardware, as NCCL's topology detection sees them
/// (each stated with its source in the preset). Everything NCCL derives from
/// its topology (channels, graph bandwidths, NICs in use) is derived from these
/// in nccl_topology.h.
struct NcclHardware {
    int sm = 90;                   ///< compute capability x 10: 80 Ampere, 90 Hopper
    int nvlinks_per_gpu = 0;       ///< NVLinks of one GPU (0: PCIe only)
    double nvlink_link_gbps = 0;   ///< NCCL's figure per link (SM80_NVLINK_BW 20.0, SM90_NVLINK_BW 20.6)
    bool nvswitch = false;         ///< GPUs meet in NVSwitches (all-to-all NVLink)
    int nics_per_node = 0;         ///< NICs NCCL may use (compute fabric)
    int gpus_per_nic = 1;          ///< GPUs that share one NIC's PCIe switch (1 on DGX/HGX)
    /// NICs under one GPU's PCIe switch (1 on DGX/HGX; 2 with 16 NICs for 8
    /// GPUs, 4 with 32). They share the GPU's PCIe link. At most one of this
    /// and gpus_per_nic is above 1.
    int nics_per_gpu = 1;
    int pcie_gen = 4;              ///< PCIe generation of the GPU/NIC links
    int pcie_lanes = 16;
    NcclCpuVendor cpu = NcclCpuVendor::Intel;

    /// NCCL's PCIe rate: lanes x per-lane rate / 80 (Gen4 x16 = 24, Gen5 x16 = 48 GB/s).
    /// NCCL's graph search uses it; it is not what the link carries.
    double pcie_gbps() const;
    /// What the GPU-NIC PCIe link carries per direction, from the PCIe
    /// specifications: lanes x transfer rate x line coding x the TLP payload
    /// share at a 256 B maximum payload (Gen4 x16 = 28.8, Gen5 x16 = 57.6,
    /// Gen6 x16 = 111.1 GB/s). A GPU's NICs move at most this together,
    /// whatever their line rate.
    double pcie_payload_gbps() const;
    /// NCCL's getNetOverhead: 1 us per network step on Intel hosts, 2 on AMD
    /// (x86), 1 on others.
    double net_overhead_us() const { return cpu == NcclCpuVendor::Amd ? 2.0 : 1.0; }
};

struct NcclParameters {
    NcclHardware hardware;

    // --- NVLS ---
    bool nvls = false;                      ///< NVSwitch with multicast/in-switch reduction
    double nvls_efficiency = 0;             ///< NCCL: nvlsEfficiency (Hopper 0.85)
    int nvls_channels = 1;                  ///< one node (NCCL: NVLS_NCHANNELS_SM90 16, _SM100_NVL 24)
    int nvls_channels_across_nodes = 1;     ///< several nodes (NCCL: NVLS_NCHANNELS_SM90 16, _SM100 32)
    double nvls_chunk_overhead_us = 0;      ///< each NVLS chunk's flag wait and post (nccl_nvls_pipeline.h)

    // --- Calibrated data rates (each labelled in the preset with its data) ---
    double alltoall_nvlink_efficiency = 0;  ///< all-to-all NVLink data rate = NVLink bandwidth x this
    double network_p2p_efficiency = 0;      ///< payload one NIC carries = NIC bandwidth x this
    /// All-to-all across three or more nodes: each NIC then sends to several
    /// NICs at once, and carries this share of its payload rate.
    double network_alltoall_efficiency = 0;
    /// A ring channel through a NIC (Simple): GB/s one channel streams, and
    /// the cost of each network send (one per slice; nccl_bandwidth.h).
    double ring_network_channel_bandwidth = 0;
    double ring_network_slice_overhead_us = 0;

    // --- Protocols ---
    double ll_bandwidth_factor = 0;                ///< LL carries 8 data bytes per 16 (NCCL: 0.5)
    double ll128_bandwidth_factor = 0;             ///< LL128 carries 120 of 128 bytes (NCCL: 0.92)
    NcclPerNodeBucket ll_max_bus_bandwidth{};      ///< GB/s cap on LL bus bandwidth
    NcclPerNodeBucket ll128_max_bandwidth_per_channel{};  ///< GB/s per ring channel
    NcclPerProtocol step_bytes{};                  ///< payload of one pipeline step per channel

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

    // --- Point-to-point ---
    double p2p_latency_us = 0;
    double p2p_nvlink_chunk_bytes = 0;
    double p2p_network_chunk_bytes = 0;
    double p2p_network_channel_bandwidth = 0;  ///< GB/s one channel moves through a NIC (calibrated)
    double p2p_network_chunk_overhead_us = 0;  ///< per network chunk, shared by a GPU's channels (calibrated)
    double p2p_network_connection_start_us = 0;  ///< per network connection started, in turn (calibrated)
    double p2p_copy_bandwidth_per_channel = 0; ///< GB/s one channel copies a rank's share to itself (calibrated)
    double p2p_per_channel_net_bandwidth = 14; ///< NCCL: P2P_PER_CHANNEL_NET_BW, sizes channels per NIC peer

    // --- One rank (nccl_one_rank.h) ---
    double copy_efficiency = 0;   ///< a device-to-device copy's share of the HBM rate (0: not stated, not priced)
    double copy_overhead_us = 0;  ///< a copy's fixed cost (launch, ramp)

    // --- Latencies (microseconds) ---
    NcclPerAlgorithm base_latency_us{};     ///< once per collective
    NcclPerAlgorithm nvlink_latency_us{};   ///< per intra-node step
    NcclPerAlgorithm network_latency_us{};  ///< per inter-node step
    double ring_plateau_factor = 1;         ///< NCCL's selection-only multi-node ring latency factor

    /// What of these constants was not measured on this hardware but taken
    /// from other hardware (the preset's `assumed` list); reports say so.
    std::vector<std::string> assumed;
};

}  // namespace dtcalc
