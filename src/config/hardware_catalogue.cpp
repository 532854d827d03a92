#include "config/hardware_catalogue.h"

#include <fmt/format.h>

#include <cmath>

#include "config/catalogue_items.h"
#include "config/config_readers.h"
#include "config/named_file.h"
#include "core/error.h"

namespace dtcalc {
namespace {

using namespace catalogue;

// --- Building value trees -------------------------------------------------

ConfigValue text_value(const std::string& text, const InputLocation& where) {
    ConfigValue v;
    v.type = ConfigValue::Type::String;
    v.text = text;
    v.where = where;
    return v;
}

ConfigValue number_value(double number, const InputLocation& where, bool integer = false) {
    ConfigValue v;
    v.type = integer ? ConfigValue::Type::Integer : ConfigValue::Type::Float;
    v.number = number;
    v.where = where;
    return v;
}

ConfigValue bool_value(bool b, const InputLocation& where) {
    ConfigValue v;
    v.type = ConfigValue::Type::Bool;
    v.boolean = b;
    v.where = where;
    return v;
}

ConfigValue list_value(std::vector<ConfigValue> items, const InputLocation& where) {
    ConfigValue v;
    v.type = ConfigValue::Type::List;
    v.items = std::move(items);
    v.where = where;
    return v;
}

ConfigValue table_value(const InputLocation& where) {
    ConfigValue v;
    v.type = ConfigValue::Type::Table;
    v.where = where;
    return v;
}

void put(ConfigValue& table, const std::string& key, ConfigValue value) {
    for (auto& [name, existing] : table.fields)
        if (name == key) {
            existing = std::move(value);
            return;
        }
    table.fields.emplace_back(key, std::move(value));
}

// --- Composition ----------------------------------------------------------

InputLocation flag_at(const std::string& option) { return {"", 0, 0, option}; }

// ASTRA-sim's knobs for a GPU cluster, as ASTRA-sim 2.0 ships them for HGX-H100
// (examples/system/native_collectives/HGX-H100-validated.json): LIFO, endpoint
// delay 10 ns, 2 active chunks per dimension, 4 splits, ring on every
// dimension, localBWAware; local-mem-bw is the GPU's HBM bandwidth. Used by
// the astra-* backends only.
ConfigValue astra_system_knobs(std::size_t dims, const ConfigValue& hbm, const InputLocation& where) {
    ConfigValue s = table_value(where);
    put(s, "scheduling-policy", text_value("LIFO", where));
    put(s, "endpoint-delay", number_value(10, where, true));
    put(s, "active-chunks-per-dimension", number_value(2, where, true));
    put(s, "preferred-dataset-splits", number_value(4, where, true));
    for (const char* key : {"all-reduce-implementation", "all-gather-implementation", "reduce-scatter-implementation",
                            "all-to-all-implementation"})
        put(s, key, list_value(std::vector<ConfigValue>(dims, text_value("ring", where)), where));
    put(s, "collective-optimization", text_value("localBWAware", where));
    ConfigValue mem = hbm;
    put(s, "local-mem-bw", mem);
    return s;
}

// NCCL's llMaxBws (src/graph/tuning.cc): one node takes the GPU generation's
// row (the tables file's ll-max-bus-bandwidth-one-node); two nodes and more
// the host CPU's: Intel {39.0, 20.4}, AMD {22.5, 19.0} GB/s.
ConfigValue ll_max_bus_bandwidth(const ConfigValue& one_node, bool amd, const InputLocation& where) {
    std::vector<ConfigValue> items{one_node};
    items.push_back(number_value(amd ? 22.5 : 39.0, where));
    items.push_back(number_value(amd ? 19.0 : 20.4, where));
    return list_value(std::move(items), one_node.where);
}

// What a device without its own measurements borrows from another: kernel
// efficiencies and the framework term, and the GEMM model's SMs and tiles with
// its benchmark (the benchmark point means what it does on the device it was
// measured on); peaks, HBM and links it states itself.
const char* const kEfficiencyKeys[] = {"gemm-efficiency", "gemm-efficiency-fp8", "gemm-benchmark", "gemm-benchmark-fp8",
                                       "gemm-sms", "gemm-tiles", "gemm-k-overhead", "framework-bytes-per-element", "sustained-gemm-fraction",
                                       "sustained-gemm-fraction-fp8",
                                       "attention-efficiency", "attention-forward", "attention-backward",
                                       "memory-efficiency"};

ConfigValue composed_compute(const Device& d, const std::vector<std::string>& preset_dirs) {
    ConfigValue compute = *d.compute;
    if (d.efficiency_from.empty()) return compute;
    const Device source = read_device(d.efficiency_from, preset_dirs);
    if (!source.efficiency_from.empty())
        fail_at(*d.efficiency_from_value, "'" + d.efficiency_from + "' itself borrows its efficiencies; name a device "
                                          "whose efficiencies are measured");
    const bool fp8 = compute.find("peak-tflops-fp8") != nullptr;
    ConfigValue out = table_value(compute.where);
    for (const auto& [key, value] : compute.fields)
        if (key != "efficiency-assumed-from") put(out, key, value);
    // The source's figures for what this device does not state itself. Attention is one
    // model, a figure or two curves: a device stating any part of it borrows none of it.
    const bool own_attention = compute.find("attention-efficiency") || compute.find("attention-forward") ||
                               compute.find("attention-backward");
    for (const char* key : kEfficiencyKeys) {
        const std::string_view k = key;
        if (!fp8 && k.ends_with("-fp8")) continue;  // no fp8 GEMMs to time
        if (own_attention && k.starts_with("attention-")) continue;
        if (compute.find(key)) continue;
        if (const ConfigValue* v = source.compute->find(key)) put(out, key, *v);
    }
    put(out, "efficiency-assumed-from", text_value(source.name, d.efficiency_from_value->where));
    return out;
}

}  // namespace

std::vector<std::string> catalogue_dirs(const std::vector<std::string>& preset_dirs, const std::string& kind) {
    return subfolders_of(preset_dirs, kind);
}

ConfigValue compose_cluster(const ClusterRequest& rq, const std::vector<std::string>& preset_dirs,
                            ClusterChoice* chosen) {
    if (rq.gpu.empty()) throw OptionError("gpu", "missing: name a GPU (see `dtcalc list gpus`)");
    const Device d = read_device(rq.gpu, preset_dirs);

    // GPUs per node and nodes.
    long long gpus = 0;
    if (rq.gpus_per_node) gpus = *rq.gpus_per_node;
    else if (d.node_gpus) gpus = static_cast<long long>(d.node_gpus->number);
    else throw OptionError("gpus_per_node", "missing: " + d.name + " has no reference node; give the GPUs per node");
    if (gpus < 1 || gpus > d.max_gpus)
        throw OptionError("gpus_per_node", fmt::format("{} takes 1 to {} GPUs per node ({}), got {}", d.name, d.max_gpus,
                                                       d.fabric_name, gpus));
    const long long nodes = rq.nodes.value_or(1);
    if (nodes < 1 || nodes > (1 << 24)) throw OptionError("nodes", fmt::format("expected 1 to 16777216, got {}", nodes));
    if (gpus * nodes > (1LL << 24))
        throw OptionError("nodes", "out of range: the cluster would have more than 16,777,216 NPUs");

    // The NIC: named, or the reference node's.
    std::string nic_name = rq.nic;
    if (nic_name.empty() && d.node_nic) nic_name = d.node_nic->text;
    if (nic_name.empty())
        throw OptionError("nic", "missing: " + d.name + "'s reference node names no NIC; give one (see `dtcalc list nics`)");
    const Nic nic = read_nic(nic_name, preset_dirs);
    const long long nics_per_gpu = rq.nics_per_gpu.value_or(1);
    if (nics_per_gpu < 1 || nics_per_gpu > 16)
        throw OptionError("nics_per_gpu", fmt::format("expected 1 to 16, got {}", nics_per_gpu));
    long long nics = 0;
    if (rq.nics_per_node) nics = *rq.nics_per_node;
    else if (rq.nics_per_gpu) nics = gpus * nics_per_gpu;
    else if (rq.nic.empty() && d.node_nics) nics = static_cast<long long>(d.node_nics->number);
    else nics = gpus;  // one NIC per GPU, as on DGX/HGX nodes
    if (nics < 1 || nics > 64) throw OptionError("nics_per_node", fmt::format("expected 1 to 64, got {}", nics));
    if (nics_per_gpu > 1 && nics < gpus * nics_per_gpu)
        throw OptionError("nics_per_gpu", fmt::format("{} NICs per GPU on a node of {} GPUs need {} NICs per node; "
                                                      "it has {}",
                                                      nics_per_gpu, gpus, gpus * nics_per_gpu, nics));

    std::string cpu = rq.host_cpu;
    if (cpu.empty() && d.node_cpu) cpu = as_string(*d.node_cpu);
    if (cpu.empty()) cpu = "intel";
    if (cpu != "intel" && cpu != "amd" && cpu != "arm")
        throw OptionError("host_cpu", "expected intel, amd or arm, got '" + cpu + "'");

    std::string backend = rq.backend;
    if (backend.empty()) backend = d.has_nccl ? "nccl" : "astra-unaware";
    if (backend != "nccl" && backend != "astra-aware" && backend != "astra-unaware")
        throw OptionError("backend", "expected astra-unaware, astra-aware or nccl, got '" + backend + "'");
    if (backend == "nccl" && !d.has_nccl)
        throw OptionError("backend", d.name + " has no NCCL tables (it is not an NVIDIA GPU); use astra-aware or "
                                              "astra-unaware");

    if (chosen) *chosen = {d.name, nic.name, cpu, gpus, nodes, nics, nics_per_gpu};
    const InputLocation here = flag_at("gpu");
    ConfigValue root = table_value(here);
    put(root, "name", text_value(rq.name.empty() ? d.name : rq.name, here));
    put(root, "description",
        text_value(rq.description.empty() ? fmt::format("{} nodes of {} {} ({}), {} {} per node", nodes, gpus, d.name,
                                                        d.fabric_name, nics, nic.name)
                                          : rq.description,
                   here));
    // NCCL's tables for the GPU's generation.
    std::optional<Item> tables;
    std::vector<std::string> table_sources;
    std::optional<int> tables_sm;  // the GPU generation the tables are NCCL's for
    ConfigValue nccl;
    if (d.has_nccl) {
        tables = load_item(as_string(*d.tables), preset_dirs, "nccl", "NCCL table set", "gpu");
        ConfigTableReader t(tables->root);
        t.string("name");
        t.string("description");
        table_sources = t.string_list("sources");
        tables_sm = as_positive_integer(t.required("sm"));
        nccl = t.required("nccl");
        t.finish();
        if (nccl.type != ConfigValue::Type::Table) fail_at(nccl, "expected a table [nccl]");
    }
    std::vector<ConfigValue> sources;
    for (const std::string& s : rq.sources) sources.push_back(text_value(s, here));
    for (const std::vector<std::string>* list : std::initializer_list<const std::vector<std::string>*>{&d.sources, &nic.sources, &table_sources})
        for (const std::string& s : *list) sources.push_back(text_value(s, here));

    // The network: the node's fabric, then the NICs when there is more than one node.
    ConfigValue network = table_value(here);
    const bool multi = nodes > 1;
    std::vector<ConfigValue> topology, npus, bandwidth, latency;
    double node_gbps = 0;
    const char* node_topology = "Switch";
    switch (d.fabric) {
        case Fabric::NvSwitch: node_gbps = d.links * d.link_gbps; break;  // every link into the switches
        case Fabric::InfinityFabric:
            node_topology = "FullyConnected";  // one link to each peer
            node_gbps = d.link_gbps;
            break;
        case Fabric::NvlinkBridge:
        case Fabric::Pcie: {
            // Peers meet through the host's PCIe switches (a bridge joins one
            // pair only): PCIe GT/s per lane x lanes x 128/130 coding / 8 bits.
            const int gen = static_cast<int>(d.pcie_gen->number);
            const double gts = gen <= 2 ? 2.5 * gen : 8.0 * std::pow(2.0, gen - 3);
            node_gbps = gts * d.pcie_lanes->number * (gen <= 2 ? 0.8 : 128.0 / 130.0) / 8.0;
            break;
        }
    }
    topology.push_back(text_value(node_topology, d.links_value->where));
    npus.push_back(number_value(static_cast<double>(gpus), flag_at("gpus_per_node"), true));
    bandwidth.push_back(number_value(node_gbps, d.link_value->where));
    latency.push_back(*d.latency);
    if (multi) {
        topology.push_back(text_value("Switch", nic.rate.where));
        npus.push_back(number_value(static_cast<double>(nodes), flag_at("nodes"), true));
        // Gb/s to GB/s per direction; one NIC per GPU's share of the traffic.
        bandwidth.push_back(number_value(nic.rate.number / 8.0, nic.rate.where));
        latency.push_back(nic.latency);
    }
    put(network, "topology", list_value(std::move(topology), here));
    put(network, "npus_count", list_value(std::move(npus), here));
    put(network, "bandwidth", list_value(std::move(bandwidth), here));
    put(network, "latency", list_value(std::move(latency), here));
    const std::size_t dims = multi ? 2 : 1;

    ConfigValue compute = composed_compute(d, preset_dirs);
    const ConfigValue* hbm = compute.find("hbm-bandwidth-gbps");
    if (!hbm) fail_at(compute, "missing required key hbm-bandwidth-gbps");

    put(root, "sources", list_value(std::move(sources), here));
    put(root, "backend", text_value(backend, flag_at("backend")));
    put(root, "network", std::move(network));
    put(root, "system", astra_system_knobs(dims, *hbm, here));
    put(root, "compute", std::move(compute));

    if (d.has_nccl) {
        ConfigValue hw = table_value(here);
        put(hw, "sm", *d.sm);
        put(hw, "nvlinks-per-gpu",
            number_value(d.fabric == Fabric::NvSwitch ? d.links : 0, d.links_value->where, true));
        put(hw, "nvlink-bandwidth-per-link", *d.nccl_link);
        put(hw, "nvswitch", bool_value(d.fabric == Fabric::NvSwitch, d.links_value->where));
        put(hw, "nics-per-node", number_value(static_cast<double>(nics), flag_at("nics_per_node"), true));
        put(hw, "gpus-per-nic",
            number_value(static_cast<double>(std::max<long long>(1, (gpus + nics - 1) / nics)), flag_at("nics_per_node"),
                         true));
        if (nics_per_gpu > 1)
            put(hw, "nics-per-gpu", number_value(static_cast<double>(nics_per_gpu), flag_at("nics_per_gpu"), true));
        put(hw, "pcie-gen", *d.pcie_gen);
        put(hw, "pcie-lanes", *d.pcie_lanes);
        put(hw, "cpu-vendor", text_value(cpu, flag_at("host_cpu")));
        ConfigValue out = table_value(nccl.where);
        put(out, "hardware", std::move(hw));
        // The NIC's calibrated rates that [nccl] states at its top level.
        const std::pair<const char*, const ConfigValue*> nic_rates[] = {
            {"network-p2p-efficiency", &nic.calibration.payload},
            {"network-alltoall-efficiency", &nic.calibration.alltoall},
            {"ring-network-channel-bandwidth", &nic.calibration.ring_channel},
            {"ring-network-slice-overhead-us", &nic.calibration.ring_slice},
        };
        put(out, "nvls", *d.nvls);
        for (auto& [key, value] : nccl.fields) {
            if (key == "protocol") {
                ConfigValue protocol = value;
                ConfigValue* one = nullptr;
                for (auto& [k, v] : protocol.fields)
                    if (k == "ll-max-bus-bandwidth-one-node") one = &v;
                if (!one) fail_at(protocol, "missing required key ll-max-bus-bandwidth-one-node");
                ConfigValue replaced = table_value(protocol.where);
                for (auto& [k, v] : protocol.fields) {
                    if (k == "ll-max-bus-bandwidth-one-node")
                        put(replaced, "ll-max-bus-bandwidth", ll_max_bus_bandwidth(v, cpu == "amd", v.where));
                    else put(replaced, k, v);
                }
                put(out, key, std::move(replaced));
            } else if (key == "p2p") {
                ConfigValue p2p = value;
                put(p2p, "network-channel-bandwidth", nic.calibration.channel);
                put(p2p, "network-chunk-overhead-us", nic.calibration.chunk_overhead);
                put(p2p, "network-connection-start-us", nic.calibration.connection_start);
                put(out, key, std::move(p2p));
            } else {
                put(out, key, value);
            }
            // The NIC's rates follow NVLink's all-to-all share, as in the tables they replaced.
            if (key == "alltoall-nvlink-efficiency")
                for (const auto& [nic_key, rate] : nic_rates) put(out, nic_key, *rate);
        }
        for (const auto& [nic_key, rate] : nic_rates)
            if (!out.find(nic_key)) put(out, nic_key, *rate);
        // What is borrowed from other hardware, for reports to say.
        std::vector<ConfigValue> assumed;
        if (const ConfigValue* a = nccl.find("assumed"); a && a->type == ConfigValue::Type::List) assumed = a->items;
        if (!nic.calibration_from.empty()) {
            std::string own;
            for (const std::string& k : nic.own_calibration) own += (own.empty() ? " (all but " : ", ") + k;
            if (!own.empty()) own += ")";
            assumed.push_back(
                text_value("NIC payload rates of " + nic.name + " from " + nic.calibration_from + own, here));
        }
        if (tables_sm && as_positive_integer(*d.sm) != *tables_sm)
            assumed.push_back(text_value(fmt::format("NCCL's sm{} tables ({}) for {} (sm{})", *tables_sm,
                                                     as_string(*d.tables), d.name, as_positive_integer(*d.sm)),
                                         here));
        if (!assumed.empty()) put(out, "assumed", list_value(std::move(assumed), here));
        put(root, "nccl", std::move(out));
    }
    return root;
}

DeviceSummary load_device_summary(const std::string& name_or_path, const std::vector<std::string>& preset_dirs) {
    const Device d = read_device(name_or_path, preset_dirs);
    DeviceSummary s;
    s.name = d.name;
    s.description = d.description;
    auto number = [&](const char* key) {
        const ConfigValue* v = d.compute->find(key);
        return v ? as_non_negative_number(*v) : 0.0;
    };
    s.peak_tflops_bf16 = number("peak-tflops-bf16");
    s.peak_tflops_fp8 = number("peak-tflops-fp8");
    s.peak_tflops_fp32 = number("peak-tflops-fp32");
    s.hbm_capacity_gib = number("hbm-capacity-gib");
    s.hbm_bandwidth_gbps = number("hbm-bandwidth-gbps");
    s.fabric = d.fabric_name;
    s.links_per_gpu = d.links;
    s.link_bandwidth_gbps = d.link_gbps;
    if (d.has_nccl) s.sm = as_positive_integer(*d.sm);
    s.efficiency_from = d.efficiency_from;
    return s;
}

NicSummary load_nic_summary(const std::string& name_or_path, const std::vector<std::string>& preset_dirs) {
    const Nic n = read_nic(name_or_path, preset_dirs);
    return {n.name, n.description, n.rate.number, n.latency.number};
}

}  // namespace dtcalc
