#include "core/collective_kind.h"

#include <string>

#include "core/name_key.h"

namespace dtcalc {

std::optional<CollectiveKind> parse_collective_kind(std::string_view name) {
    const std::string key = name_key(name);
    if (key == "allreduce") return CollectiveKind::AllReduce;
    if (key == "reducescatter") return CollectiveKind::ReduceScatter;
    if (key == "allgather") return CollectiveKind::AllGather;
    if (key == "alltoall") return CollectiveKind::AllToAll;
    if (key == "sendrecv" || key == "send" || key == "p2p") return CollectiveKind::SendRecv;
    return std::nullopt;
}

std::string_view collective_kind_name(CollectiveKind kind) {
    switch (kind) {
        case CollectiveKind::AllReduce: return "all-reduce";
        case CollectiveKind::ReduceScatter: return "reduce-scatter";
        case CollectiveKind::AllGather: return "all-gather";
        case CollectiveKind::AllToAll: return "all-to-all";
        case CollectiveKind::SendRecv: return "send-recv";
    }
    return "?";
}

}  // namespace dtcalc
