#include "config/network_config.h"

#include "config/config_readers.h"
#include "core/name_key.h"
#include "core/units.h"

#include <cctype>
#include <string>

namespace dtcalc {
namespace {

std::string unknown_topology_message(const std::string& name) {
    const std::string lower = ascii_lower(name);
    if (lower.find("mesh") != std::string::npos || lower.find("torus") != std::string::npos)
        return "unknown topology '" + name + "' (expected Ring, Switch, FullyConnected, Mesh2D, Torus2D or Torus3D)";
    return "unknown topology '" + name + "' (expected Ring, Switch or FullyConnected)";
}

}  // namespace

Network network_from_config(const ConfigValue& table) {
    ConfigTableReader reader(table);
    const auto& topologies = reader.list("topology");
    const auto& npus = reader.list("npus_count");
    const auto& bandwidths = reader.list("bandwidth");
    const auto& latencies = reader.list("latency");
    const std::size_t dims = topologies.size();
    // A Mesh2D or Torus2D entry spans two npus_count entries (X, then Y), a
    // Torus3D three; bandwidth and latency stay one per topology entry.
    std::size_t axes = 0;
    bool grids = false;
    for (const ConfigValue& t : topologies) {
        const auto topology = t.type == ConfigValue::Type::String ? parse_topology(t.text) : std::nullopt;
        if (t.type == ConfigValue::Type::String && !topology) fail_at(t, unknown_topology_message(t.text));
        const int span = topology ? topology_axes(*topology) : 1;
        grids = grids || span > 1;
        axes += static_cast<std::size_t>(span);
    }
    for (const auto* list : {&npus, &bandwidths, &latencies}) {
        const std::size_t expected = list == &npus ? axes : dims;
        if (list->size() != expected) {
            const char* key = list == &npus ? "npus_count" : list == &bandwidths ? "bandwidth" : "latency";
            InputLocation where = list->empty() ? reader.required(key).where : list->front().where;
            if (!list->empty()) where.key = where.key.substr(0, where.key.rfind('['));
            if (list == &npus && grids)
                throw InputError(where, "has " + std::to_string(list->size()) + " entries but 'topology' needs " +
                                            std::to_string(axes) + " (one per dimension; Mesh2D and Torus2D take "
                                            "two, X then Y, and Torus3D three)");
            throw InputError(where, "has " + std::to_string(list->size()) + " entries but 'topology' has " +
                                        std::to_string(dims) + " (one per dimension)");
        }
    }
    Network network;
    std::int64_t total_npus = 1;
    std::size_t axis = 0;
    for (std::size_t i = 0; i < dims; ++i) {
        const std::string& name = as_string(topologies[i]);
        const auto topology = parse_topology(name);
        if (!topology) fail_at(topologies[i], unknown_topology_message(name));
        const int span = topology_axes(*topology);
        std::int64_t grid_npus = 1;
        for (int a = 0; a < span; ++a) {
            const ConfigValue& count = npus[axis + static_cast<std::size_t>(a)];
            const int n = as_positive_integer(count);
            if (n > kMaxNpus) fail_at(count, "more than 16,777,216 NPUs in one dimension");
            if (span > 1 && n < 2)
                fail_at(count, std::string(topology_name(*topology)) + " needs at least 2 NPUs along each axis (got " +
                                   std::to_string(n) + " along " + std::string(1, static_cast<char>('x' + a)) +
                                   "); use Ring for a single line");
            grid_npus *= n;
        }
        if (span > 1 && grid_npus > (1 << 24))
            fail_at(npus[axis], "more than 16,777,216 NPUs in one " + std::string(topology_name(*topology)));
        const double bandwidth = as_positive_number(bandwidths[i]);
        if (bandwidth < kMinBandwidthGbps || bandwidth > kMaxBandwidthGbps)
            fail_at(bandwidths[i], number_out_of_range(bandwidth, kMinBandwidthGbps, kMaxBandwidthGbps,
                                                       "GB/s per link (1 kB/s to 1 ZB/s)"));
        const double latency = as_non_negative_number(latencies[i]);
        if (latency > kMaxLatencyNs)
            fail_at(latencies[i], number_out_of_range(latency, 0, kMaxLatencyNs, "ns per hop (up to 1 s)"));
        for (int a = 0; a < span; ++a, ++axis) {
            // Checked before the next factor: a product <= 2^24 times a factor <= 2^24 fits in 64 bits.
            total_npus *= static_cast<std::int64_t>(npus[axis].number);
            if (total_npus > kMaxNpus)
                fail_at(npus[axis], "out of range: the dimensions multiply to more than 16,777,216 NPUs "
                                    "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
            Dimension d;
            d.topology = *topology;
            d.npus = static_cast<int>(npus[axis].number);
            d.bandwidth_gbps = bandwidth;
            d.latency_ns = latency;
            network.dimensions.push_back(d);
        }
    }
    reader.finish();
    return network;
}

Network load_astra_network_yaml(const std::string& path) {
    return network_from_config(read_yaml_file(path));
}

}  // namespace dtcalc
