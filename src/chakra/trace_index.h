#pragma once
// Lookups over a TraceSet for building its graph: per shape, its nodes by id
// and its communication nodes in file order; per rank, its shape, that
// shape's lookups, and its file name.
//
// TraceSet::peers[rank] runs parallel to ShapeIndex::comm of the rank's
// shape, as do the per-comm-node tables built from it (comm_peers.h).
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "chakra/trace_set.h"

namespace dtcalc::chakra {

/// Node lookups of one shape.
struct ShapeIndex {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> by_id;  ///< (id, node), sorted
    std::vector<std::uint32_t> comm;                              ///< Send, Recv and Collective nodes in file order

    explicit ShapeIndex(const RankTrace& t);

    /// The node with id `id`, which must be in the shape (the decoder checked
    /// every dependency).
    std::uint32_t node_of(std::uint64_t id) const {
        return std::lower_bound(by_id.begin(), by_id.end(), std::make_pair(id, std::uint32_t{0}))->second;
    }
};

/// A TraceSet (held by reference: it must outlive the index) and the
/// ShapeIndex of each of its shapes.
class TraceIndex {
public:
    explicit TraceIndex(const TraceSet& traces);

    const TraceSet& traces() const { return traces_; }
    const ShapeIndex& shape_index(int shape) const { return shapes_[static_cast<std::size_t>(shape)]; }

    /// The decoded trace of `rank`'s shape.
    const RankTrace& shape_of(int rank) const;
    /// The lookups of `rank`'s shape.
    const ShapeIndex& index_of(int rank) const;
    /// "PREFIX.<rank>.et", for messages.
    std::string file_of(int rank) const;

private:
    const TraceSet& traces_;
    std::vector<ShapeIndex> shapes_;
};

}  // namespace dtcalc::chakra
