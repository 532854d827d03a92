#include "chakra/trace_index.h"

#include <algorithm>

namespace dtcalc::chakra {
namespace {

bool is_comm(NodeKind k) { return k == NodeKind::Send || k == NodeKind::Recv || k == NodeKind::Collective; }

}  // namespace

ShapeIndex::ShapeIndex(const RankTrace& t) {
    by_id.reserve(t.nodes.size());
    for (std::uint32_t i = 0; i < t.nodes.size(); ++i) {
        by_id.emplace_back(t.nodes[i].id, i);
        if (is_comm(t.nodes[i].kind)) comm.push_back(i);
    }
    std::sort(by_id.begin(), by_id.end());
}

TraceIndex::TraceIndex(const TraceSet& traces) : traces_(traces) {
    for (const RankTrace& t : traces_.shapes) shapes_.emplace_back(t);
}

const RankTrace& TraceIndex::shape_of(int rank) const {
    return traces_.shapes[static_cast<std::size_t>(traces_.shape_of_rank[static_cast<std::size_t>(rank)])];
}

const ShapeIndex& TraceIndex::index_of(int rank) const {
    return shapes_[static_cast<std::size_t>(traces_.shape_of_rank[static_cast<std::size_t>(rank)])];
}

std::string TraceIndex::file_of(int rank) const { return rank_file(traces_.prefix, rank); }

}  // namespace dtcalc::chakra
