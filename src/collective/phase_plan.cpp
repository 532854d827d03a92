#include "collective/phase_plan.h"

#include <stdexcept>
#include <string>
#include <string_view>

#include "collective/algorithm_steps.h"
#include "core/error.h"

namespace dtcalc {
namespace {

constexpr std::string_view kImplementationKeys[kGroupCollectiveKinds] = {
    "all-reduce-implementation", "reduce-scatter-implementation", "all-gather-implementation",
    "all-to-all-implementation"};

// Entry `entry` of the implementation list of `kind`: where it was read, or its key.
InputLocation entry_location(const SystemConfig& system, CollectiveKind kind, std::size_t entry) {
    const auto list = static_cast<std::size_t>(kind);
    const std::vector<InputLocation>& where = system.implementation_where[list];
    if (entry < where.size()) return where[entry];
    return {"", 0, 0, std::string(kImplementationKeys[list]) + "[" + std::to_string(entry) + "]"};
}

std::string no_such_collective(AlgorithmKind algorithm, CollectiveKind kind) {
    return std::string(algorithm_name(algorithm)) + " has no " + std::string(collective_kind_name(kind));
}

bool power_of_two(std::int64_t npus) { return npus > 0 && (npus & (npus - 1)) == 0; }

PlannedPhase phase(int dim, CollectiveKind kind, const CommGroup& group, const std::vector<AlgorithmChoice>& algorithms,
                   std::uint64_t data, bool hierarchical = false) {
    const AlgorithmChoice choice = algorithms[static_cast<std::size_t>(dim)];
    const int npus = group.members[static_cast<std::size_t>(dim)];
    if (choice.kind == AlgorithmKind::HalvingDoubling && !power_of_two(npus))
        throw std::invalid_argument("halvingDoubling needs a power-of-two number of NPUs on dimension " +
                                    std::to_string(dim) + " (got " + std::to_string(npus) + ")");
    // A tree all-reduce inside a hierarchical all-reduce runs as a whole
    // all-reduce of that level's data on its dimension (ASTRA-sim builds the
    // tree for whatever phase asks for it).
    if (choice.kind == AlgorithmKind::DoubleBinaryTree && kind != CollectiveKind::AllReduce && hierarchical)
        return {dim, CollectiveKind::AllReduce, choice, npus, data};
    if (!supports(kind, choice.kind))
        throw std::invalid_argument(std::string(algorithm_name(choice.kind)) + " has no " +
                                    std::string(collective_kind_name(kind)));
    return {dim, kind, choice, npus, data};
}

}  // namespace

void check_phase_algorithms(CollectiveKind kind, const CommGroup& group, const SystemConfig& system) {
    if (kind == CollectiveKind::SendRecv) return;
    const std::vector<int> dims = group.spanned_dimensions();
    if (dims.empty()) return;
    const std::vector<AlgorithmChoice>& algorithms = system.algorithms_for(kind);
    if (algorithms.empty())
        throw InputError(entry_location(system, kind, 0), "missing: no algorithm for " + std::string(collective_kind_name(kind)));
    if (algorithms.front().flat) {
        if (!supports(kind, algorithms.front().kind))
            throw InputError(entry_location(system, kind, 0), no_such_collective(algorithms.front().kind, kind));
        const std::int64_t npus = group.size();
        if (algorithms.front().kind == AlgorithmKind::HalvingDoubling && !power_of_two(npus))
            throw InputError(entry_location(system, kind, 0),
                             "oneHalvingDoubling needs a power-of-two number of NPUs in the group (got " +
                                 std::to_string(npus) + ")");
        return;
    }
    for (int d : dims) {
        const auto entry = static_cast<std::size_t>(d);
        if (entry >= algorithms.size())
            throw InputError(entry_location(system, kind, algorithms.size()),
                             "missing: the list has " + std::to_string(algorithms.size()) +
                                 " entries, but the group spans dimension " + std::to_string(d));
        const AlgorithmKind algorithm = algorithms[entry].kind;
        // An all-reduce's inner phases (reduce-scatter, all-gather) also use the
        // all-reduce list, and every algorithm has those or runs them as all-reduces.
        if (!supports(kind, algorithm)) throw InputError(entry_location(system, kind, entry), no_such_collective(algorithm, kind));
        const int npus = group.members[entry];
        if (algorithm == AlgorithmKind::HalvingDoubling && !power_of_two(npus))
            throw InputError(entry_location(system, kind, entry),
                             "halvingDoubling needs a power-of-two number of NPUs on dimension " + std::to_string(d) +
                                 " (got " + std::to_string(npus) + ")");
    }
}

std::vector<PlannedPhase> plan_phases(CollectiveKind kind, const CommGroup& group, const SystemConfig& system,
                                      std::uint64_t chunk_bytes) {
    std::vector<PlannedPhase> phases;
    const std::vector<int> dims = group.spanned_dimensions();
    if (dims.empty()) return phases;
    phases.reserve(2 * dims.size());
    const auto& algorithms = system.algorithms_for(kind == CollectiveKind::SendRecv ? CollectiveKind::AllReduce : kind);

    if (algorithms.front().flat) {
        const std::int64_t p = group.size();
        const std::uint64_t data = kind == CollectiveKind::AllGather ? chunk_bytes * static_cast<std::uint64_t>(p) : chunk_bytes;
        if (!supports(kind, algorithms.front().kind))
            throw std::invalid_argument(std::string(algorithm_name(algorithms.front().kind)) + " has no " +
                                        std::string(collective_kind_name(kind)));
        if (algorithms.front().kind == AlgorithmKind::HalvingDoubling && !power_of_two(p))
            throw std::invalid_argument("oneHalvingDoubling needs a power-of-two number of NPUs in the group (got " +
                                        std::to_string(p) + ")");
        phases.push_back({dims.front(), kind, algorithms.front(), static_cast<int>(p), data});
        return phases;
    }

    auto members = [&](int dim) { return static_cast<std::uint64_t>(group.members[static_cast<std::size_t>(dim)]); };
    switch (kind) {
        case CollectiveKind::AllReduce:
            if (system.collective_optimization == CollectiveOptimization::Baseline || dims.size() == 1) {
                for (int d : dims) phases.push_back(phase(d, CollectiveKind::AllReduce, group, algorithms, chunk_bytes));
            } else {
                // The inner phases use the all-reduce's own per-dimension algorithms.
                const auto& rs = algorithms;
                const auto& ag = algorithms;
                std::vector<std::uint64_t> level(dims.size());
                std::uint64_t data = chunk_bytes;
                for (std::size_t i = 0; i < dims.size(); ++i) {
                    level[i] = data;
                    data /= members(dims[i]);
                }
                for (std::size_t i = 0; i + 1 < dims.size(); ++i)
                    phases.push_back(phase(dims[i], CollectiveKind::ReduceScatter, group, rs, level[i], true));
                phases.push_back(phase(dims.back(), CollectiveKind::AllReduce, group, algorithms, level.back()));
                for (std::size_t i = dims.size() - 1; i-- > 0;)
                    phases.push_back(phase(dims[i], CollectiveKind::AllGather, group, ag, level[i], true));
            }
            break;
        case CollectiveKind::ReduceScatter: {
            std::uint64_t data = chunk_bytes;
            for (int d : dims) {
                phases.push_back(phase(d, kind, group, algorithms, data));
                data /= members(d);
            }
            break;
        }
        case CollectiveKind::AllGather: {
            std::uint64_t data = chunk_bytes;
            for (std::size_t i = dims.size(); i-- > 0;) {
                data *= members(dims[i]);
                phases.push_back(phase(dims[i], kind, group, algorithms, data));
            }
            break;
        }
        case CollectiveKind::AllToAll:
            for (int d : dims) phases.push_back(phase(d, kind, group, algorithms, chunk_bytes));
            break;
        case CollectiveKind::SendRecv: break;
    }
    return phases;
}

}  // namespace dtcalc
