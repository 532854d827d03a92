#include "validate/nccl_debug_lines.h"

#include "collective/nccl/nccl_parameters.h"
#include "core/number_text.h"
#include "validate/log_tokens.h"

namespace dtcalc {
namespace {

constexpr std::string_view kInfo = "NCCL INFO ";

// NCCL's algorithm and protocol names (ncclAlgoToString, ncclProtoToString:
// RING, NVLS_TREE, ...; LL, LL128, SIMPLE) in dtcalc's spelling; empty for a
// name neither knows. CollNet, which dtcalc does not model, keeps its name.
std::string dtcalc_choice(std::string_view algo, std::string_view proto) {
    const auto p = parse_nccl_protocol(proto);
    if (!p) return "";
    if (const auto a = parse_nccl_algorithm(algo)) return std::string(nccl_choice_name(*a, *p));
    if (algo == "COLLNET_DIRECT") return "collnet-direct/" + std::string(nccl_protocol_name(*p));
    if (algo == "COLLNET_CHAIN") return "collnet-chain/" + std::string(nccl_protocol_name(*p));
    return "";
}

}  // namespace

std::optional<NcclEnvLine> nccl_env_line(std::string_view line) {
    static constexpr std::string_view kSet = " set by environment to ";
    const std::size_t info = line.find(kInfo);
    if (info == std::string_view::npos) return std::nullopt;
    const std::string_view rest = line.substr(info + kInfo.size());
    const std::size_t set = rest.find(kSet);
    if (set == std::string_view::npos) return std::nullopt;
    const std::string_view variable = rest.substr(0, set);
    if (!variable.starts_with("NCCL_") || variable.find_first_of(" \t") != std::string_view::npos) return std::nullopt;
    std::string_view value = trim_blanks(rest.substr(set + kSet.size()));
    // NCCL's integer parameters end the line with a period (src/misc/param.cc);
    // NCCL_ALGO and NCCL_PROTO print their text as set.
    if (variable != "NCCL_ALGO" && variable != "NCCL_PROTO" && value.ends_with(".")) value.remove_suffix(1);
    return NcclEnvLine{std::string(variable), std::string(value)};
}

bool nccl_setting_changes_nothing_timed(std::string_view variable) {
    // What NCCL logs, where it finds its peers and writes its files, and how
    // long it waits on a failed link: nothing a healthy run's times depend on.
    return variable.starts_with("NCCL_DEBUG") || variable.ends_with("_FILE") || variable == "NCCL_COMM_ID" ||
           variable.starts_with("NCCL_SOCKET_") || variable == "NCCL_IB_TIMEOUT" || variable == "NCCL_IB_RETRY_CNT" ||
           variable == "NCCL_IB_GID_INDEX";
}

std::optional<NcclTuningLine> nccl_tuning_line(std::string_view line) {
    static constexpr std::string_view kRange = "channel{Lo..Hi}={";
    const std::size_t info = line.find(kInfo);
    if (info == std::string_view::npos) return std::nullopt;
    const auto t = split_blanks(line.substr(info + kInfo.size()));
    // AllReduce: 1048576 Bytes -> Algo TREE proto LL128 channel{Lo..Hi}={0..15}
    if (t.size() < 9 || !t[0].ends_with(":") || t[2] != "Bytes" || t[3] != "->" || t[4] != "Algo" || t[6] != "proto" ||
        !t[8].starts_with(kRange))
        return std::nullopt;
    const auto bytes = whole_number(t[1]);
    const std::string choice = dtcalc_choice(t[5], t[7]);
    const std::string_view range = t[8].substr(kRange.size());
    const std::size_t dots = range.find("..");
    if (!bytes || *bytes < 0 || choice.empty() || dots == std::string_view::npos || !range.ends_with("}"))
        return std::nullopt;
    const auto lo = whole_number(range.substr(0, dots));
    const auto hi = whole_number(range.substr(dots + 2, range.size() - dots - 3));
    constexpr long long kMaxChannels = 4096;  // far above NCCL's MAXCHANNELS (64)
    if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > kMaxChannels) return std::nullopt;
    return NcclTuningLine{std::string(t[0].substr(0, t[0].size() - 1)), static_cast<std::uint64_t>(*bytes), choice,
                          static_cast<int>(*hi - *lo + 1)};
}

}  // namespace dtcalc
