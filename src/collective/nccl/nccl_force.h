#pragma once
// NCCL_ALGO and NCCL_PROTO, read as NCCL reads them (src/graph/tuning.cc,
// parseList and ncclTopoTuneModel, NCCL 2.24 on): which algorithms and
// protocols NCCL's own choice (nccl_selection.h) may pick, per collective.
//
//   setting  = [entry] { ";" function ":" entry }     the first entry may omit
//   entry    = ["^"] name { "," name }                 the function: all of them
//
// An entry first turns every name of its function(s) off ("^": on), then the
// listed ones on ("^": off). Names are case-insensitive:
//   functions   Broadcast, Reduce, AllGather, ReduceScatter, AllReduce
//   algorithms  Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT
//               (dtcalc also reads nvls-tree)
//   protocols   LL, LL128, Simple
// Examples: "ring" (ring only), "^nvls,nvlstree" (all but NVLS),
// "ring;allreduce:tree", "^LL128;allreduce:LL128".
//
// dtcalc prices all-gather, reduce-scatter and all-reduce; Broadcast and
// Reduce entries are read and price nothing. CollNet (in-network reduction) is
// not modelled: naming it is valid and leaves nothing available from it.
// All-to-all and send/recv are point-to-point, which neither variable changes.
//
// As in NCCL, LL128 unset means NCCL's default for the hardware (the preset's
// `ll128`); a setting that names LL128 enables or disables it outright.
//
// NCCL's channel settings (NCCL_MIN/MAX_NCHANNELS, NCCL_MIN/MAX_CTAS, the
// NVLS and point-to-point counts: nccl_topology.h, NcclChannelLimits) set the
// channels the communicator runs, not the choice.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_topology.h"
#include "core/collective_kind.h"
#include "core/error.h"

namespace dtcalc {

struct NcclForce {
    static constexpr int kFunctions = 3;  ///< all-gather, reduce-scatter, all-reduce

    /// [function][algorithm]: whether NCCL_ALGO leaves it on.
    std::array<std::array<bool, kNcclTunedAlgorithms>, kFunctions> algorithms{
        {{true, true, true, true, true}, {true, true, true, true, true}, {true, true, true, true, true}}};
    /// [function][protocol]: 0 off, 1 on, 2 NCCL's default (LL128 where the
    /// hardware takes it).
    std::array<std::array<std::uint8_t, kNcclProtocols>, kFunctions> protocols{
        {{1, 2, 1}, {1, 2, 1}, {1, 2, 1}}};
    /// The channel settings (NCCL_MIN/MAX_NCHANNELS, ...; 0: unset).
    NcclChannelLimits channels;

    /// One algorithm and/or protocol for every collective, as NCCL_ALGO=ring
    /// NCCL_PROTO=Simple set them (nullopt: that variable unset).
    static NcclForce only(std::optional<NcclAlgorithm> algorithm, std::optional<NcclProtocol> protocol);

    bool algorithm_enabled(CollectiveKind kind, NcclAlgorithm algorithm) const;
    /// `ll128_by_default`: whether NCCL enables LL128 on this hardware
    /// unasked (NcclParameters::ll128).
    bool protocol_enabled(CollectiveKind kind, NcclProtocol protocol, bool ll128_by_default) const;
    /// True when neither variable changes anything.
    bool unset() const { return *this == NcclForce{}; }

    bool operator==(const NcclForce&) const = default;
};

/// Apply an NCCL_ALGO value. Throws InputError at `where` where NCCL rejects
/// it (an unknown name or function, a later entry without a function).
void apply_nccl_algo(NcclForce& force, std::string_view setting, const InputLocation& where);
/// Apply an NCCL_PROTO value; as apply_nccl_algo.
void apply_nccl_proto(NcclForce& force, std::string_view setting, const InputLocation& where);
/// Apply an NCCL_NVLS_ENABLE value (src/transport/nvls.cc, ncclNvlsInit): 0
/// leaves the communicator without NVLS, so nvls and nvls-tree are off for
/// every collective, whatever NCCL_ALGO says; any other whole number leaves
/// NVLS to the hardware (2, the default: where the GPUs have multicast).
/// Throws InputError at `where` for a value that is not a whole number.
void apply_nccl_nvls_enable(NcclForce& force, std::string_view setting, const InputLocation& where);

/// Apply an NCCL_MAX_NCHANNELS value (src/graph/connect.cc, ncclMaxNchannels):
/// at most 64 (MAXCHANNELS), at least 1; -2, NCCL's "unset", changes nothing.
/// Throws InputError at `where` for a value that is not a whole number.
void apply_nccl_max_nchannels(NcclForce& force, std::string_view setting, const InputLocation& where);
/// Apply an NCCL_MIN_NCHANNELS value (ncclMinNchannels): at most 64, below 0
/// none; as apply_nccl_max_nchannels.
void apply_nccl_min_nchannels(NcclForce& force, std::string_view setting, const InputLocation& where);

/// The NCCL environment variables dtcalc models, in the order they are
/// applied: NCCL_ALGO, NCCL_PROTO, NCCL_NVLS_ENABLE (over NCCL_ALGO, as in
/// NCCL), then the channel settings (NcclChannelLimits): NCCL_MIN_NRINGS,
/// NCCL_MAX_NRINGS (legacy names, overridden by the next two),
/// NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS, NCCL_MIN_CTAS, NCCL_MAX_CTAS,
/// NCCL_NVLS_NCHANNELS, NCCL_MIN_P2P_NCHANNELS, NCCL_MAX_P2P_NCHANNELS,
/// NCCL_NCHANNELS_PER_NET_PEER. Each is a whole number; NCCL's own handling
/// of values out of range (clamped, or ignored) is kept.
std::span<const std::string_view> nccl_modelled_settings();
/// The same, joined with ", " for messages.
std::string nccl_modelled_settings_list();
/// Whether `variable` is one of nccl_modelled_settings().
bool nccl_setting_modelled(std::string_view variable);
/// Apply one modelled setting by its variable's name; throws InputError at
/// `where` where NCCL rejects the value, or for a variable dtcalc does not model.
void apply_nccl_setting(NcclForce& force, std::string_view variable, std::string_view value,
                        const InputLocation& where);

/// What `force` leaves for one collective, for messages: "ring, tree; LL, Simple".
std::string nccl_force_summary(const NcclForce& force, CollectiveKind kind, bool ll128_by_default);

}  // namespace dtcalc
