#include "collective/comm_group.h"

#include "core/error.h"

namespace dtcalc {

std::int64_t CommGroup::size() const {
    std::int64_t n = 1;
    for (int m : members) n *= m;
    return n;
}

std::vector<int> CommGroup::spanned_dimensions() const {
    std::vector<int> dims;
    for (std::size_t i = 0; i < members.size(); ++i)
        if (members[i] > 1) dims.push_back(static_cast<int>(i));
    return dims;
}

CommGroup whole_network_group(const Network& network) {
    CommGroup group;
    for (const Dimension& d : network.dimensions) group.members.push_back(d.npus);
    return group;
}

CommGroup first_npus_group(const Network& network, std::int64_t npus, const std::string& source) {
    const std::int64_t total = network.total_npus();
    if (npus < 1) throw InputError({source, 0, 0, ""}, "must be at least 1 (got " + std::to_string(npus) + ")");
    if (npus > total)
        throw InputError({source, 0, 0, ""}, "the group has " + std::to_string(npus) + " NPUs but the network has only " +
                                                 std::to_string(total));
    CommGroup group;
    std::int64_t remaining = npus;
    for (const Dimension& d : network.dimensions) {
        if (remaining >= d.npus) {
            if (remaining % d.npus != 0)
                throw InputError({source, 0, 0, ""},
                                 std::to_string(npus) + " NPUs do not form a block of the network's dimensions "
                                 "(a group must fill whole inner dimensions; try a multiple of " +
                                     std::to_string(d.npus) + ")");
            group.members.push_back(d.npus);
            remaining /= d.npus;
        } else {
            group.members.push_back(static_cast<int>(remaining));
            remaining = 1;
        }
    }
    return group;
}

}  // namespace dtcalc
