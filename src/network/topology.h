#pragma once
// The shape of one network dimension and its hop model (ASTRA-sim's analytical
// backends): FullyConnected 1 hop, Switch 2 (src -> switch -> dst), Ring the
// shorter way round a bidirectional ring.
//
// Mesh2D, Torus2D and Torus3D are grids whose messages share links: one such
// topology entry spans 2, 2 or 3 consecutive network dimensions, one per
// coordinate axis (x first, varying fastest). Along one axis a Mesh2D is a line
// and a torus a ring; routes across axes (dimension-order, x then y then z),
// shared links and their load are src/topology/'s.
#include <optional>
#include <string_view>

namespace dtcalc {

enum class Topology { Ring, Switch, FullyConnected, Mesh2D, Torus2D, Torus3D };

std::optional<Topology> parse_topology(std::string_view name);  ///< "Ring", "Switch", "FullyConnected", "Mesh2D", "Torus2D", "Torus3D"
std::string_view topology_name(Topology topology);

/// Mesh2D, Torus2D or Torus3D: links shared between messages, routed.
bool is_grid_topology(Topology topology);
/// Network dimensions (coordinate axes) one entry of the topology spans: 1, 2 for Mesh2D and Torus2D, 3 for Torus3D.
int topology_axes(Topology topology);

/// Hops between positions `a` and `b` (0-based, distinct) along a dimension
/// of `npus` members. Zero when a == b. Along a grid axis: |a - b| on a mesh,
/// the shorter way round on a torus.
int hops_between(Topology topology, int npus, int a, int b);

/// Hops for a message to the member `distance` places further along a group
/// of `group_size` consecutive members of a dimension of `npus`; the worst
/// case over the group's members (on a Ring a partial group wraps the long way).
int hops_at_distance(Topology topology, int npus, int group_size, int distance);

/// The most hops of any message to a member 1 to `max_distance` places further
/// along such a group: the maximum of hops_at_distance over those distances,
/// in constant time on a Ring (a direct algorithm on a million-NPU ring asks
/// for every distance at once).
int farthest_hops_within(Topology topology, int npus, int group_size, int max_distance);

}  // namespace dtcalc
