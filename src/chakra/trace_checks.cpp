#include "chakra/trace_checks.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "chakra/node_error.h"

namespace dtcalc::chakra {

void check_required_attributes(const std::string& file, const TraceNode& n) {
    const bool comm = n.kind == NodeKind::Send || n.kind == NodeKind::Recv || n.kind == NodeKind::Collective;
    if (comm && n.is_cpu_op) fail_node(file, n.id, "a communication node cannot be a CPU op (is_cpu_op is set)");
    if (comm && !n.has_comm_size && n.comm_type != static_cast<std::int32_t>(CommType::Broadcast))
        fail_node(file, n.id, std::string(node_kind_name(n.kind)) + " needs attribute comm_size");
    if (n.kind == NodeKind::Collective && n.comm_type < 0)
        fail_node(file, n.id, "COMM_COLL_NODE needs attribute comm_type");
    if (n.kind == NodeKind::Send && n.comm_dst < 0) fail_node(file, n.id, "COMM_SEND_NODE needs attribute comm_dst");
    if (n.kind == NodeKind::Recv && n.comm_src < 0) fail_node(file, n.id, "COMM_RECV_NODE needs attribute comm_src");
}

void check_dependencies(const RankTrace& trace) {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> ids;
    ids.reserve(trace.nodes.size());
    for (std::uint32_t i = 0; i < trace.nodes.size(); ++i) ids.emplace_back(trace.nodes[i].id, i);
    std::sort(ids.begin(), ids.end());
    for (std::size_t i = 1; i < ids.size(); ++i)
        if (ids[i].first == ids[i - 1].first)
            fail_node(trace.file, ids[i].first, "the id appears twice in the file (node ids must be unique)");
    for (const TraceNode& n : trace.nodes) {
        for (std::uint32_t k = n.dep_begin; k < n.dep_begin + n.dep_count; ++k) {
            const std::uint64_t parent = trace.deps[k];
            if (parent == n.id) fail_node(trace.file, n.id, "depends on itself");
            const auto it = std::lower_bound(ids.begin(), ids.end(), std::make_pair(parent, std::uint32_t{0}));
            if (it == ids.end() || it->first != parent)
                fail_node(trace.file, n.id, "depends on node " + std::to_string(parent) + ", which is not in the file");
        }
    }
}

}  // namespace dtcalc::chakra
