#include "chakra/trace_graph.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

#include "chakra/collective_sync.h"
#include "chakra/comm_peers.h"
#include "chakra/comm_time_cache.h"
#include "chakra/hash.h"
#include "chakra/message_matching.h"
#include "chakra/role_partition.h"
#include "chakra/trace_index.h"

namespace dtcalc::chakra {
namespace {

bool is_contracted(NodeKind k) { return k == NodeKind::Invalid || k == NodeKind::Metadata; }

std::uint64_t double_bits(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return bits;
}

// Resolves and checks every rank's peers, finds the roles, then lays out
// each role's representative's nodes as ops.
class Builder {
public:
    Builder(TraceSet&& traces, const CommGroupTable& groups, const TimingModel& model)
        : groups_(groups), model_(model), out_(holding(std::move(traces))), index_(out_.traces),
          times_(index_, groups, model) {}

    TraceGraph run() {
        const long long npus = out_.traces.npus;
        const PeerResolver resolver(out_.traces, groups_);
        peers_.resize(static_cast<std::size_t>(npus));
        timing_.resize(static_cast<std::size_t>(npus));
        for (long long r = 0; r < npus; ++r) resolve_rank(resolver, static_cast<int>(r));
        check_messages_match(index_, peers_);
        RolePartition roles = find_roles(index_, peers_, timing_, groups_);
        role_of_rank_ = std::move(roles.role_of_rank);
        roles_ = roles.roles;
        out_.representative = std::move(roles.representative);
        build_graph();
        return std::move(out_);
    }

private:
    // A graph holding `traces` from the start, for index_ to refer to.
    static TraceGraph holding(TraceSet&& traces) {
        TraceGraph g;
        g.traces = std::move(traces);
        return g;
    }

    // Checks a rank's peers, resolves its groups, and hashes its comm times.
    void resolve_rank(const PeerResolver& resolver, int rank) {
        const RankTrace& shape = index_.shape_of(rank);
        const ShapeIndex& index = index_.index_of(rank);
        const std::vector<PeerFields>& fields = out_.traces.peers[static_cast<std::size_t>(rank)];
        const std::string file = index_.file_of(rank);
        std::vector<std::int32_t>& resolved = peers_[static_cast<std::size_t>(rank)];
        resolved.resize(index.comm.size());
        std::uint64_t h = 0x71;
        for (std::size_t j = 0; j < index.comm.size(); ++j) {
            const TraceNode& n = shape.nodes[index.comm[j]];
            const std::int32_t peer = resolver.peer(file, rank, n, fields[j]);
            resolved[j] = peer;
            h = hash_mix(h, double_bits(times_.time(rank, n, peer)));
        }
        timing_[static_cast<std::size_t>(rank)] = hash_finish(h);
    }

    int message_tag(std::int64_t tag, std::uint64_t size) {
        return tags_.try_emplace({tag, size}, static_cast<int>(tags_.size())).first->second;
    }

    void build_graph() {
        WorkloadGraph& g = out_.graph;
        g.roles = roles_;
        g.role_npus.assign(static_cast<std::size_t>(roles_), 0);
        for (int role : role_of_rank_) ++g.role_npus[static_cast<std::size_t>(role)];
        g.rank_role = role_of_rank_;
        everyone_ = g.add_group(whole_network_group(model_.system->network));
        out_.role_ops.push_back(0);
        out_.invalid_nodes.assign(static_cast<std::size_t>(roles_), 0);
        CollectiveSyncs syncs(index_, groups_, role_of_rank_, out_.representative);
        for (int role = 0; role < roles_; ++role) {
            add_role(role, syncs);
            out_.role_ops.push_back(static_cast<std::uint32_t>(g.ops.size()));
        }
        syncs.check_counterparts();
    }

    // The representative's nodes as ops, in increasing id.
    void add_role(int role, CollectiveSyncs& syncs) {
        WorkloadGraph& g = out_.graph;
        const int rank = out_.representative[static_cast<std::size_t>(role)];
        const int shape_index = out_.traces.shape_of_rank[static_cast<std::size_t>(rank)];
        const RankTrace& shape = out_.traces.shapes[static_cast<std::size_t>(shape_index)];
        const ShapeIndex& index = index_.shape_index(shape_index);
        const auto& resolved = peers_[static_cast<std::size_t>(rank)];
        std::vector<std::int32_t> peer_of(shape.nodes.size(), 0);
        for (std::size_t j = 0; j < index.comm.size(); ++j) peer_of[index.comm[j]] = resolved[j];
        std::vector<int> op_of(shape.nodes.size(), -1);
        int next_op = static_cast<int>(g.ops.size());
        for (const auto& [id, node] : index.by_id)
            if (!is_contracted(shape.nodes[node].kind)) op_of[node] = next_op++;
        syncs.start_role();
        std::unordered_map<std::uint32_t, std::vector<int>> through;  // left-out node -> the ops it stands for
        std::vector<int> deps;
        for (const auto& [id, node_index] : index.by_id) {
            const TraceNode& n = shape.nodes[node_index];
            if (is_contracted(n.kind)) {
                if (n.kind == NodeKind::Invalid) ++out_.invalid_nodes[static_cast<std::size_t>(role)];
                continue;
            }
            deps.clear();
            for (std::uint32_t k = n.dep_begin; k < n.dep_begin + n.dep_count; ++k)
                add_dependency(shape, index, op_of, through, index.node_of(shape.deps[k]), deps);
            std::sort(deps.begin(), deps.end());
            deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
            TraceOp info;
            info.shape = shape_index;
            info.node = node_index;
            Op op = make_op(role, rank, n, peer_of[node_index], info, syncs);
            op.name = g.intern_name(n.name_size > 0 ? std::string(shape.node_name(n)) : "node " + std::to_string(n.id));
            g.add(op, deps);
            out_.ops.push_back(info);
        }
    }

