#include "config/system_source.h"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "config/network_config.h"
#include "config/preset.h"
#include "config/system_config_reader.h"
#include "core/error.h"
#include "network/cluster_shape.h"
#include "network/plausible_links.h"

namespace dtcalc {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> data_search_dirs(const std::string& argv0, const char* env_name, const std::string& folder) {
    std::vector<std::string> dirs;
    if (const char* env = std::getenv(env_name)) {
        std::string all = env;
        std::size_t start = 0;
        while (start <= all.size()) {
            const std::size_t end = std::min(all.find(':', start), all.size());
            if (end > start) dirs.push_back(all.substr(start, end - start));
            start = end + 1;
        }
    }
    dirs.push_back(folder);
    std::error_code ec;
    const fs::path exe = fs::weakly_canonical(fs::path(argv0), ec);
    if (!ec && exe.has_parent_path()) {
        dirs.push_back((exe.parent_path() / ".." / "share" / "dtcalc" / folder).lexically_normal().string());
        dirs.push_back((exe.parent_path() / ".." / folder).lexically_normal().string());
    }
    dirs.push_back(std::string(DTCALC_SOURCE_DIR) + "/" + folder);
    return dirs;
}

}  // namespace

std::vector<std::string> preset_search_dirs(const std::string& argv0) {
    return data_search_dirs(argv0, "DTCALC_PRESET_PATH", "presets");
}

std::vector<std::string> model_search_dirs(const std::string& argv0) {
    return data_search_dirs(argv0, "DTCALC_MODEL_PATH", "models");
}

ClusterRequest cluster_request(const SystemSource& options) {
    ClusterRequest rq;
    rq.gpu = options.gpu;
    rq.nic = options.nic;
    rq.host_cpu = options.host_cpu;
    rq.nodes = options.nodes;
    rq.gpus_per_node = options.gpus_per_node;
    rq.nics_per_node = options.nics_per_node;
    rq.nics_per_gpu = options.nics_per_gpu;
    rq.backend = options.backend;
    return rq;
}

// "gpu h200, 16 nodes x 8, nic ndr400 x 8"
std::string cluster_label(const ClusterChoice& c) {
    std::string label = "gpu " + c.gpu + ", " + std::to_string(c.nodes) + (c.nodes == 1 ? " node" : " nodes") + " x " +
                        std::to_string(c.gpus_per_node);
    if (c.nodes > 1) {
        label += ", nic " + c.nic + " x " + std::to_string(c.nics_per_node);
        if (c.nics_per_gpu > 1) label += ", " + std::to_string(c.nics_per_gpu) + " per GPU";
    }
    return label;
}

ResolvedSystem resolve_system(const SystemSource& options, const std::vector<std::string>& preset_dirs) {
    ResolvedSystem out;
    const bool files = !options.network_file.empty() || !options.system_file.empty();
    const bool cluster = !options.gpu.empty();
    if (!cluster) {
        if (!options.nic.empty()) throw OptionError("nic", "describes a cluster from the catalogue: give --gpu too");
        if (options.nics_per_node) throw OptionError("nics_per_node", "describes a cluster from the catalogue: give --gpu too");
        if (options.nics_per_gpu) throw OptionError("nics_per_gpu", "describes a cluster from the catalogue: give --gpu too");
        if (!options.host_cpu.empty()) throw OptionError("host_cpu", "describes a cluster from the catalogue: give --gpu too");
    }
    if (cluster && (!options.preset.empty() || files))
        throw OptionError("gpu", "give either a GPU (a cluster from the catalogue), a preset, or a network and a "
                                 "system, not two of them");
    if (!options.preset.empty() && files)
        throw OptionError("preset", "give either a preset or a network and a system, not both");
    if (cluster) {
        ClusterChoice chosen;
        out.system = preset_from_config(compose_cluster(cluster_request(options), preset_dirs, &chosen), "").system;
        out.label = cluster_label(chosen);
        out.from_catalogue = true;
        const long long reached = chosen.gpus_per_node * chosen.nics_per_gpu;
        if (chosen.nodes > 1 && chosen.nics_per_node > reached)
            out.warnings.push_back(fmt::format(
                "{} NICs per node for {} GPUs: NCCL uses the NICs under its GPUs' PCIe switches, {} per GPU here ({} of "
                "the {}); if each GPU has more, say how many with --nics-per-gpu",
                chosen.nics_per_node, chosen.gpus_per_node, chosen.nics_per_gpu, reached, chosen.nics_per_node));
    } else if (!options.preset.empty()) {
        Preset preset = load_preset(options.preset, preset_dirs);
        out.system = std::move(preset.system);
        out.label = "preset " + preset.name;
    } else if (files) {
        if (options.network_file.empty())
            throw OptionError("network", "missing: a system file needs a network file too");
        if (options.system_file.empty())
            throw OptionError("system", "missing: a network file needs a system file too");
        System& system = out.system;
        system.network = load_astra_network_yaml(options.network_file);
        for (const std::string& w : implausible_links(system.network)) out.warnings.push_back(options.network_file + ": " + w);
        system.config = load_astra_system_json(options.system_file, system.network.dimensions.size());
        system.backend = NetworkBackend::AstraUnaware;
        system.device.peak_tflops_bf16 = system.config.peak_perf_tflops;
        system.device.hbm_gbps = system.config.local_mem_bw_gbps;
        out.label = fs::path(options.network_file).filename().string() + " + " +
                    fs::path(options.system_file).filename().string();
    } else {
        throw OptionError("preset", "missing: give a preset, or a network file and a system file");
    }
    if (!cluster && (options.nodes || options.gpus_per_node)) {
        const std::optional<int> node_gpus = out.system.node_gpus();
        out.system.network = shape_cluster(std::move(out.system.network), options.nodes, options.gpus_per_node, node_gpus);
    }
    if (!options.backend.empty()) {
        const auto backend = parse_network_backend(options.backend);
        if (!backend)
            throw OptionError("backend",
                             "expected astra-unaware, astra-aware or nccl, got '" + options.backend + "'");
        out.system.backend = *backend;
    }
    if (out.system.backend == NetworkBackend::Nccl && !out.system.nccl())
        throw OptionError("backend",
                         "nccl needs a preset with an [nccl] table (e.g. hgx-h100, dgx-a100, h100-ib-ndr400, "
                         "a100-ib-hdr200)");
    return out;
}

