#include "chakra/graph_export.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "chakra/trace_decoder.h"
#include "chakra/trace_set.h"
#include "chakra/trace_writer.h"
#include "collective/collective_cost.h"
#include "compute/roofline.h"
#include "core/error.h"

namespace dtcalc::chakra {
namespace {

[[noreturn]] void fail(const std::string& message) { throw InputError({"", 0, 0, "export"}, message); }

// A trace field holds a whole number below 2^63; a larger (or non-finite) value is out of range.
std::int64_t whole(double value, const WorkloadGraph& graph, int op, const char* field) {
    if (!(value >= 0 && value < 9.2e18))
        fail(graph.op_label(op) + ": " + field + " out of range for a Chakra trace (accepted are 0 to 9.2e18)");
    return std::llround(value);
}

std::vector<int> roles_of_ranks(const WorkloadGraph& graph, long long npus) {
    if (!graph.rank_role.empty()) {
        if (static_cast<long long>(graph.rank_role.size()) != npus)
            fail("the workload maps " + std::to_string(graph.rank_role.size()) + " ranks to roles but the network has " +
                 std::to_string(npus) + " NPUs");
        return graph.rank_role;
    }
    std::vector<int> out;
    for (int role = 0; role < graph.roles; ++role) {
        const long long count = role < static_cast<int>(graph.role_npus.size()) ? graph.role_npus[static_cast<std::size_t>(role)] : 1;
        for (long long k = 0; k < count && static_cast<long long>(out.size()) <= npus; ++k) out.push_back(role);
    }
    if (static_cast<long long>(out.size()) != npus)
        fail("the workload's roles stand for " + std::to_string(out.size()) + " NPUs but the network has " +
             std::to_string(npus));
    return out;
}

// The op's time as `evaluate` prices it.
std::vector<double> op_times(const WorkloadGraph& graph, const System& on) {
    const SystemConfig& system = on.config;
    const TrainingDevice device = roofline_device(system.peak_perf_tflops, system.local_mem_bw_gbps);
    std::vector<double> ns(graph.ops.size(), 0.0);
    std::map<std::tuple<int, std::uint64_t, int>, double> cache;
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
        const Op& op = graph.ops[i];
        if (op.duration_ns >= 0) {
            ns[i] = op.kind == OpKind::Recv ? 0 : op.duration_ns;
            continue;
        }
        switch (op.kind) {
            case OpKind::Compute:
                if (!can_time(device, op.flops, op.bytes))
                    fail(graph.op_label(static_cast<int>(i)) + " needs the system's peak-perf and local-mem-bw");
                ns[i] = roofline_time(device, op.flops, op.bytes).ns;
                break;
            case OpKind::Memory: ns[i] = op.bytes > 0 ? std::floor(op.bytes / system.local_mem_bw_gbps) : 0; break;
            case OpKind::Collective:
            case OpKind::Send: {
                if (op.group < 0 || op.group >= static_cast<int>(graph.groups.size()))
                    fail(graph.op_label(static_cast<int>(i)) + " has no communicator group");
                const CollectiveKind kind = op.kind == OpKind::Send ? CollectiveKind::SendRecv : op.collective;
                const auto key = std::make_tuple(static_cast<int>(kind), op.comm_bytes, op.group);
                auto found = cache.find(key);
                if (found == cache.end()) {
                    const CollectiveQuery q{kind, op.comm_bytes, graph.groups[static_cast<std::size_t>(op.group)], {}};
                    found = cache.emplace(key, collective_time(on, q).time_ns).first;
                }
                ns[i] = found->second;
                break;
            }
            case OpKind::Recv: break;
        }
    }
    return ns;
}

// A receive's size is its send's (ASTRA-sim matches messages by size too).
std::vector<std::uint64_t> message_sizes(const WorkloadGraph& graph) {
    std::vector<std::uint64_t> size(graph.ops.size(), 0);
    std::map<std::tuple<int, int, int>, std::vector<int>> sends, recvs;
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
        const Op& op = graph.ops[i];
        if (op.kind == OpKind::Send) sends[{op.role, op.peer_role, op.tag}].push_back(static_cast<int>(i));
        if (op.kind == OpKind::Recv) recvs[{op.peer_role, op.role, op.tag}].push_back(static_cast<int>(i));
        if (op.kind == OpKind::Send) size[i] = op.comm_bytes;
    }
    for (const auto& [key, list] : recvs) {
        const auto found = sends.find(key);
        for (std::size_t k = 0; k < list.size(); ++k) {
            if (found == sends.end() || k >= found->second.size())
                fail(graph.op_label(list[k]) + ": receive without a matching send");
            size[static_cast<std::size_t>(list[k])] = graph.ops[static_cast<std::size_t>(found->second[k])].comm_bytes;
        }
    }
    return size;
}

