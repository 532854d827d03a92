#include "chakra/message_matching.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "chakra/node_error.h"

namespace dtcalc::chakra {

void check_messages_match(const TraceIndex& index, const PeerTable& peers) {
    struct End {
        std::int64_t src, dst, tag;
        std::uint64_t size;
        int rank;            // whose trace
        std::uint32_t node;  // index in that rank's shape
        bool operator<(const End& o) const {
            return std::tie(src, dst, tag, size, rank, node) < std::tie(o.src, o.dst, o.tag, o.size, o.rank, o.node);
        }
        bool same(const End& o) const { return src == o.src && dst == o.dst && tag == o.tag && size == o.size; }
    };
    std::vector<End> sends, recvs;
    for (int r = 0; r < static_cast<int>(index.traces().npus); ++r) {
        const RankTrace& shape = index.shape_of(r);
        const ShapeIndex& shape_index = index.index_of(r);
        const auto& resolved = peers[static_cast<std::size_t>(r)];
        for (std::size_t j = 0; j < shape_index.comm.size(); ++j) {
            const TraceNode& n = shape.nodes[shape_index.comm[j]];
            if (n.kind == NodeKind::Send) sends.push_back({r, resolved[j], n.comm_tag, n.comm_size, r, shape_index.comm[j]});
            if (n.kind == NodeKind::Recv) recvs.push_back({resolved[j], r, n.comm_tag, n.comm_size, r, shape_index.comm[j]});
        }
    }
    std::sort(sends.begin(), sends.end());
    std::sort(recvs.begin(), recvs.end());
    auto unmatched = [&](const End& e, bool send) {
        const TraceNode& n = index.shape_of(e.rank).nodes[e.node];
        const std::string what = send ? "send to rank " + std::to_string(e.dst) : "receive from rank " + std::to_string(e.src);
        fail_node(index.file_of(e.rank), n,
                  what + " (comm_tag " + std::to_string(e.tag) + ", comm_size " + std::to_string(e.size) +
                      ") has no matching " + (send ? "COMM_RECV_NODE in " + index.file_of(static_cast<int>(e.dst))
                                                   : "COMM_SEND_NODE in " + index.file_of(static_cast<int>(e.src))));
    };
    std::size_t s = 0;
    for (const End& r : recvs) {
        while (s < sends.size() && sends[s] < End{r.src, r.dst, r.tag, r.size, -1, 0}) unmatched(sends[s++], true);
        if (s == sends.size() || !sends[s].same(r)) unmatched(r, false);
        ++s;
    }
    if (s < sends.size()) unmatched(sends[s], true);
}

}  // namespace dtcalc::chakra
