#include "cli/cli_common.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "collective/nccl/nccl_parameters.h"
#include "core/error.h"

namespace dtcalc::cli {
namespace fs = std::filesystem;

void add_system_options(CLI::App& command, SystemOptions& options, bool shape) {
    command.add_option("--preset,-p", options.preset, "System preset: a name (see `dtcalc list`) or a .toml path");
    command.add_option("--network", options.network_file, "ASTRA-sim network YAML (with --system)");
    command.add_option("--system", options.system_file, "ASTRA-sim system JSON (with --network)");
    command.add_option("--backend", options.backend,
                       "Network model: astra-unaware | astra-aware | nccl (default: the preset's; astra-unaware for files)");
    command.add_option("--gpu", options.gpu,
                       "A cluster from the hardware catalogue instead of a preset: the GPU (see `dtcalc list gpus`)");
    command.add_option("--nic", options.nic, "The NIC of a cluster from --gpu (default: the GPU's reference node's)");
    command.add_option("--nics-per-node", options.nics_per_node,
                       "NICs per node of a cluster from --gpu (default: the reference node's, or one per GPU with --nic)");
    command.add_option("--nics-per-gpu", options.nics_per_gpu,
                       "NICs under each GPU's PCIe switch, of a cluster from --gpu (default 1; e.g. 2 with 16 NICs for "
                       "8 GPUs; --nics-per-node then defaults to GPUs x this)");
    command.add_option("--host-cpu", options.host_cpu, "Host CPU of a cluster from --gpu: intel | amd | arm (Grace)");
    if (!shape) return;
    command.add_option("--nodes", options.nodes,
                       "Nodes: the outermost network dimension (of a cluster from --gpu, or reshaping a preset)");
    command.add_option("--gpus-per-node", options.gpus_per_node, "GPUs per node: the innermost dimension");
}

NcclForce parse_nccl_force(const ResolvedSystem& system, const std::string& algo, const std::string& proto) {
    return nccl_force_option(system.system, algo, proto, {"--algo", 0, 0, ""}, {"--proto", 0, 0, ""});
}

void check_layer_passes(long long passes, std::size_t layers) {
    constexpr long long kMaxLayerPasses = 1000000;  // about 1 KiB of graph each
    const long long total = passes * static_cast<long long>(layers);
    if (total > kMaxLayerPasses)
        throw InputError({"--passes", 0, 0, ""}, "expected at most " + std::to_string(kMaxLayerPasses) +
                                                     " layer passes (passes x layers), got " + std::to_string(passes) +
                                                     " x " + std::to_string(layers) + " = " + std::to_string(total));
}

WarningsAtEnd::WarningsAtEnd(std::vector<std::string> warnings, std::string kind)
    : warnings_(std::move(warnings)), kind_(std::move(kind)), exceptions_(std::uncaught_exceptions()) {}

WarningsAtEnd::~WarningsAtEnd() {
    if (std::uncaught_exceptions() > exceptions_) return;
    for (const std::string& w : warnings_) std::cerr << "dtcalc: " << kind_ << ": " << w << "\n";
}

OutputFormat parse_output_format(const std::string& text) {
    if (text == "table") return OutputFormat::Table;
    if (text == "csv") return OutputFormat::Csv;
    if (text == "json") return OutputFormat::Json;
    throw InputError({"--format", 0, 0, ""}, "expected table, csv or json, got '" + text + "'");
}

void check_threads_flag(int threads) {
    if (threads < 0 || threads > 1024)
        throw InputError({"--threads", 0, 0, ""}, "expected 0 (every core) to 1024, got " + std::to_string(threads));
}

TimeUnit parse_units_flag(const std::string& text) {
    const auto unit = parse_time_unit(text);
    if (!unit) throw InputError({"--units", 0, 0, ""}, "expected us, ns, ms, s or cycles, got '" + text + "'");
    return *unit;
}

}  // namespace dtcalc::cli