// The NPUs of rank `rank`'s copy of `group`, in rank order.
std::vector<int> concrete_group(const Network& network, const CommGroup& group, long long rank) {
    const std::vector<int> coords = network.coordinates(rank);
    std::vector<int> lo(coords.size()), hi(coords.size());
    for (std::size_t d = 0; d < coords.size(); ++d) {
        const int m = d < group.members.size() ? std::max(1, group.members[d]) : 1;
        lo[d] = m >= network.dimensions[d].npus ? 0 : (coords[d] / m) * m;
        hi[d] = std::min(network.dimensions[d].npus, lo[d] + m);
    }
    std::vector<int> ranks;
    std::vector<int> at = lo;
    for (;;) {
        ranks.push_back(static_cast<int>(network.npu_at(at)));
        std::size_t d = 0;
        for (; d < at.size(); ++d) {
            if (++at[d] < hi[d]) break;
            at[d] = lo[d];
        }
        if (d == at.size()) break;
    }
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

std::int64_t comm_type_of(CollectiveKind kind) {
    switch (kind) {
        case CollectiveKind::AllGather: return static_cast<std::int64_t>(CommType::AllGather);
        case CollectiveKind::ReduceScatter: return static_cast<std::int64_t>(CommType::ReduceScatter);
        case CollectiveKind::AllToAll: return static_cast<std::int64_t>(CommType::AllToAll);
        default: return static_cast<std::int64_t>(CommType::AllReduce);
    }
}

}  // namespace

