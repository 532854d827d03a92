#pragma once
// The hardware catalogue: GPUs (presets/devices/NAME.toml), NICs
// (presets/nics/NAME.toml) and NCCL's constants per GPU generation
// (presets/nccl/NAME.toml), each fact stated once with its source
// (docs/file-formats.md describes every key). A cluster is composed from them:
// a GPU, GPUs per node, nodes, a NIC and NICs per node. The result is a
// preset's value tree ([network], [system], [compute], [nccl]), read by the
// same reader as a preset file (config/preset.h), so a preset that names
// `gpu = "h100-sxm"` and `nic = "ndr400"` and the same cluster given as flags
// (`--gpu h100-sxm --nic ndr400`) are one system.
#include <optional>
#include <string>
#include <vector>

#include "config/config_value.h"

namespace dtcalc {

/// What a cluster is made of. Empty or unset fields take the GPU's reference
/// node's (its `[node]` table: e.g. DGX H100, 8 GPUs and 8 NDR 400 Gb/s NICs).
struct ClusterRequest {
    std::string gpu;  ///< a device name or .toml path (required)
    std::string nic;  ///< a NIC name or .toml path
    std::optional<long long> gpus_per_node, nodes, nics_per_node;
    /// NICs under each GPU's PCIe switch (several on nodes with more NICs than
    /// GPUs, e.g. 2 of 16 for 8 GPUs); unset: 1.
    std::optional<long long> nics_per_gpu;
    std::string host_cpu;  ///< intel | amd | arm (NCCL's network overhead, LL caps, NVLS-tree correction)
    std::string backend;   ///< astra-unaware | astra-aware | nccl; default nccl where the GPU has NCCL tables
    std::string name, description;
    std::vector<std::string> sources;  ///< the cluster's own, before the catalogue items'
};

/// What a composition chose (the request's values or the reference node's).
struct ClusterChoice {
    std::string gpu, nic, host_cpu;  ///< catalogue names
    long long gpus_per_node = 0, nodes = 0, nics_per_node = 0, nics_per_gpu = 1;
};

/// The preset value tree of `request`. Unlocated errors are OptionError naming
/// "gpu", "nic", "gpus_per_node", "nodes", "nics_per_node", "nics_per_gpu", "host_cpu" or
/// "backend"; an error inside a catalogue file names the file and line.
ConfigValue compose_cluster(const ClusterRequest& request, const std::vector<std::string>& preset_dirs,
                            ClusterChoice* chosen = nullptr);

/// Where the catalogue's kinds live: each preset directory's devices/, nics/ or nccl/.
std::vector<std::string> catalogue_dirs(const std::vector<std::string>& preset_dirs, const std::string& kind);

/// One line of `dtcalc list gpus`.
struct DeviceSummary {
    std::string name, description;
    double peak_tflops_bf16 = 0, peak_tflops_fp8 = 0, peak_tflops_fp32 = 0;
    double hbm_capacity_gib = 0, hbm_bandwidth_gbps = 0;
    std::string fabric;            ///< nvswitch, nvlink-bridge, infinity-fabric, pcie
    int links_per_gpu = 0;
    double link_bandwidth_gbps = 0;  ///< per link per direction
    std::optional<int> sm;           ///< NCCL's compute capability x 10; none for non-NVIDIA
    std::string efficiency_from;     ///< "" when the device's own efficiencies are measured
};

/// One line of `dtcalc list nics`.
struct NicSummary {
    std::string name, description;
    double line_rate_gbit = 0;  ///< Gb/s per direction
    double latency_ns = 0;
};

DeviceSummary load_device_summary(const std::string& name_or_path, const std::vector<std::string>& preset_dirs);
NicSummary load_nic_summary(const std::string& name_or_path, const std::vector<std::string>& preset_dirs);

}  // namespace dtcalc
