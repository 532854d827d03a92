#include "chakra/role_partition.h"

#include <algorithm>
#include <map>
#include <utility>

#include "chakra/hash.h"

namespace dtcalc::chakra {
namespace {

// The sorted classes of `ranks`, hashed.
std::uint64_t members_signature(const std::vector<int>& ranks, const std::vector<int>& cls) {
    std::vector<int> c;
    c.reserve(ranks.size());
    for (int r : ranks) c.push_back(cls[static_cast<std::size_t>(r)]);
    std::sort(c.begin(), c.end());
    std::uint64_t h = 0x9;
    for (int v : c) h = hash_mix(h, static_cast<std::uint64_t>(v));
    return hash_finish(h);
}

}  // namespace

RolePartition find_roles(const TraceIndex& index, const PeerTable& peers, const std::vector<std::uint64_t>& timing,
                         const CommGroupTable& groups) {
    const TraceSet& traces = index.traces();
    const std::size_t npus = static_cast<std::size_t>(traces.npus);
    std::vector<int> cls(npus);
    {
        std::map<std::pair<int, std::uint64_t>, int> first;
        for (std::size_t r = 0; r < npus; ++r)
            cls[r] = first.try_emplace({traces.shape_of_rank[r], timing[r]}, static_cast<int>(first.size()))
                         .first->second;
    }
    int count = *std::max_element(cls.begin(), cls.end()) + 1;
    for (;;) {
        std::vector<std::uint64_t> group_sig(groups.groups.size());
        for (std::size_t g = 0; g < groups.groups.size(); ++g) group_sig[g] = members_signature(groups.groups[g].second, cls);
        std::vector<int> everyone(npus);
        for (std::size_t r = 0; r < npus; ++r) everyone[r] = static_cast<int>(r);
        const std::uint64_t all_sig = members_signature(everyone, cls);
        std::map<std::pair<std::uint64_t, std::uint64_t>, int> next_id;
        std::vector<int> next(npus);
        for (std::size_t r = 0; r < npus; ++r) {
            const RankTrace& shape = index.shape_of(static_cast<int>(r));
            const ShapeIndex& shape_index = index.index_of(static_cast<int>(r));
            const auto& resolved = peers[r];
            std::uint64_t a = hash_mix(0xa, static_cast<std::uint64_t>(cls[r]));
            std::uint64_t b = hash_mix(0xb, static_cast<std::uint64_t>(cls[r]) * 31 + 7);
            for (std::size_t j = 0; j < shape_index.comm.size(); ++j) {
                const TraceNode& n = shape.nodes[shape_index.comm[j]];
                std::uint64_t v = 0;
                if (n.kind == NodeKind::Collective)
                    v = resolved[j] == kAllNpus ? all_sig : group_sig[static_cast<std::size_t>(resolved[j])];
                else
                    v = static_cast<std::uint64_t>(cls[static_cast<std::size_t>(resolved[j])]);
                a = hash_mix(a, v);
                b = hash_mix(b ^ 0x5555, v + j);
            }
            next[r] = next_id.try_emplace({hash_finish(a), hash_finish(b)}, static_cast<int>(next_id.size())).first->second;
        }
        const int next_count = static_cast<int>(next_id.size());
        cls = std::move(next);
        if (next_count == count) break;
        count = next_count;
    }
    RolePartition out;
    out.role_of_rank = std::move(cls);
    out.roles = count;
    out.representative.assign(static_cast<std::size_t>(out.roles), -1);
    for (std::size_t r = 0; r < npus; ++r)
        if (out.representative[static_cast<std::size_t>(out.role_of_rank[r])] < 0)
            out.representative[static_cast<std::size_t>(out.role_of_rank[r])] = static_cast<int>(r);
    return out;
}

}  // namespace dtcalc::chakra
