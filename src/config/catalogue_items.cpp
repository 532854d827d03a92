#include "config/catalogue_items.h"

#include <fmt/format.h>

#include <cmath>

#include "config/config_readers.h"
#include "config/hardware_catalogue.h"
#include "config/named_file.h"
#include "core/error.h"

namespace dtcalc::catalogue {
namespace {

int whole(const ConfigValue& v, int lo, int hi) {
    const double x = as_non_negative_number(v);
    if (x != std::floor(x) || x < lo || x > hi) fail_at(v, fmt::format("expected a whole number from {} to {}", lo, hi));
    return static_cast<int>(x);
}

double in_range(const ConfigValue& v, double lo, double hi, std::string_view unit) {
    const double x = as_non_negative_number(v);
    if (x < lo || x > hi) fail_at(v, fmt::format("expected {} to {} {}, got {}", lo, hi, unit, x));
    return x;
}

// The value at `key`, checked to lie in [lo, hi] `unit`.
const ConfigValue& in_range_at(ConfigTableReader& r, std::string_view key, double lo, double hi,
                               std::string_view unit) {
    const ConfigValue& v = r.required(key);
    in_range(v, lo, hi, unit);
    return v;
}

// Reads a device file's tree into `d` (its pointers point into `root`).
void fill_device(Device& d, const ConfigValue& root) {
    ConfigTableReader r(root);
    d.name = r.string("name");
    d.description = r.string("description");
    d.sources = r.string_list("sources");
    d.tdp_watts = in_range(r.required("tdp-watts"), 1, 1e5, "W");
    d.memory_type = r.string("memory-type");
    d.compute = &r.required("compute");
    if (d.compute->type != ConfigValue::Type::Table) fail_at(*d.compute, "expected a table [compute]");
    if (const ConfigValue* from = d.compute->find("efficiency-assumed-from")) {
        d.efficiency_from = as_string(*from);
        d.efficiency_from_value = from;
    }
    {
        ConfigTableReader c(r.required("interconnect"));
        const ConfigValue& fabric = c.required("fabric");
        d.fabric_name = as_string(fabric);
        if (d.fabric_name == "nvswitch") d.fabric = Fabric::NvSwitch;
        else if (d.fabric_name == "nvlink-bridge") d.fabric = Fabric::NvlinkBridge;
        else if (d.fabric_name == "infinity-fabric") d.fabric = Fabric::InfinityFabric;
        else if (d.fabric_name == "pcie") d.fabric = Fabric::Pcie;
        else fail_at(fabric, "expected nvswitch, nvlink-bridge, infinity-fabric or pcie, got '" + d.fabric_name + "'");
        d.links_value = &c.required("links-per-gpu");
        d.links = whole(*d.links_value, 0, 64);
        d.link_value = &c.required("link-bandwidth-gbps");
        d.link_gbps = in_range(*d.link_value, 0, 1e4, "GB/s per link per direction");
        d.latency = &c.required("latency-ns");
        in_range(*d.latency, 0, 1e6, "ns");
        d.max_gpus = whole(c.required("max-gpus-per-node"), 1, 1 << 24);
        d.pcie_gen = &c.required("pcie-gen");
        whole(*d.pcie_gen, 1, 6);
        d.pcie_lanes = &c.required("pcie-lanes");
        whole(*d.pcie_lanes, 1, 64);
        c.finish();
    }
    if (const ConfigValue* node = r.optional("node")) {
        ConfigTableReader n(*node);
        d.node_name = n.string("name");
        d.node_gpus = &n.required("gpus");
        whole(*d.node_gpus, 1, d.max_gpus);
        d.node_nic = n.optional("nic");
        if (d.node_nic) as_string(*d.node_nic);
        d.node_nics = n.optional("nics");
        if (d.node_nics) whole(*d.node_nics, 1, 64);
        d.node_cpu = n.optional("host-cpu");
        n.finish();
    }
    if (const ConfigValue* nccl = r.optional("nccl")) {
        ConfigTableReader n(*nccl);
        d.has_nccl = true;
        d.sm = &n.required("sm");
        d.nccl_link = &n.required("nvlink-bandwidth-per-link");
        d.nvls = &n.required("nvls");
        d.tables = &n.required("tables");
        as_string(*d.tables);
        n.finish();
    }
    r.finish();
}

// The calibrated keys of a NIC file, each with its check.
struct NicKey {
    const char* key;
    ConfigValue NicCalibration::*member;
    double lo, hi;  ///< range; lo < 0 marks a fraction in (0, 1]
    const char* unit;
};
constexpr NicKey kNicKeys[] = {
    {"payload-efficiency", &NicCalibration::payload, -1, 1, ""},
    {"p2p-channel-bandwidth-gbps", &NicCalibration::channel, 1e-3, 1e4, "GB/s"},
    {"p2p-chunk-overhead-us", &NicCalibration::chunk_overhead, 0, 1e3, "us"},
    {"p2p-connection-start-us", &NicCalibration::connection_start, 0, 1e3, "us"},
    {"alltoall-efficiency", &NicCalibration::alltoall, -1, 1, ""},
    {"ring-channel-bandwidth-gbps", &NicCalibration::ring_channel, 1e-3, 1e4, "GB/s"},
    {"ring-slice-overhead-us", &NicCalibration::ring_slice, 0, 1e3, "us"},
};

const ConfigValue& checked(const NicKey& k, const ConfigValue& v) {
    if (k.lo < 0) fraction(v);
    else in_range(v, k.lo, k.hi, k.unit);
    return v;
}

void fill_nic(Nic& n, const ConfigValue& root, const std::vector<std::string>& preset_dirs, int depth) {
    ConfigTableReader r(root);
    n.name = r.string("name");
    n.description = r.string("description");
    n.sources = r.string_list("sources");
    n.rate = in_range_at(r, "line-rate-gbit", 1e-3, 1e5, "Gb/s");
    n.latency = in_range_at(r, "latency-ns", 0, 1e6, "ns");
    if (const ConfigValue* from = r.optional("calibration-assumed-from")) {
        // The calibrated payload rates are another NIC's, used unchanged.
        n.calibration_from = as_string(*from);
        if (depth > 0) fail_at(*from, "names a NIC that itself borrows its calibration; name one that is calibrated");
        n.calibration = read_nic(n.calibration_from, preset_dirs, depth + 1).calibration;
        // A key given here as well is this NIC's own (measured on it); the rest stay borrowed.
        for (const NicKey& k : kNicKeys)
            if (const ConfigValue* v = r.optional(k.key)) {
                n.calibration.*k.member = checked(k, *v);
                n.own_calibration.emplace_back(k.key);
            }
    } else {
        for (const NicKey& k : kNicKeys) n.calibration.*k.member = checked(k, r.required(k.key));
    }
    r.finish();
}

}  // namespace

Item load_item(const std::string& name_or_path, const std::vector<std::string>& preset_dirs, const std::string& kind,
               const char* what, const char* option) {
    Item item;
    item.path = find_named_toml(name_or_path, catalogue_dirs(preset_dirs, kind), what, option);
    item.root = read_toml_file(item.path);
    return item;
}

double fraction(const ConfigValue& v) {
    const double f = as_positive_number(v);
    if (f > 1) fail_at(v, fmt::format("expected a fraction in (0, 1], got {}", f));
    return f;
}

Device read_device(const std::string& name_or_path, const std::vector<std::string>& preset_dirs) {
    Device d;
    d.file = load_item(name_or_path, preset_dirs, "devices", "GPU", "gpu");
    // Every key problem of the file at once, then the real read.
    read_reporting_all(d.file.root, [](const ConfigValue& tree) {
        Device scratch;
        fill_device(scratch, tree);
        return 0;
    });
    fill_device(d, d.file.root);
    return d;
}

Nic read_nic(const std::string& name_or_path, const std::vector<std::string>& preset_dirs, int depth) {
    Nic n;
    n.file = load_item(name_or_path, preset_dirs, "nics", "NIC", "nic");
    read_reporting_all(n.file.root, [&](const ConfigValue& tree) {
        Nic scratch;
        fill_nic(scratch, tree, preset_dirs, depth);
        return 0;
    });
    fill_nic(n, n.file.root, preset_dirs, depth);
    return n;
}

}  // namespace dtcalc::catalogue
