#pragma once
// The collectives dtcalc prices and their names: the vocabulary the system's
// per-collective knobs, the workloads and the collective engine share.
#include <optional>
#include <string_view>

namespace dtcalc {

enum class CollectiveKind { AllReduce, ReduceScatter, AllGather, AllToAll, SendRecv };

inline constexpr int kGroupCollectiveKinds = 4;  ///< all but SendRecv; index = enum value

/// Accepts "all-reduce", "all_reduce", "allreduce", "ALLREDUCE" (and likewise).
std::optional<CollectiveKind> parse_collective_kind(std::string_view name);
std::string_view collective_kind_name(CollectiveKind kind);  ///< "all-reduce", ...

}  // namespace dtcalc
