#include "chakra/astra_config_files.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace dtcalc::chakra {
namespace {

std::string implementation_name(const AlgorithmChoice& choice) {
    std::string name(algorithm_name(choice.kind));
    if (!choice.flat) return name;
    name[0] = static_cast<char>(name[0] - 'a' + 'A');
    return "one" + name;
}

// Whole numbers as JSON integers (ASTRA-sim reads some keys as ints).
nlohmann::ordered_json number(double v) {
    if (v == std::floor(v) && std::fabs(v) < 9e15) return static_cast<long long>(v);
    return v;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path);
    if (!out) throw InputError({path.string(), 0, 0, ""}, "cannot write the file");
    out << text;
    out.flush();  // a full disk shows when the buffer is written, not before
    if (!out) throw InputError({path.string(), 0, 0, ""}, "cannot write the file");
}

}  // namespace

std::string astra_network_yaml(const Network& network) {
    std::string topology, npus, bandwidth, latency;
    for (std::size_t i = 0; i < network.dimensions.size(); ++i) {
        const Dimension& d = network.dimensions[i];
        const char* sep = i ? ", " : "";
        topology += fmt::format("{}{}", sep, topology_name(d.topology));
        npus += fmt::format("{}{}", sep, d.npus);
        bandwidth += fmt::format("{}{}", sep, d.bandwidth_gbps);
        latency += fmt::format("{}{}", sep, d.latency_ns);
    }
    return fmt::format(
        "# written by dtcalc export-chakra\ntopology: [ {} ]\nnpus_count: [ {} ]\nbandwidth: [ {} ]  # GB/s\nlatency: [ {} ]  # ns\n",
        topology, npus, bandwidth, latency);
}

std::string astra_system_json(const SystemConfig& system, bool roofline_enabled) {
    static const char* keys[kGroupCollectiveKinds] = {"all-reduce-implementation", "reduce-scatter-implementation",
                                                      "all-gather-implementation", "all-to-all-implementation"};
    nlohmann::ordered_json j;
    j["scheduling-policy"] = std::string(scheduling_policy_name(system.scheduling_policy));
    j["endpoint-delay"] = number(system.endpoint_delay_ns);
    j["active-chunks-per-dimension"] = system.active_chunks_per_dimension;
    j["preferred-dataset-splits"] = system.preferred_dataset_splits;
    for (int k = 0; k < kGroupCollectiveKinds; ++k) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const AlgorithmChoice& c : system.implementation[static_cast<std::size_t>(k)]) list.push_back(implementation_name(c));
        j[keys[k]] = list;
    }
    j["collective-optimization"] = std::string(collective_optimization_name(system.collective_optimization));
    j["local-mem-bw"] = number(system.local_mem_bw_gbps);
    j["boost-mode"] = 0;
    j["roofline-enabled"] = roofline_enabled ? 1 : 0;
    if (system.peak_perf_tflops > 0) j["peak-perf"] = number(system.peak_perf_tflops);
    j["track-local-mem"] = 0;
    return j.dump(2) + "\n";
}

std::string astra_remote_memory_json() { return "{\"memory-type\": \"NO_MEMORY_EXPANSION\"}\n"; }

void write_astra_configs(const std::string& directory, const System& system, bool roofline_enabled) {
    const std::filesystem::path dir(directory);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw InputError({directory, 0, 0, ""}, "cannot create the folder: " + ec.message());
    write_text(dir / "network.yml", astra_network_yaml(system.network));
    write_text(dir / "system.json", astra_system_json(system.config, roofline_enabled));
    write_text(dir / "remote_memory.json", astra_remote_memory_json());
}

}  // namespace dtcalc::chakra
