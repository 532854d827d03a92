#include "workload/workload_graph.h"

namespace dtcalc {

std::string_view op_kind_name(OpKind kind) {
    switch (kind) {
        case OpKind::Compute: return "compute";
        case OpKind::Collective: return "collective";
        case OpKind::Send: return "send";
        case OpKind::Recv: return "recv";
        case OpKind::Memory: return "memory";
    }
    return "?";
}

std::string_view op_phase_name(OpPhase phase) {
    switch (phase) {
        case OpPhase::Forward: return "fwd";
        case OpPhase::InputGradient: return "ig";
        case OpPhase::WeightGradient: return "wg";
        case OpPhase::Update: return "update";
        case OpPhase::Other: return "other";
    }
    return "?";
}

int WorkloadGraph::add(Op op, std::span<const int> predecessors) {
    op.dep_begin = static_cast<std::uint32_t>(deps.size());
    op.dep_count = static_cast<std::uint32_t>(predecessors.size());
    for (int p : predecessors) deps.push_back(static_cast<std::uint32_t>(p));
    ops.push_back(op);
    return static_cast<int>(ops.size()) - 1;
}

void WorkloadGraph::add_dependency_list(int op, std::span<const int> predecessors) {
    Op& o = ops[static_cast<std::size_t>(op)];
    o.dep_begin = static_cast<std::uint32_t>(deps.size());
    o.dep_count = static_cast<std::uint32_t>(predecessors.size());
    for (int p : predecessors) deps.push_back(static_cast<std::uint32_t>(p));
}

int WorkloadGraph::intern_name(const std::string& name) {
    names.push_back(name);
    return static_cast<int>(names.size()) - 1;
}

int WorkloadGraph::name_id(const std::string& name) {
    for (std::size_t i = names.size(); i-- > 0;)
        if (names[i] == name) return static_cast<int>(i);
    return intern_name(name);
}

int WorkloadGraph::add_group(const CommGroup& group) {
    for (std::size_t i = 0; i < groups.size(); ++i)
        if (groups[i].members == group.members) return static_cast<int>(i);
    groups.push_back(group);
    return static_cast<int>(groups.size()) - 1;
}

int WorkloadGraph::add_layer(const std::string& name) {
    layers.push_back(name);
    return static_cast<int>(layers.size()) - 1;
}

std::string WorkloadGraph::op_label(int op) const {
    const Op& o = ops[static_cast<std::size_t>(op)];
    std::string label = o.name >= 0 ? names[static_cast<std::size_t>(o.name)] : "op " + std::to_string(op);
    if (o.micro_batch >= 0) label += " mb" + std::to_string(o.micro_batch);
    if (o.chunk >= 0) label += " c" + std::to_string(o.chunk);
    return label;
}

}  // namespace dtcalc
