#include "config/network_config.h"

#include "config/config_readers.h"

namespace dtcalc {

Network network_from_config(const ConfigValue& table) {
    ConfigTableReader reader(table);
    const auto& topologies = reader.list("topology");
    const auto& npus = reader.list("npus_count");
    const auto& bandwidths = reader.list("bandwidth");
    const auto& latencies = reader.list("latency");
    const std::size_t dims = topologies.size();
    for (const auto* list : {&npus, &bandwidths, &latencies}) {
        if (list->size() != dims) {
            const ConfigValue& first = list->front();
            InputLocation where = first.where;
            where.key = where.key.substr(0, where.key.rfind('['));
            throw InputError(where, "has " + std::to_string(list->size()) + " entries but 'topology' has " +
                                        std::to_string(dims) + " (one per dimension)");
        }
    }
    Network network;
    for (std::size_t i = 0; i < dims; ++i) {
        Dimension d;
        const std::string& name = as_string(topologies[i]);
        const auto topology = parse_topology(name);
        if (!topology)
            fail_at(topologies[i], "unknown topology '" + name + "' (expected Ring, Switch or FullyConnected)");
        d.topology = *topology;
        d.npus = as_positive_integer(npus[i]);
        if (d.npus > (1 << 24)) fail_at(npus[i], "more than 16,777,216 NPUs in one dimension");
        d.bandwidth_gbps = as_positive_number(bandwidths[i]);
        d.latency_ns = as_non_negative_number(latencies[i]);
        network.dimensions.push_back(d);
    }
    if (network.total_npus() > (1LL << 40)) fail_at(table, "more than 2^40 NPUs in all");
    reader.finish();
    return network;
}

Network load_astra_network_yaml(const std::string& path) {
    return network_from_config(read_yaml_file(path));
}

}  // namespace dtcalc
