#pragma once
// The hardware catalogue's item files as read, before composition
// (hardware_catalogue.cpp): a GPU (presets/devices/NAME.toml) and a NIC
// (presets/nics/NAME.toml), every key checked; docs/file-formats.md lists them.
#include <string>
#include <vector>

#include "config/config_value.h"

namespace dtcalc::catalogue {

/// One catalogue file: where it was found and its tree.
struct Item {
    std::string path;
    ConfigValue root;
};

/// Finds NAME (or a path) among the catalogue folders of `kind` ("devices",
/// "nics", "nccl") and reads it; `what` and `option` name it in errors.
Item load_item(const std::string& name_or_path, const std::vector<std::string>& preset_dirs, const std::string& kind,
               const char* what, const char* option);

/// A positive fraction, at most 1 (an error at the value otherwise).
double fraction(const ConfigValue& v);

enum class Fabric { NvSwitch, NvlinkBridge, InfinityFabric, Pcie };

/// A GPU file; its pointers point into `file.root`.
struct Device {
    Item file;
    std::string name, description;
    std::vector<std::string> sources;
    const ConfigValue* compute = nullptr;
    std::string efficiency_from;  // [compute] efficiency-assumed-from
    const ConfigValue* efficiency_from_value = nullptr;
    Fabric fabric = Fabric::NvSwitch;
    std::string fabric_name;
    int links = 0;
    double link_gbps = 0;
    const ConfigValue* links_value = nullptr;
    const ConfigValue* link_value = nullptr;
    const ConfigValue* latency = nullptr;
    int max_gpus = 0;
    const ConfigValue* pcie_gen = nullptr;
    const ConfigValue* pcie_lanes = nullptr;
    // The reference node ([node]), each optional.
    std::string node_name;
    const ConfigValue* node_gpus = nullptr;
    const ConfigValue* node_nic = nullptr;
    const ConfigValue* node_nics = nullptr;
    const ConfigValue* node_cpu = nullptr;
    // NCCL ([nccl]), optional.
    bool has_nccl = false;
    const ConfigValue* sm = nullptr;
    const ConfigValue* nccl_link = nullptr;
    const ConfigValue* nvls = nullptr;
    const ConfigValue* tables = nullptr;
    double tdp_watts = 0;
    std::string memory_type;
};

/// A NIC's calibrated rates (docs/file-formats.md): payload-efficiency,
/// p2p-channel-bandwidth-gbps, p2p-chunk-overhead-us, p2p-connection-start-us, alltoall-efficiency,
/// ring-channel-bandwidth-gbps, ring-slice-overhead-us.
struct NicCalibration {
    ConfigValue payload, channel, chunk_overhead, connection_start, alltoall, ring_channel, ring_slice;
};

/// A NIC file.
struct Nic {
    Item file;
    std::string name, description;
    std::vector<std::string> sources;
    // Copies: a borrowed calibration outlives the file it was read from.
    ConfigValue rate, latency;
    NicCalibration calibration;
    std::string calibration_from;  ///< the NIC it is borrowed from, if any
    std::vector<std::string> own_calibration;  ///< keys given here although borrowing: this NIC's own
};

/// Reads a GPU file, reporting all of its key problems at once.
Device read_device(const std::string& name_or_path, const std::vector<std::string>& preset_dirs);
/// Reads a NIC file, with the calibrated rates of the NIC it borrows them from
/// (`calibration-assumed-from`); `depth` > 0 refuses a second borrow.
Nic read_nic(const std::string& name_or_path, const std::vector<std::string>& preset_dirs, int depth = 0);

}  // namespace dtcalc::catalogue
