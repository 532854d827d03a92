#include "plan/group_mapping.h"

#include <numeric>

#include "core/error.h"

namespace dtcalc {
namespace {

struct Placer {
    const Network& network;
    std::vector<long long> used;  // factor of each dimension already taken
    std::size_t dim = 0;

    CommGroup place(long long size, const std::string& axis) {
        CommGroup g;
        g.members.assign(network.dimensions.size(), 1);
        while (size > 1) {
            if (dim >= network.dimensions.size())
                throw InputError({"", 0, 0, "plan"}, axis + " does not fit: the network has no NPUs left for it");
            const long long available = network.dimensions[dim].npus / used[dim];
            if (available == 1) {
                ++dim;
                continue;
            }
            const long long take = std::gcd(size, available);
            if (take == 1)
                throw InputError({"", 0, 0, "plan"},
                                 axis + " (" + std::to_string(size) + " ranks left) does not divide what is left of network dimension " +
                                     std::to_string(dim) + " (" + std::to_string(available) + " NPUs)");
            g.members[dim] *= static_cast<int>(take);
            used[dim] *= take;
            size /= take;
        }
        return g;
    }
};

CommGroup combine(const CommGroup& a, const CommGroup& b) {
    CommGroup out = a;
    for (std::size_t d = 0; d < out.members.size(); ++d) out.members[d] *= b.members[d];
    return out;
}

}  // namespace

ParallelGroups map_parallel_groups(const Network& network, const ParallelPlan& plan) {
    Placer placer{network, std::vector<long long>(network.dimensions.size(), 1)};
    ParallelGroups g;
    CommGroup dp_outer;
    for (ParallelAxis axis : plan.order) {
        switch (axis) {
            case ParallelAxis::TP: g.tp = placer.place(plan.tp, "tp"); break;
            case ParallelAxis::CP: g.cp = placer.place(plan.cp, "cp"); break;
            case ParallelAxis::EP: g.ep = placer.place(plan.ep, "ep"); break;
            case ParallelAxis::DP: dp_outer = placer.place(plan.dp / plan.ep, "dp"); break;
            case ParallelAxis::PP: g.pp = placer.place(plan.pp, "pp"); break;
        }
    }
    g.dp = combine(g.ep, dp_outer);
    g.expert_dp = dp_outer;
    g.dp_cp = combine(g.dp, g.cp);
    g.pp_neighbour.members.assign(network.dimensions.size(), 1);
    for (std::size_t d = 0; d < g.pp.members.size(); ++d)
        if (g.pp.members[d] > 1) {
            g.pp_neighbour.members[d] = 2;
            break;
        }
    return g;
}

}  // namespace dtcalc
