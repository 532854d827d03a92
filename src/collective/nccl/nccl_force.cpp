#include "collective/nccl/nccl_force.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

#include "core/number_text.h"

namespace dtcalc {
namespace {

// NCCL's ncclFuncStr order is Broadcast, Reduce, AllGather, ReduceScatter,
// AllReduce; dtcalc keeps the last three (index 0..2 of NcclForce).
constexpr std::string_view kFunctionNames = "Broadcast, Reduce, AllGather, ReduceScatter or AllReduce";
constexpr std::string_view kAlgorithmNames = "Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree or PAT";
constexpr std::string_view kProtocolNames = "LL, LL128 or Simple";

int function_index(CollectiveKind kind) {
    switch (kind) {
        case CollectiveKind::AllGather: return 0;
        case CollectiveKind::ReduceScatter: return 1;
        case CollectiveKind::AllReduce: return 2;
        case CollectiveKind::AllToAll:
        case CollectiveKind::SendRecv: return -1;
    }
    return -1;
}

std::string squashed_lower(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c != '-' && c != '_' && c != ' ' && c != '\t')
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// strtok's view of a string: the non-empty pieces between delimiters.
std::vector<std::string_view> pieces(std::string_view s, char delimiter) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        std::size_t end = s.find(delimiter, start);
        if (end == std::string_view::npos) end = s.size();
        if (end > start) out.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

// The functions an entry's prefix names: {} for Broadcast and Reduce (read,
// not priced), nullopt for an unknown name.
std::optional<std::vector<int>> prefix_functions(std::string_view prefix) {
    const std::string key = squashed_lower(prefix);
    if (key == "broadcast" || key == "reduce") return std::vector<int>{};
    const auto kind = parse_collective_kind(key);
    if (!kind || function_index(*kind) < 0) return std::nullopt;
    return std::vector<int>{function_index(*kind)};
}

// One variable's names: the index of a name in the table dtcalc keeps, -1 for
// a name NCCL knows and dtcalc does not model (CollNet), nullopt for neither.
using NameIndex = std::optional<int> (*)(std::string_view);

std::optional<int> algorithm_index(std::string_view name) {
    const std::string key = squashed_lower(name);
    if (key == "collnetdirect" || key == "collnetchain") return -1;
    if (const auto a = parse_nccl_algorithm(key)) return static_cast<int>(*a);
    return std::nullopt;
}

std::optional<int> protocol_index(std::string_view name) {
    if (const auto p = parse_nccl_protocol(squashed_lower(name))) return static_cast<int>(*p);
    return std::nullopt;
}

// parseList (src/graph/tuning.cc) over `table` ([function][element]).
template <class Table>
void parse_setting(Table& table, std::string_view setting, const InputLocation& where, NameIndex index,
                   std::string_view names) {
    const auto in_setting = [&](std::string_view part) {
        return part == setting ? std::string() : " in '" + std::string(setting) + "'";
    };
    const std::vector<std::string_view> entries = pieces(setting, ';');
    for (std::size_t e = 0; e < entries.size(); ++e) {
        const std::vector<std::string_view> parts = pieces(entries[e], ':');
        if (parts.empty()) continue;
        std::vector<int> functions{0, 1, 2};
        std::string_view list = parts[0];
        if (parts.size() >= 2) {
            const auto named = prefix_functions(parts[0]);
            if (!named)
                throw InputError(where, "expected a function " + std::string(kFunctionNames) +
                                            " before ':', got '" + std::string(parts[0]) + "'" + in_setting(parts[0]));
            functions = *named;
            list = parts[1];
        } else if (e > 0) {
            throw InputError(where, "every entry after the first needs its function, e.g. 'allreduce:" +
                                        std::string(list) + "', got '" + std::string(list) + "'" + in_setting(list));
        }
        const bool except = !list.empty() && list.front() == '^';
        if (except) list.remove_prefix(1);
        std::vector<int> listed;
        for (std::string_view name : pieces(list, ',')) {
            const auto i = index(name);
            if (!i)
                throw InputError(where, "expected " + std::string(names) +
                                            " (a list, '^' first to exclude, 'allreduce:' for one collective), got '" +
                                            std::string(name) + "'" + in_setting(name));
            if (*i >= 0) listed.push_back(*i);
        }
        for (int f : functions) {
            for (auto& on : table[static_cast<std::size_t>(f)]) on = except ? 1 : 0;
            for (int i : listed) table[static_cast<std::size_t>(f)][static_cast<std::size_t>(i)] = except ? 0 : 1;
        }
    }
}

}  // namespace

NcclForce NcclForce::only(std::optional<NcclAlgorithm> algorithm, std::optional<NcclProtocol> protocol) {
    NcclForce force;
    for (int f = 0; f < kFunctions; ++f) {
        if (algorithm)
            for (int a = 0; a < kNcclTunedAlgorithms; ++a)
                force.algorithms[static_cast<std::size_t>(f)][static_cast<std::size_t>(a)] = a == static_cast<int>(*algorithm);
        if (protocol)
            for (int p = 0; p < kNcclProtocols; ++p)
                force.protocols[static_cast<std::size_t>(f)][static_cast<std::size_t>(p)] = p == static_cast<int>(*protocol);
    }
    return force;
}

bool NcclForce::algorithm_enabled(CollectiveKind kind, NcclAlgorithm algorithm) const {
    const int f = function_index(kind);
    const int a = static_cast<int>(algorithm);
    if (f < 0 || a >= kNcclTunedAlgorithms) return true;
    return algorithms[static_cast<std::size_t>(f)][static_cast<std::size_t>(a)];
}

bool NcclForce::protocol_enabled(CollectiveKind kind, NcclProtocol protocol, bool ll128_by_default) const {
    const int f = function_index(kind);
    if (f < 0) return true;
    const std::uint8_t on = protocols[static_cast<std::size_t>(f)][static_cast<std::size_t>(protocol)];
    return on == 2 ? (protocol != NcclProtocol::LL128 || ll128_by_default) : on == 1;
}

void apply_nccl_algo(NcclForce& force, std::string_view setting, const InputLocation& where) {
    parse_setting(force.algorithms, setting, where, algorithm_index, kAlgorithmNames);
}

void apply_nccl_proto(NcclForce& force, std::string_view setting, const InputLocation& where) {
    parse_setting(force.protocols, setting, where, protocol_index, kProtocolNames);
}

void apply_nccl_nvls_enable(NcclForce& force, std::string_view setting, const InputLocation& where) {
    const auto value = parse_finite_number(setting);
    if (!value || *value != std::floor(*value))
        throw InputError(where, "NCCL_NVLS_ENABLE='" + std::string(setting) +
                                    "': expected a whole number (0 turns NVLS off; 1 and 2, the default, leave it on "
                                    "where the GPUs have it)");
    if (*value != 0) return;
    for (auto& function : force.algorithms) {
        function[static_cast<std::size_t>(NcclAlgorithm::Nvls)] = false;
        function[static_cast<std::size_t>(NcclAlgorithm::NvlsTree)] = false;
    }
}

namespace {

// How NCCL takes one of its integer channel settings, and where dtcalc keeps it.
struct ChannelSetting {
    std::string_view variable;
    int NcclChannelLimits::*field;
    int low;                 // NCCL raises a smaller value to this (none below)
    bool minus_two_unset;    // -2, the NCCL_PARAM default, means unset (connect.cc)
    bool non_positive_unset; // a value <= 0 is ignored (init.cc, envConfigOverride)
};

// The order is the order they are applied: a legacy NRINGS name first, so the
// NCHANNELS name overrides it as ncclMinNchannels / ncclMaxNchannels do.
constexpr std::array<ChannelSetting, 10> kChannelSettings{{
    {"NCCL_MIN_NRINGS", &NcclChannelLimits::min, 0, true, false},
    {"NCCL_MAX_NRINGS", &NcclChannelLimits::max, 1, true, false},
    {"NCCL_MIN_NCHANNELS", &NcclChannelLimits::min, 0, true, false},
    {"NCCL_MAX_NCHANNELS", &NcclChannelLimits::max, 1, true, false},
    {"NCCL_MIN_CTAS", &NcclChannelLimits::min_ctas, 1, false, true},
    {"NCCL_MAX_CTAS", &NcclChannelLimits::max_ctas, 1, false, true},
    {"NCCL_NVLS_NCHANNELS", &NcclChannelLimits::nvls, 1, false, true},
    {"NCCL_MIN_P2P_NCHANNELS", &NcclChannelLimits::min_p2p, 0, false, false},
    {"NCCL_MAX_P2P_NCHANNELS", &NcclChannelLimits::max_p2p, 1, false, false},
    {"NCCL_NCHANNELS_PER_NET_PEER", &NcclChannelLimits::per_net_peer, 1, false, true},
}};

const ChannelSetting* channel_setting(std::string_view variable) {
    for (const ChannelSetting& s : kChannelSettings)
        if (s.variable == variable) return &s;
    return nullptr;
}

// A whole number, as NCCL's parameters are, within [low, 64] (MAXCHANNELS);
// unset (the field left as it is) where NCCL ignores the value.
void apply_channel_setting(NcclForce& force, const ChannelSetting& s, std::string_view setting,
                           const InputLocation& where) {
    const auto value = parse_finite_number(setting);
    if (!value || *value != std::floor(*value))
        throw InputError(where, std::string(s.variable) + "='" + std::string(setting) +
                                    "': expected a whole number of channels (NCCL's 1 to 64)");
    if ((s.minus_two_unset && *value == -2) || (s.non_positive_unset && *value <= 0)) return;
    force.channels.*s.field = static_cast<int>(std::clamp(*value, static_cast<double>(s.low), 64.0));
}

constexpr std::array<std::string_view, 3> kChoiceSettings{"NCCL_ALGO", "NCCL_PROTO", "NCCL_NVLS_ENABLE"};

}  // namespace

void apply_nccl_max_nchannels(NcclForce& force, std::string_view setting, const InputLocation& where) {
    apply_channel_setting(force, *channel_setting("NCCL_MAX_NCHANNELS"), setting, where);
}

void apply_nccl_min_nchannels(NcclForce& force, std::string_view setting, const InputLocation& where) {
    apply_channel_setting(force, *channel_setting("NCCL_MIN_NCHANNELS"), setting, where);
}

std::span<const std::string_view> nccl_modelled_settings() {
    static const std::array<std::string_view, kChoiceSettings.size() + kChannelSettings.size()> kSettings = [] {
        std::array<std::string_view, kChoiceSettings.size() + kChannelSettings.size()> all{};
        std::size_t i = 0;
        for (std::string_view v : kChoiceSettings) all[i++] = v;
        for (const ChannelSetting& s : kChannelSettings) all[i++] = s.variable;
        return all;
    }();
    return kSettings;
}

bool nccl_setting_modelled(std::string_view variable) {
    const auto all = nccl_modelled_settings();
    return std::find(all.begin(), all.end(), variable) != all.end();
}

std::string nccl_modelled_settings_list() {
    std::string list;
    for (std::string_view v : nccl_modelled_settings()) list += (list.empty() ? "" : ", ") + std::string(v);
    return list;
}

void apply_nccl_setting(NcclForce& force, std::string_view variable, std::string_view value,
                        const InputLocation& where) {
    if (variable == "NCCL_ALGO") return apply_nccl_algo(force, value, where);
    if (variable == "NCCL_PROTO") return apply_nccl_proto(force, value, where);
    if (variable == "NCCL_NVLS_ENABLE") return apply_nccl_nvls_enable(force, value, where);
    if (const ChannelSetting* s = channel_setting(variable)) return apply_channel_setting(force, *s, value, where);
    throw InputError(where, std::string(variable) + ": not a setting dtcalc models (it models " +
                                nccl_modelled_settings_list() + ")");
}

std::string nccl_force_summary(const NcclForce& force, CollectiveKind kind, bool ll128_by_default) {
    std::string algorithms;
    for (int a = 0; a < kNcclTunedAlgorithms; ++a)
        if (force.algorithm_enabled(kind, static_cast<NcclAlgorithm>(a)))
            algorithms += (algorithms.empty() ? "" : ", ") + std::string(nccl_algorithm_name(static_cast<NcclAlgorithm>(a)));
    std::string protocols;
    for (int p = 0; p < kNcclProtocols; ++p)
        if (force.protocol_enabled(kind, static_cast<NcclProtocol>(p), ll128_by_default))
            protocols += (protocols.empty() ? "" : ", ") + std::string(nccl_protocol_name(static_cast<NcclProtocol>(p)));
    return (algorithms.empty() ? "no algorithm" : algorithms) + "; " + (protocols.empty() ? "no protocol" : protocols);
}

}  // namespace dtcalc
