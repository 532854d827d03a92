#include "collective/nccl/nccl_model.h"

#include "collective/nccl/nccl_cost.h"
#include "collective/nccl/nccl_one_rank.h"
#include "collective/nccl/nccl_p2p.h"
#include "core/error.h"

namespace dtcalc {

NcclPrediction nccl_predict(CollectiveKind kind, std::uint64_t bytes, const NcclShape& shape, const NcclRates& rates,
                            const NcclParameters& params, const NcclForce& force, const NcclReduction& reduction) {
    NcclPrediction out;
    out.choice = nccl_select(kind, bytes, shape, rates, params, force, reduction);
    if (out.choice.algorithm == NcclAlgorithm::P2p) {
        const NcclP2pCost cost = kind == CollectiveKind::AllToAll ? nccl_all_to_all_cost(bytes, shape, rates, params)
                                                                  : nccl_send_recv_cost(bytes, shape, rates, params);
        out.channels = cost.channels;
        out.steps = shape.ranks > 1 ? 1 : 0;
        out.bytes_per_step = static_cast<double>(bytes) / cost.channels;
        out.latency_ns = cost.latency_ns;
        out.fill_ns = cost.fill_ns;
        out.bandwidth_ns = cost.bandwidth_ns;
        out.time_ns = cost.time_ns();
        return out;
    }
    const NcclCollectiveCost cost = nccl_collective_cost(kind, bytes, out.choice, shape, rates, params);
    out.channels = cost.channels;
    out.steps = cost.steps;
    out.bytes_per_step = cost.bytes_per_step;
    out.latency_ns = cost.latency_ns;
    out.fill_ns = cost.fill_ns;
    out.bandwidth_ns = cost.bandwidth_ns;
    out.time_ns = cost.time_ns();
    return out;
}

namespace {

const NcclParameters& nccl_parameters(const SystemConfig& system) {
    if (!system.nccl)
        throw InputError({"", 0, 0, "backend"},
                         "the nccl backend needs a preset with an [nccl] table (e.g. hgx-h100, h100-ib-ndr400)");
    return *system.nccl;
}

// One rank (nccl_one_rank.h): no NICs, no channels; out of place, NCCL's
// copy where the preset states its rate ("copy"), else nothing ("none").
CollectiveResult one_rank_result(const CollectiveQuery& query, const SystemConfig& system,
                                 const NcclParameters& params, CollectiveResult result) {
    result.algorithm = result.nccl_algorithm = result.nccl_protocol = "none";
    if (!query.out_of_place || !nccl_one_rank_copies(query.kind)) return result;
    const double ns = nccl_one_rank_copy_ns(query.bytes, system.local_mem_bw_gbps, params);
    if (!(ns > 0)) return result;
    result.algorithm = result.nccl_algorithm = "copy";
    result.time_ns = ns;
    PhaseBreakdown phase;
    phase.kind = query.kind;
    phase.algorithm.kind = AlgorithmKind::Direct;
    phase.npus = 1;
    phase.steps = 1;
    phase.bytes_per_step = query.bytes;
    phase.latency_ns = params.copy_overhead_us * 1000.0;
    phase.bandwidth_ns = ns - phase.latency_ns;
    phase.time_ns = ns;
    result.phases.push_back(phase);
    return result;
}

}  // namespace

double nccl_send_recv_node_pair_ns(const Network& network, const SystemConfig& system, const CollectiveQuery& query) {
    const NcclParameters& params = nccl_parameters(system);
    const NcclShape shape = nccl_shape(query.group);
    if (shape.ranks <= 1) return 0;
    const NcclRates rates = nccl_rates(network, query.group, shape, params, query.on_every_gpu, query.nccl.channels);
    return nccl_send_recv_node_pair_cost(query.bytes, shape, rates, params).time_ns();
}

NcclTuningTable nccl_tuning_table(const Network& network, const SystemConfig& system, const CollectiveQuery& query) {
    const NcclParameters& params = nccl_parameters(system);
    const NcclShape shape = nccl_shape(query.group);
    NcclTuningTable table;
    table.ranks = shape.ranks;
    table.nodes = shape.nodes;
    table.gpus_per_node = shape.gpus_per_node;
    if (shape.ranks <= 1) return table;
    const NcclRates rates = nccl_rates(network, query.group, shape, params, query.on_every_gpu, query.nccl.channels);
    for (int a = 0; a < kNcclTunedAlgorithms; ++a)
        for (int p = 0; p < kNcclProtocols; ++p)
            table.entries[static_cast<std::size_t>(a)][static_cast<std::size_t>(p)] =
                nccl_tuning(query.kind, shape, rates, params, static_cast<NcclAlgorithm>(a),
                            static_cast<NcclProtocol>(p), query.nccl, query.reduction);
    return table;
}

CollectiveResult nccl_collective_time(const Network& network, const SystemConfig& system,
                                      const CollectiveQuery& query) {
    const NcclParameters& params = nccl_parameters(system);
    const NcclShape shape = nccl_shape(query.group);
    CollectiveResult result;
    result.chunks = 1;
    result.chunk_bytes = query.bytes;
    if (shape.ranks <= 1) return one_rank_result(query, system, params, result);
    const NcclRates rates = nccl_rates(network, query.group, shape, params, query.on_every_gpu, query.nccl.channels);
    result.nics = rates.topology.nics;
    if (nccl_discards(query.kind, query.bytes)) {
        result.algorithm = result.nccl_algorithm = result.nccl_protocol = "none";
        return result;
    }
    const NcclPrediction p = nccl_predict(query.kind, query.bytes, shape, rates, params, query.nccl, query.reduction);

    PhaseBreakdown phase;
    phase.dimension = 0;
    if (shape.nodes > 1)
        for (std::size_t d = 1; d < query.group.members.size(); ++d)
            if (query.group.members[d] > 1) phase.dimension = static_cast<int>(d);
    phase.kind = query.kind;
    phase.algorithm.kind = p.choice.algorithm == NcclAlgorithm::Tree || p.choice.algorithm == NcclAlgorithm::NvlsTree
                               ? AlgorithmKind::DoubleBinaryTree
                           : p.choice.algorithm == NcclAlgorithm::Ring ? AlgorithmKind::Ring
                                                                       : AlgorithmKind::Direct;
    phase.npus = static_cast<int>(shape.ranks);
    phase.steps = p.steps;
    phase.bytes_per_step = static_cast<std::uint64_t>(p.bytes_per_step);
    phase.latency_ns = p.latency_ns;
    phase.bandwidth_ns = p.bandwidth_ns;
    phase.wait_ns = p.fill_ns;
    phase.time_ns = p.time_ns;
    result.time_ns = p.time_ns;
    result.algorithm = nccl_choice_name(p.choice.algorithm, p.choice.protocol);
    result.nccl_algorithm = nccl_algorithm_name(p.choice.algorithm);
    result.nccl_protocol = nccl_protocol_name(p.choice.protocol);
    result.channels = p.channels;
    result.phases.push_back(phase);
    return result;
}

}  // namespace dtcalc