    Op make_op(int role, int rank, const TraceNode& n, std::int32_t peer, TraceOp& info, CollectiveSyncs& syncs) {
        Op op;
        op.role = role;
        info.op_class = OpClass::Comm;
        switch (n.kind) {
            case NodeKind::Comp:
                op.kind = OpKind::Compute;
                op.host = n.is_cpu_op;
                info.compute = comp_time(model_, n);
                info.op_class = n.is_cpu_op ? OpClass::Cpu : OpClass::Gpu;
                op.duration_ns = info.compute.ns;
                op.flops = static_cast<double>(n.num_ops);
                op.bytes = static_cast<double>(n.tensor_size);
                break;
            case NodeKind::MemLoad:
            case NodeKind::MemStore:
                op.kind = OpKind::Memory;
                info.op_class = OpClass::RemoteMemory;
                op.bytes = static_cast<double>(n.tensor_size);
                op.duration_ns = n.exact_duration_ns >= 0 ? n.exact_duration_ns : memory_time(model_, n.tensor_size);
                break;
            case NodeKind::Send:
            case NodeKind::Recv:
                op.kind = n.kind == NodeKind::Send ? OpKind::Send : OpKind::Recv;
                op.peer_role = role_of_rank_[static_cast<std::size_t>(peer)];
                op.tag = message_tag(n.comm_tag, n.comm_size);
                op.comm_bytes = n.comm_size;
                op.group = everyone_;
                op.duration_ns = times_.time(rank, n, peer);
                break;
            case NodeKind::Collective: {
                op.kind = OpKind::Collective;
                op.group = everyone_;
                op.collective = collective_kind(static_cast<CommType>(n.comm_type));
                const std::uint64_t members = peer == kAllNpus
                                                  ? static_cast<std::uint64_t>(out_.traces.npus)
                                                  : groups_.groups[static_cast<std::size_t>(peer)].second.size();
                op.comm_bytes =
                    n.comm_type == static_cast<int>(CommType::AllGather) ? n.comm_size * members : n.comm_size;
                op.duration_ns = times_.time(rank, n, peer);
                op.sync = syncs.sync_for(role, rank, peer, info.node);
                break;
            }
            default: break;
        }
        return op;
    }

    void add_dependency(const RankTrace& shape, const ShapeIndex& index, const std::vector<int>& op_of,
                        std::unordered_map<std::uint32_t, std::vector<int>>& through, std::uint32_t parent,
                        std::vector<int>& deps) {
        if (op_of[parent] >= 0) {
            deps.push_back(op_of[parent]);
            return;
        }
        auto found = through.find(parent);
        if (found == through.end()) {
            std::vector<int> list;
            const TraceNode& p = shape.nodes[parent];
            for (std::uint32_t k = p.dep_begin; k < p.dep_begin + p.dep_count; ++k)
                add_dependency(shape, index, op_of, through, index.node_of(shape.deps[k]), list);
            std::sort(list.begin(), list.end());
            list.erase(std::unique(list.begin(), list.end()), list.end());
            found = through.emplace(parent, std::move(list)).first;
        }
        deps.insert(deps.end(), found->second.begin(), found->second.end());
    }

    static CollectiveKind collective_kind(CommType type) {
        switch (type) {
            case CommType::AllGather: return CollectiveKind::AllGather;
            case CommType::ReduceScatter: return CollectiveKind::ReduceScatter;
            case CommType::AllToAll: return CollectiveKind::AllToAll;
            default: return CollectiveKind::AllReduce;
        }
    }

    const CommGroupTable& groups_;
    const TimingModel& model_;
    TraceGraph out_;
    TraceIndex index_;  // over out_.traces
    CommTimeCache times_;
    PeerTable peers_;                    // per rank, per comm node: peer rank or group index
    std::vector<std::uint64_t> timing_;  // per rank: hash of its comm times
    std::vector<int> role_of_rank_;
    int roles_ = 0;
    std::map<std::pair<std::int64_t, std::uint64_t>, int> tags_;
    int everyone_ = 0;  // the whole-network group of the graph
};

}  // namespace

TraceGraph build_trace_graph(TraceSet traces, const CommGroupTable& groups, const TimingModel& model) {
    return Builder(std::move(traces), groups, model).run();
}

}  // namespace dtcalc::chakra
