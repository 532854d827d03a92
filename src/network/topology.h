#pragma once
// The shape of one network dimension and its hop model (ASTRA-sim's analytical
// backends): FullyConnected 1 hop, Switch 2 (src -> switch -> dst), Ring the
// shorter way round a bidirectional ring.
#include <optional>
#include <string_view>

namespace dtcalc {

enum class Topology { Ring, Switch, FullyConnected };

std::optional<Topology> parse_topology(std::string_view name);  ///< "Ring", "Switch", "FullyConnected"
std::string_view topology_name(Topology topology);

/// Hops between positions `a` and `b` (0-based, distinct) along a dimension
/// of `npus` members. Zero when a == b.
int hops_between(Topology topology, int npus, int a, int b);

/// Hops for a message to the member `distance` places further along a group
/// of `group_size` consecutive members of a dimension of `npus`; the worst
/// case over the group's members (on a Ring a partial group wraps the long way).
int hops_at_distance(Topology topology, int npus, int group_size, int distance);

}  // namespace dtcalc
