#include "system/system_config.h"

namespace dtcalc {

std::optional<AlgorithmChoice> parse_algorithm(std::string_view name) {
    bool flat = false;
    if (name.starts_with("one") && name.size() > 3) {
        flat = true;
        name.remove_prefix(3);
    }
    if (name == "ring" || name == "Ring") return AlgorithmChoice{AlgorithmKind::Ring, flat};
    if (name == "direct" || name == "Direct") return AlgorithmChoice{AlgorithmKind::Direct, flat};
    if (name == "halvingDoubling" || name == "HalvingDoubling")
        return AlgorithmChoice{AlgorithmKind::HalvingDoubling, flat};
    if (name == "doubleBinaryTree" || name == "DoubleBinaryTree")
        return AlgorithmChoice{AlgorithmKind::DoubleBinaryTree, flat};
    return std::nullopt;
}

std::string_view algorithm_name(AlgorithmKind kind) {
    switch (kind) {
        case AlgorithmKind::Ring: return "ring";
        case AlgorithmKind::Direct: return "direct";
        case AlgorithmKind::HalvingDoubling: return "halvingDoubling";
        case AlgorithmKind::DoubleBinaryTree: return "doubleBinaryTree";
    }
    return "?";
}

std::optional<CollectiveOptimization> parse_collective_optimization(std::string_view name) {
    if (name == "baseline") return CollectiveOptimization::Baseline;
    if (name == "localBWAware") return CollectiveOptimization::LocalBWAware;
    return std::nullopt;
}

std::string_view collective_optimization_name(CollectiveOptimization value) {
    return value == CollectiveOptimization::Baseline ? "baseline" : "localBWAware";
}

std::optional<SchedulingPolicy> parse_scheduling_policy(std::string_view name) {
    if (name == "LIFO") return SchedulingPolicy::LIFO;
    if (name == "FIFO") return SchedulingPolicy::FIFO;
    return std::nullopt;
}

std::string_view scheduling_policy_name(SchedulingPolicy value) {
    return value == SchedulingPolicy::LIFO ? "LIFO" : "FIFO";
}

}  // namespace dtcalc
