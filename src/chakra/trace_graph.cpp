#include "chakra/trace_graph.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>
#include <unordered_map>

#include "chakra/hash.h"
#include "core/error.h"

namespace dtcalc::chakra {
namespace {

constexpr std::int32_t kAllNpus = -1;  // a collective's group: every NPU
constexpr std::int32_t kUnknown = -2;  // a pg_name the comm-group file does not define

bool is_comm(NodeKind k) { return k == NodeKind::Send || k == NodeKind::Recv || k == NodeKind::Collective; }
bool is_contracted(NodeKind k) { return k == NodeKind::Invalid || k == NodeKind::Metadata; }

[[noreturn]] void fail_node(const std::string& file, const TraceNode& n, const std::string& message) {
    throw InputError({file, 0, 0, "node " + std::to_string(n.id)}, message);
}

std::uint64_t double_bits(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return bits;
}

// Node lookups of one shape.
struct ShapeIndex {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> by_id;  // (id, node), sorted
    std::vector<std::uint32_t> comm;                              // comm nodes in file order

    explicit ShapeIndex(const RankTrace& t) {
        by_id.reserve(t.nodes.size());
        for (std::uint32_t i = 0; i < t.nodes.size(); ++i) {
            by_id.emplace_back(t.nodes[i].id, i);
            if (is_comm(t.nodes[i].kind)) comm.push_back(i);
        }
        std::sort(by_id.begin(), by_id.end());
    }
    std::uint32_t node_of(std::uint64_t id) const {
        return std::lower_bound(by_id.begin(), by_id.end(), std::make_pair(id, std::uint32_t{0}))->second;
    }
};

// Everything the builder works out, rank by rank, before it knows the roles.
class Builder {
public:
    Builder(TraceSet&& traces, const CommGroupTable& groups, const TimingModel& model)
        : groups_(groups), model_(model) {
        out_.traces = std::move(traces);
        for (const RankTrace& t : out_.traces.shapes) shapes_.emplace_back(t);
    }

    TraceGraph run() {
        const long long npus = out_.traces.npus;
        resolve_pg_names();
        peers_.resize(static_cast<std::size_t>(npus));
        timing_.resize(static_cast<std::size_t>(npus));
        for (long long r = 0; r < npus; ++r) resolve_rank(static_cast<int>(r));
        match_messages();
        find_roles();
        build_graph();
        return std::move(out_);
    }

private:
    const RankTrace& shape_of(int rank) const {
        return out_.traces.shapes[static_cast<std::size_t>(out_.traces.shape_of_rank[static_cast<std::size_t>(rank)])];
    }
    const ShapeIndex& index_of(int rank) const {
        return shapes_[static_cast<std::size_t>(out_.traces.shape_of_rank[static_cast<std::size_t>(rank)])];
    }
    std::string file_of(int rank) const { return rank_file(out_.traces.prefix, rank); }