ExportSummary export_chakra(const WorkloadGraph& graph, const System& on, const std::string& prefix,
                            const std::string& comm_group_file, const ExportOptions& options) {
    const Network& network = on.network;
    const SystemConfig& system = on.config;
    const long long npus = network.total_npus();
    if (npus > options.max_npus)
        fail("the network has " + std::to_string(npus) + " NPUs; writing one trace file per NPU is limited to " +
             std::to_string(options.max_npus));
    const std::vector<int> role_of = roles_of_ranks(graph, npus);
    std::vector<std::vector<int>> ranks_of(static_cast<std::size_t>(graph.roles));
    std::vector<int> index_in_role(static_cast<std::size_t>(npus));
    for (long long r = 0; r < npus; ++r) {
        auto& list = ranks_of[static_cast<std::size_t>(role_of[static_cast<std::size_t>(r)])];
        index_in_role[static_cast<std::size_t>(r)] = static_cast<int>(list.size());
        list.push_back(static_cast<int>(r));
    }
    std::vector<std::vector<int>> ops_of(static_cast<std::size_t>(graph.roles));
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
        const Op& op = graph.ops[i];
        if (op.role < 0 || op.role >= graph.roles) fail(graph.op_label(static_cast<int>(i)) + ": role out of range");
        for (std::uint32_t p : graph.predecessors(static_cast<int>(i)))
            if (p >= graph.ops.size() || graph.ops[p].role != op.role)
                fail(graph.op_label(static_cast<int>(i)) + " depends on an op of another role (Chakra dependencies stay within one NPU)");
        ops_of[static_cast<std::size_t>(op.role)].push_back(static_cast<int>(i));
    }
    const std::vector<double> ns = op_times(graph, on);
    const std::vector<std::uint64_t> message = message_sizes(graph);
    bool any_compute = false, all_roofline = true;
    for (const Op& op : graph.ops)
        if (op.kind == OpKind::Compute) {
            any_compute = true;
            if (op.duration_ns >= 0 || op.host) all_roofline = false;
        }
    ExportSummary summary;
    summary.npus = npus;
    summary.roles = graph.roles;
    summary.roofline = any_compute && all_roofline;

    std::map<std::vector<int>, int> group_ids;
    std::vector<std::vector<int>> group_list;
    const GlobalMetadata metadata = chakra_metadata("dtcalc");
    const std::vector<std::string> no_tensors;
    std::vector<Node> nodes;
    for (long long rank = 0; rank < npus; ++rank) {
        const int role = role_of[static_cast<std::size_t>(rank)];
        nodes.clear();
        for (int i : ops_of[static_cast<std::size_t>(role)]) {
            const Op& op = graph.ops[static_cast<std::size_t>(i)];
            Node n;
            n.set_id(static_cast<std::uint64_t>(i));
            n.set_name(graph.op_label(i));
            for (std::uint32_t p : graph.predecessors(i)) n.add_data_deps(p);
            const double t = ns[static_cast<std::size_t>(i)];
            auto peer_rank = [&](int peer_role) {
                const auto& peers = ranks_of[static_cast<std::size_t>(peer_role)];
                if (peers.empty()) fail(graph.op_label(i) + ": its peer role has no NPUs");
                return peers[static_cast<std::size_t>(index_in_role[static_cast<std::size_t>(rank)]) % peers.size()];
            };
            switch (op.kind) {
                case OpKind::Compute:
                    n.set_type(COMP_NODE);
                    if (summary.roofline) {
                        add_int64_attr(n, "num_ops", whole(op.flops, graph, i, "num_ops"));
                        add_uint64_attr(n, "tensor_size", static_cast<std::uint64_t>(whole(op.bytes, graph, i, "tensor_size")));
                    }
                    n.set_duration_micros(static_cast<std::uint64_t>(whole(t / 1000.0, graph, i, "duration (us)")));
                    add_int32_attr(n, "is_cpu_op", op.host ? 1 : 0);
                    break;
                case OpKind::Memory:
                    n.set_type(MEM_LOAD_NODE);
                    add_uint64_attr(n, "tensor_size", static_cast<std::uint64_t>(whole(
                                                          op.bytes > 0 ? op.bytes : t * system.local_mem_bw_gbps,
                                                          graph, i, "tensor_size")));
                    break;
                case OpKind::Collective: {
                    n.set_type(COMM_COLL_NODE);
                    add_int64_attr(n, "comm_type", comm_type_of(op.collective));
                    std::uint64_t members = static_cast<std::uint64_t>(npus);
                    if (op.group >= 0 && op.group < static_cast<int>(graph.groups.size()) &&
                        graph.groups[static_cast<std::size_t>(op.group)].size() < npus) {
                        std::vector<int> ranks = concrete_group(network, graph.groups[static_cast<std::size_t>(op.group)], rank);
                        members = ranks.size();
                        auto [it, added] = group_ids.try_emplace(ranks, static_cast<int>(group_list.size()) + 1);
                        if (added) group_list.push_back(ranks);
                        add_string_attr(n, "pg_name", std::to_string(it->second));
                    }
                    const std::uint64_t size =
                        op.collective == CollectiveKind::AllGather ? op.comm_bytes / std::max<std::uint64_t>(members, 1) : op.comm_bytes;
                    add_int64_attr(n, "comm_size", static_cast<std::int64_t>(size));
                    add_int32_attr(n, "is_cpu_op", 0);
                    break;
                }
                case OpKind::Send:
                case OpKind::Recv: {
                    const bool send = op.kind == OpKind::Send;
                    n.set_type(send ? COMM_SEND_NODE : COMM_RECV_NODE);
                    const int peer = peer_rank(op.peer_role);
                    add_int32_attr(n, "comm_src", static_cast<std::int32_t>(send ? rank : peer));
                    add_int32_attr(n, "comm_dst", static_cast<std::int32_t>(send ? peer : rank));
                    add_int32_attr(n, "comm_tag", op.tag);
                    add_int64_attr(n, "comm_size", static_cast<std::int64_t>(message[static_cast<std::size_t>(i)]));
                    add_int32_attr(n, "is_cpu_op", 0);
                    break;
                }
            }
            add_string_list_attr(n, "inputs", no_tensors);
            add_string_list_attr(n, "outputs", no_tensors);
            if (options.dtcalc_durations && op.kind != OpKind::Recv) add_double_attr(n, "dtcalc_duration_ns", t);
            nodes.push_back(std::move(n));
        }
        summary.nodes += nodes.size();
        write_et_file(rank_file(prefix, rank), metadata, nodes);
    }
    nlohmann::ordered_json groups = nlohmann::ordered_json::object();
    for (std::size_t g = 0; g < group_list.size(); ++g) groups[std::to_string(g + 1)] = group_list[g];
    std::ofstream out(comm_group_file);
    if (!out) throw InputError({comm_group_file, 0, 0, ""}, "cannot write the file");
    out << groups.dump() << "\n";
    out.flush();  // a full disk shows when the buffer is written, not before
    if (!out) throw InputError({comm_group_file, 0, 0, ""}, "cannot write the file");
    summary.comm_groups = static_cast<int>(group_list.size());
    return summary;
}

}  // namespace dtcalc::chakra
