#pragma once
// Where a system comes from: a preset (name or path), or ASTRA-sim's network
// YAML and system JSON; and the network backend to price it with.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collective/nccl/nccl_force.h"
#include "compute/system.h"
#include "config/hardware_catalogue.h"

namespace dtcalc {

struct SystemSource {
    std::string preset;
    std::string network_file;
    std::string system_file;
    std::string backend;  ///< empty: the preset's (astra-unaware for files)
    /// A cluster from the hardware catalogue (config/hardware_catalogue.h):
    /// a GPU, and optionally a NIC, NICs per node and the host CPU. `nodes`
    /// and `gpus_per_node` are part of such a cluster; a preset's or files'
    /// network they reshape (network/cluster_shape.h).
    std::string gpu, nic, host_cpu;
    std::optional<long long> nodes, gpus_per_node, nics_per_node, nics_per_gpu;

    bool operator==(const SystemSource&) const = default;
};

/// The catalogue cluster a source's flags describe (its gpu, nic, host CPU,
/// nodes, GPUs and NICs per node, backend).
ClusterRequest cluster_request(const SystemSource& source);

/// A system as a source gave it: the System, and how reports name it.
struct ResolvedSystem {
    /// The device: the preset's or cluster's, or for ASTRA-sim files their
    /// peak-perf and local-mem-bw.
    System system;
    std::string label;  ///< how reports name it
    /// The cluster was built from --gpu (nodes and GPUs per node are part of it).
    bool from_catalogue = false;
    /// ASTRA-sim network files: "FILE: dimension 0 (Ring): latency ..." for
    /// each value outside its topology's usual range (network/plausible_links.h);
    /// a cluster from the catalogue: NICs per node its GPUs do not reach. The
    /// command line prints them on stderr.
    std::vector<std::string> warnings;
};

/// Throws InputError naming the flag (--preset, --network, --system, --backend,
/// --gpu, --nic, ...).
ResolvedSystem resolve_system(const SystemSource& source, const std::vector<std::string>& preset_dirs);

/// NCCL_ALGO / NCCL_PROTO values given with a query (--algo / --proto, a
/// dataset's algorithm / protocol, Python's algo= / proto=) for `system`:
/// nothing when both are empty. Throws InputError at `algo_at` / `proto_at`
/// for a value NCCL rejects, or a system that is not priced by the nccl
/// backend.
NcclForce nccl_force_option(const System& system, std::string_view algo, std::string_view proto,
                            const InputLocation& algo_at, const InputLocation& proto_at);

/// NCCL_MIN_NCHANNELS (`minimum`) or NCCL_MAX_NCHANNELS given as an option
/// (collective's --min-nchannels / --max-nchannels, the library's
/// min_nchannels / max_nchannels): for the nccl backend only, 0 to 64 and 1
/// to 64 channels (NCCL's MAXCHANNELS); else an InputError at `where`.
void apply_nccl_channel_option(NcclForce& force, const System& system, bool minimum, long long value,
                               const InputLocation& where);

/// NCCL settings given as VARIABLE=VALUE, as a shell sets them before a run
/// (collective's --env NCCL_MAX_CTAS=8): for the nccl backend only; each one
/// of nccl_modelled_settings(), at most once and not also given by its own
/// option (`by_options`: the variables already set that way); applied over
/// `force` in nccl_modelled_settings()'s order, as NCCL reads them. Else an
/// InputError at `where` naming the entry.
void apply_nccl_env_options(NcclForce& force, const System& system, const std::vector<std::string>& entries,
                            const std::vector<std::string_view>& by_options, const InputLocation& where);

/// The NCCL settings measured runs were made with, as a command line or a
/// dataset gives them: NCCL_ALGO and NCCL_PROTO values (empty: unset) and
/// further VARIABLE=VALUE entries (validate's and calibrate's --algo, --proto,
/// --env; a gates file's algorithm, protocol, env). nccl_force_option, then
/// apply_nccl_env_options with the variables the first two set; unset where
/// all three are empty, whatever the system.
NcclForce nccl_run_settings(const System& system, std::string_view algo, std::string_view proto,
                            const std::vector<std::string>& env, const InputLocation& algo_at,
                            const InputLocation& proto_at, const InputLocation& env_at);

/// The NCCL variables the dedicated options set (--algo / algo: NCCL_ALGO,
/// --proto: NCCL_PROTO, --min-nchannels / --max-nchannels), for
/// apply_nccl_env_options' `by_options`.
std::vector<std::string_view> nccl_variables_by_options(bool algo, bool proto, bool min_nchannels = false,
                                                        bool max_nchannels = false);

/// Search paths: $DTCALC_PRESET_PATH / $DTCALC_MODEL_PATH (':'-separated), then
/// ./presets or ./models, the install's share/dtcalc/..., next to the
/// executable, and the source tree.
std::vector<std::string> preset_search_dirs(const std::string& argv0);
std::vector<std::string> model_search_dirs(const std::string& argv0);

}  // namespace dtcalc