    std::string group_text(std::int32_t g) const {
        if (g == kAllNpus) return "all NPUs";
        const auto& [id, ranks] = groups_.groups[static_cast<std::size_t>(g)];
        std::string s = "pg " + id + " [";
        for (std::size_t i = 0; i < ranks.size() && i < 16; ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
        return s + (ranks.size() > 16 ? ", ...]" : "]");
    }

    // The time of comm node `n` of `rank` whose peer (or group) is `peer`.
    double comm_time(int rank, const TraceNode& n, std::int32_t peer) {
        if (n.exact_duration_ns >= 0 && n.kind != NodeKind::Recv) return n.exact_duration_ns;
        const std::string& file = file_of(rank);
        switch (n.kind) {
            case NodeKind::Send: {
                const auto key = std::make_tuple(static_cast<std::int64_t>(rank), static_cast<std::int64_t>(peer), n.comm_size);
                auto found = send_cache_.find(key);
                if (found == send_cache_.end())
                    found = send_cache_.emplace(key, send_time(model_, rank, peer, n.comm_size)).first;
                return found->second;
            }
            case NodeKind::Recv: return 0;
            case NodeKind::Collective: {
                const auto type = static_cast<CommType>(n.comm_type);
                if (!timed_collective(type))
                    fail_node(file, n, "collective type " + std::string(comm_type_name(type)) +
                                           " is not supported (ASTRA-sim's system layer runs ALL_REDUCE, "
                                           "REDUCE_SCATTER, ALL_GATHER, ALL_TO_ALL and BROADCAST only)");
                if (type == CommType::Broadcast) return replay_time(n);
                if (peer == kAllNpus) {
                    const auto key = std::make_pair(n.comm_type, n.comm_size);
                    auto found = all_cache_.find(key);
                    if (found == all_cache_.end()) {
                        double ns = 0;
                        try {
                            ns = collective_time_all(model_, type, n.comm_size);
                        } catch (const InputError& e) {  // keep a system file's location: it is what to fix
                            fail_node(file, n, e.where().file.empty() ? e.detail() : std::string(e.what()));
                        }
                        found = all_cache_.emplace(key, ns).first;
                    }
                    return found->second;
                }
                const std::vector<int>& ranks = groups_.groups[static_cast<std::size_t>(peer)].second;
                const int position =
                    static_cast<int>(std::find(ranks.begin(), ranks.end(), rank) - ranks.begin());
                const auto key = std::make_tuple(n.comm_type, n.comm_size, peer, position);
                auto found = group_cache_.find(key);
                if (found == group_cache_.end())
                    found = group_cache_.emplace(key, collective_time_group(model_, type, n.comm_size, ranks, position)).first;
                return found->second;
            }
            default: return 0;
        }
    }

    // Checks a rank's peers, resolves its groups, and hashes its comm times.
    void resolve_rank(int rank) {
        const RankTrace& shape = shape_of(rank);
        const ShapeIndex& index = index_of(rank);
        const std::vector<PeerFields>& fields = out_.traces.peers[static_cast<std::size_t>(rank)];
        const std::string file = file_of(rank);
        const long long npus = out_.traces.npus;
        std::vector<std::int32_t>& resolved = peers_[static_cast<std::size_t>(rank)];
        resolved.resize(index.comm.size());
        std::uint64_t h = 0x71;
        for (std::size_t j = 0; j < index.comm.size(); ++j) {
            const TraceNode& n = shape.nodes[index.comm[j]];
            const PeerFields& p = fields[j];
            std::int32_t peer = 0;
            if (n.kind == NodeKind::Send || n.kind == NodeKind::Recv) {
                const bool send = n.kind == NodeKind::Send;
                const std::int64_t self = send ? p.src : p.dst;
                const std::int64_t other = send ? p.dst : p.src;
                const char* self_key = send ? "comm_src" : "comm_dst";
                const char* other_key = send ? "comm_dst" : "comm_src";
                if (self >= 0 && self != rank)
                    fail_node(file, n, std::string(node_kind_name(n.kind)) + " has " + self_key + " " +
                                           std::to_string(self) + ", but this is rank " + std::to_string(rank) +
                                           "'s trace (a node runs on the NPU whose trace holds it)");
                if (other >= npus)
                    fail_node(file, n, std::string(other_key) + " " + std::to_string(other) + " is not an NPU (the network has " +
                                           std::to_string(npus) + ")");
                peer = static_cast<std::int32_t>(other);
            } else {
                if (n.partial_involved_dim)
                    fail_node(file, n, "an involved_dim list that leaves dimensions out is not modelled");
                const std::int32_t group = p.pg >= 0 ? pg_group_[static_cast<std::size_t>(p.pg)] : kAllNpus;
                if (group == kUnknown)
                    fail_node(file, n, "pg_name '" + out_.traces.pg_names[static_cast<std::size_t>(p.pg)] +
                                           "' is not a communicator in " + groups_.file);
                peer = kAllNpus;
                if (group >= 0) {
                    const std::vector<int>& ranks = groups_.groups[static_cast<std::size_t>(group)].second;
                    if (std::find(ranks.begin(), ranks.end(), rank) == ranks.end())
                        fail_node(file, n, "pg_name '" + groups_.groups[static_cast<std::size_t>(group)].first + "' (" +
                                               groups_.file + ") does not include rank " + std::to_string(rank));
                    if (static_cast<long long>(ranks.size()) != npus) peer = group;
                }
            }
            resolved[j] = peer;
            h = hash_mix(h, double_bits(comm_time(rank, n, peer)));
        }
        timing_[static_cast<std::size_t>(rank)] = hash_finish(h);
    }

    // Each pg name of the traces: its group index, kAllNpus, or kUnknown.
    void resolve_pg_names() {
        for (const std::string& name : out_.traces.pg_names) {
            const auto found = groups_.find(name);
            if (!found) {
                pg_group_.push_back(kUnknown);
            } else if (*found == nullptr) {
                pg_group_.push_back(kAllNpus);
            } else {
                const auto at = std::find_if(groups_.groups.begin(), groups_.groups.end(),
                                             [&](const auto& g) { return g.first == name; });
                pg_group_.push_back(static_cast<std::int32_t>(at - groups_.groups.begin()));
            }
        }
    }

    // Every send meets a receive on its peer with the same tag and size.
    void match_messages() {
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
        for (int r = 0; r < static_cast<int>(out_.traces.npus); ++r) {
            const RankTrace& shape = shape_of(r);
            const ShapeIndex& index = index_of(r);
            const auto& resolved = peers_[static_cast<std::size_t>(r)];
            for (std::size_t j = 0; j < index.comm.size(); ++j) {
                const TraceNode& n = shape.nodes[index.comm[j]];
                if (n.kind == NodeKind::Send) sends.push_back({r, resolved[j], n.comm_tag, n.comm_size, r, index.comm[j]});
                if (n.kind == NodeKind::Recv) recvs.push_back({resolved[j], r, n.comm_tag, n.comm_size, r, index.comm[j]});
            }
        }
        std::sort(sends.begin(), sends.end());
        std::sort(recvs.begin(), recvs.end());
        auto unmatched = [&](const End& e, bool send) {
            const TraceNode& n = shape_of(e.rank).nodes[e.node];
            const std::string what = send ? "send to rank " + std::to_string(e.dst) : "receive from rank " + std::to_string(e.src);
            fail_node(file_of(e.rank), n,
                      what + " (comm_tag " + std::to_string(e.tag) + ", comm_size " + std::to_string(e.size) +
                          ") has no matching " + (send ? "COMM_RECV_NODE in " + file_of(static_cast<int>(e.dst))
                                                       : "COMM_SEND_NODE in " + file_of(static_cast<int>(e.src))));
        };
        std::size_t s = 0;
        for (const End& r : recvs) {
            while (s < sends.size() && sends[s] < End{r.src, r.dst, r.tag, r.size, -1, 0}) unmatched(sends[s++], true);
            if (s == sends.size() || !sends[s].same(r)) unmatched(r, false);
            ++s;
        }
        if (s < sends.size()) unmatched(sends[s], true);
    }

    // Partition refinement: classes split by their peers' classes until stable.
    void find_roles() {
        const std::size_t npus = static_cast<std::size_t>(out_.traces.npus);
        std::vector<int> cls(npus);
        {
            std::map<std::pair<int, std::uint64_t>, int> first;
            for (std::size_t r = 0; r < npus; ++r)
                cls[r] = first.try_emplace({out_.traces.shape_of_rank[r], timing_[r]}, static_cast<int>(first.size()))
                             .first->second;
        }
        int count = *std::max_element(cls.begin(), cls.end()) + 1;
        for (;;) {
            std::vector<std::uint64_t> group_sig(groups_.groups.size());
            for (std::size_t g = 0; g < groups_.groups.size(); ++g) group_sig[g] = members_signature(groups_.groups[g].second, cls);
            std::vector<int> everyone(npus);
            for (std::size_t r = 0; r < npus; ++r) everyone[r] = static_cast<int>(r);
            const std::uint64_t all_sig = members_signature(everyone, cls);
            std::map<std::pair<std::uint64_t, std::uint64_t>, int> next_id;
            std::vector<int> next(npus);
            for (std::size_t r = 0; r < npus; ++r) {
                const RankTrace& shape = shape_of(static_cast<int>(r));
                const ShapeIndex& index = index_of(static_cast<int>(r));
                const auto& resolved = peers_[r];
                std::uint64_t a = hash_mix(0xa, static_cast<std::uint64_t>(cls[r]));
                std::uint64_t b = hash_mix(0xb, static_cast<std::uint64_t>(cls[r]) * 31 + 7);
                for (std::size_t j = 0; j < index.comm.size(); ++j) {
                    const TraceNode& n = shape.nodes[index.comm[j]];
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
        role_of_rank_ = std::move(cls);
        roles_ = count;
        out_.representative.assign(static_cast<std::size_t>(roles_), -1);
        for (std::size_t r = 0; r < npus; ++r)
            if (out_.representative[static_cast<std::size_t>(role_of_rank_[r])] < 0)
                out_.representative[static_cast<std::size_t>(role_of_rank_[r])] = static_cast<int>(r);
    }

    static std::uint64_t members_signature(const std::vector<int>& ranks, const std::vector<int>& cls) {
        std::vector<int> c;
        c.reserve(ranks.size());
        for (int r : ranks) c.push_back(cls[static_cast<std::size_t>(r)]);
        std::sort(c.begin(), c.end());
        std::uint64_t h = 0x9;
        for (int v : c) h = hash_mix(h, static_cast<std::uint64_t>(v));
        return hash_finish(h);
    }

    std::vector<int> member_roles(std::int32_t group) const {
        std::vector<int> roles;
        if (group == kAllNpus) {
            roles = role_of_rank_;
        } else {
            for (int r : groups_.groups[static_cast<std::size_t>(group)].second)
                roles.push_back(role_of_rank_[static_cast<std::size_t>(r)]);
        }
        std::sort(roles.begin(), roles.end());
        return roles;
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
        everyone_ = g.add_group(whole_network_group(*model_.network));
        out_.role_ops.push_back(0);
        out_.invalid_nodes.assign(static_cast<std::size_t>(roles_), 0);
        for (int role = 0; role < roles_; ++role) {
            add_role(role);
            out_.role_ops.push_back(static_cast<std::uint32_t>(g.ops.size()));
        }
        check_sync_counterparts();
    }

    // The representative's nodes as ops, in increasing id.
    void add_role(int role) {
        WorkloadGraph& g = out_.graph;
        const int rank = out_.representative[static_cast<std::size_t>(role)];
        const int shape_index = out_.traces.shape_of_rank[static_cast<std::size_t>(rank)];
        const RankTrace& shape = out_.traces.shapes[static_cast<std::size_t>(shape_index)];
        const ShapeIndex& index = shapes_[static_cast<std::size_t>(shape_index)];
        const auto& resolved = peers_[static_cast<std::size_t>(rank)];
        std::vector<std::int32_t> peer_of(shape.nodes.size(), 0);
        for (std::size_t j = 0; j < index.comm.size(); ++j) peer_of[index.comm[j]] = resolved[j];
        std::vector<int> op_of(shape.nodes.size(), -1);
        int next_op = static_cast<int>(g.ops.size());
        for (const auto& [id, node] : index.by_id)
            if (!is_contracted(shape.nodes[node].kind)) op_of[node] = next_op++;
        occurrences_.clear();
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
            Op op = make_op(role, rank, n, peer_of[node_index], info);
            op.name = g.intern_name(n.name_size > 0 ? std::string(shape.node_name(n)) : "node " + std::to_string(n.id));
            g.add(op, deps);
            out_.ops.push_back(info);
        }
    }

    Op make_op(int role, int rank, const TraceNode& n, std::int32_t peer, TraceOp& info) {
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
                op.duration_ns = comm_time(rank, n, peer);
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
                op.duration_ns = comm_time(rank, n, peer);
                op.sync = sync_for(role, rank, peer, info.node);
                break;
            }
            default: break;
        }
        return op;
    }

    // A collective whose group holds other roles: the k-th over groups of
    // this make-up in every role of it. -1 when the group is all this role.
    int sync_for(int role, int rank, std::int32_t group, std::uint32_t node) {
        std::vector<int> make_up = member_roles(group);
        if (std::all_of(make_up.begin(), make_up.end(), [&](int r) { return r == role; })) return -1;
        const int m = make_up_ids_.try_emplace(make_up, static_cast<int>(make_up_ids_.size())).first->second;
        const int k = occurrences_[m]++;
        auto [it, added] = sync_ids_.try_emplace({m, k}, static_cast<int>(syncs_.size()));
        if (added) {
            make_up.erase(std::unique(make_up.begin(), make_up.end()), make_up.end());
            syncs_.push_back({std::move(make_up), {}, rank, node});
        }
        syncs_[static_cast<std::size_t>(it->second)].roles.push_back(role);
        return it->second;
    }

    void check_sync_counterparts() const {
        for (const Sync& s : syncs_) {
            if (s.roles == s.make_up) continue;
            int missing = -1;
            for (int r : s.make_up)
                if (std::find(s.roles.begin(), s.roles.end(), r) == s.roles.end()) missing = r;
            const int other = missing >= 0 ? out_.representative[static_cast<std::size_t>(missing)] : s.rank;
            fail_node(file_of(s.rank), shape_of(s.rank).nodes[s.node],
                      "this collective has no counterpart in " + file_of(other) +
                          " (the NPUs of a communicator must issue the same collectives on it, in the same order)");
        }
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
    std::vector<ShapeIndex> shapes_;
    std::vector<std::vector<std::int32_t>> peers_;  // per rank, per comm node: peer rank or group index
    std::vector<std::uint64_t> timing_;              // per rank: hash of its comm times
    std::vector<std::int32_t> pg_group_;             // per TraceSet::pg_names
    std::vector<int> role_of_rank_;
    int roles_ = 0;
    std::map<std::tuple<std::int64_t, std::int64_t, std::uint64_t>, double> send_cache_;
    std::map<std::pair<std::int32_t, std::uint64_t>, double> all_cache_;
    std::map<std::tuple<std::int32_t, std::uint64_t, std::int32_t, int>, double> group_cache_;
    std::map<std::pair<std::int64_t, std::uint64_t>, int> tags_;
    int everyone_ = 0;  // the whole-network group of the graph
    struct Sync {
        std::vector<int> make_up;  // distinct roles of the group
        std::vector<int> roles;    // roles that issued it
        int rank = 0;              // where it was first seen, for messages
        std::uint32_t node = 0;
    };
    std::map<std::vector<int>, int> make_up_ids_;
    std::map<std::tuple<int, int>, int> sync_ids_;  // (make-up, k) -> index into syncs_
    std::vector<Sync> syncs_;
    std::map<int, int> occurrences_;  // per make-up, in the role being built
};

}  // namespace

TraceGraph build_trace_graph(TraceSet traces, const CommGroupTable& groups, const TimingModel& model) {
    return Builder(std::move(traces), groups, model).run();
}

}  // namespace dtcalc::chakra
