#pragma once
// What several subcommands share: choosing the system (a preset, or
// ASTRA-sim's network YAML + system JSON), the backend, units and format.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "collective/backend.h"
#include "collective/nccl/nccl_force.h"
#include "collective/nccl/nccl_parameters.h"
#include "config/system_source.h"
#include "core/units.h"
#include "network/network.h"
#include "system/system_config.h"

namespace dtcalc::cli {

using dtcalc::model_search_dirs;
using dtcalc::preset_search_dirs;
using dtcalc::resolve_system;
using dtcalc::ResolvedSystem;
using SystemOptions = dtcalc::SystemSource;

/// --preset, --network, --system, --backend, and a cluster from the hardware
/// catalogue: --gpu, --nic, --nics-per-node, --nics-per-gpu, --host-cpu; with `shape` also
/// --nodes and --gpus-per-node (which build such a cluster, or reshape a preset).
void add_system_options(CLI::App& command, SystemOptions& options, bool shape = true);

enum class OutputFormat { Table, Csv, Json };

/// --algo / --proto for the nccl backend, in NCCL_ALGO / NCCL_PROTO's own
/// syntax (nccl_force.h), for the queries to carry (nothing forced when both
/// are empty); throws InputError naming the flag for a bad setting or another
/// backend.
dtcalc::NcclForce parse_nccl_force(const ResolvedSystem& system, const std::string& algo, const std::string& proto);

/// A text workload's training graph holds every layer of every pass: more
/// than 1,000,000 layer passes is an InputError naming --passes.
void check_layer_passes(long long passes, std::size_t layers);

/// Prints each warning as one line on stderr, "dtcalc: warning: WHAT", when
/// the command ends with a result (after its output); nothing when it ends
/// with an error, whose one line stays the only one.
class WarningsAtEnd {
public:
    explicit WarningsAtEnd(std::vector<std::string> warnings, std::string kind = "warning");
    ~WarningsAtEnd();
    WarningsAtEnd(const WarningsAtEnd&) = delete;
    WarningsAtEnd& operator=(const WarningsAtEnd&) = delete;

private:
    std::vector<std::string> warnings_;
    std::string kind_;
    int exceptions_;
};

OutputFormat parse_output_format(const std::string& text);  ///< throws InputError naming --format
TimeUnit parse_units_flag(const std::string& text);          ///< throws InputError naming --units
/// --threads / -j: 0 (every core) to 1024 (each worker holds its own scratch,
/// so a bound keeps a mistyped count from exhausting memory); else an
/// InputError naming --threads.
void check_threads_flag(int threads);

}  // namespace dtcalc::cli
