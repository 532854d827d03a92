#pragma once
// The collectives dtcalc prices, their names, and nccl-tests' bus-bandwidth factors.
#include <optional>
#include <string_view>

namespace dtcalc {

enum class CollectiveKind { AllReduce, ReduceScatter, AllGather, AllToAll, SendRecv };

inline constexpr int kGroupCollectiveKinds = 4;  ///< all but SendRecv; index = enum value

/// Accepts "all-reduce", "all_reduce", "allreduce", "ALLREDUCE" (and likewise).
std::optional<CollectiveKind> parse_collective_kind(std::string_view name);
std::string_view collective_kind_name(CollectiveKind kind);  ///< "all-reduce", ...

/// nccl-tests' busbw / algbw: 2(n-1)/n all-reduce; (n-1)/n reduce-scatter,
/// all-gather and all-to-all; 1 send/recv.
double bus_bandwidth_factor(CollectiveKind kind, long long npus);

}  // namespace dtcalc