NcclForce nccl_force_option(const System& system, std::string_view algo, std::string_view proto,
                            const InputLocation& algo_at, const InputLocation& proto_at) {
    NcclForce force;
    if (algo.empty() && proto.empty()) return force;
    if (system.backend != NetworkBackend::Nccl || !system.nccl())
        throw InputError(algo.empty() ? proto_at : algo_at,
                         "applies to the nccl backend only (this system uses " +
                             std::string(network_backend_name(system.backend)) + ")");
    apply_nccl_algo(force, algo, algo_at);
    apply_nccl_proto(force, proto, proto_at);
    return force;
}

NcclForce nccl_run_settings(const System& system, std::string_view algo, std::string_view proto,
                            const std::vector<std::string>& env, const InputLocation& algo_at,
                            const InputLocation& proto_at, const InputLocation& env_at) {
    NcclForce force = nccl_force_option(system, algo, proto, algo_at, proto_at);
    apply_nccl_env_options(force, system, env, nccl_variables_by_options(!algo.empty(), !proto.empty()), env_at);
    return force;
}

void apply_nccl_channel_option(NcclForce& force, const System& system, bool minimum, long long value,
                               const InputLocation& where) {
    if (system.backend != NetworkBackend::Nccl || !system.nccl())
        throw InputError(where, "applies to the nccl backend only (this system uses " +
                                    std::string(network_backend_name(system.backend)) + ")");
    const long long low = minimum ? 0 : 1;
    if (value < low || value > 64)
        throw InputError(where, "expected " + std::to_string(low) + " to 64 channels (NCCL's MAXCHANNELS), got " +
                                    std::to_string(value));
    if (minimum)
        apply_nccl_min_nchannels(force, std::to_string(value), where);
    else
        apply_nccl_max_nchannels(force, std::to_string(value), where);
}

std::vector<std::string_view> nccl_variables_by_options(bool algo, bool proto, bool min_nchannels,
                                                        bool max_nchannels) {
    std::vector<std::string_view> out;
    if (algo) out.push_back("NCCL_ALGO");
    if (proto) out.push_back("NCCL_PROTO");
    if (min_nchannels) out.push_back("NCCL_MIN_NCHANNELS");
    if (max_nchannels) out.push_back("NCCL_MAX_NCHANNELS");
    return out;
}

void apply_nccl_env_options(NcclForce& force, const System& system, const std::vector<std::string>& entries,
                            const std::vector<std::string_view>& by_options, const InputLocation& where) {
    if (entries.empty()) return;
    if (system.backend != NetworkBackend::Nccl || !system.nccl())
        throw InputError(where, "applies to the nccl backend only (this system uses " +
                                    std::string(network_backend_name(system.backend)) + ")");
    std::vector<std::pair<std::string, std::string>> given;
    for (const std::string& entry : entries) {
        const std::size_t eq = entry.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError(where, "'" + entry + "': expected VARIABLE=VALUE, e.g. NCCL_MAX_CTAS=8");
        std::string variable = entry.substr(0, eq);
        if (eq + 1 == entry.size())
            throw InputError(where, "'" + entry + "': expected a value after '=' (leave a variable out to keep "
                                                  "NCCL's default)");
        if (!nccl_setting_modelled(variable))
            throw InputError(where, "'" + entry + "': " + variable + " is not a setting dtcalc models (it models " +
                                        nccl_modelled_settings_list() + ")");
        for (const auto& [seen, value] : given)
            if (seen == variable) throw InputError(where, "'" + entry + "': " + variable + " is given twice");
        for (std::string_view option : by_options)
            if (option == variable)
                throw InputError(where, "'" + entry + "': " + variable + " is also given by its own option; give one");
        given.emplace_back(std::move(variable), entry.substr(eq + 1));
    }
    for (std::string_view variable : nccl_modelled_settings())
        for (const auto& [name, value] : given)
            if (name == variable) apply_nccl_setting(force, name, value, where);
}

}  // namespace dtcalc
