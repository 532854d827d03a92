#include "network/network.h"

namespace dtcalc {

std::int64_t Network::total_npus() const {
    std::int64_t total = 1;
    for (const Dimension& d : dimensions) total *= d.npus;
    return total;
}

std::vector<int> Network::coordinates(std::int64_t npu) const {
    std::vector<int> coords(dimensions.size());
    for (std::size_t i = 0; i < dimensions.size(); ++i) {
        coords[i] = static_cast<int>(npu % dimensions[i].npus);
        npu /= dimensions[i].npus;
    }
    return coords;
}

std::int64_t Network::npu_at(const std::vector<int>& coords) const {
    std::int64_t id = 0;
    for (std::size_t i = dimensions.size(); i-- > 0;) id = id * dimensions[i].npus + coords[i];
    return id;
}

int Network::charged_dimension(std::int64_t a, std::int64_t b) const {
    for (std::size_t i = 0; i < dimensions.size(); ++i) {
        const int n = dimensions[i].npus;
        if (a % n != b % n) return static_cast<int>(i);
        a /= n;
        b /= n;
    }
    return -1;
}

int Network::hops(std::int64_t a, std::int64_t b) const {
    const int dim = charged_dimension(a, b);
    if (dim < 0) return 0;
    const auto ca = coordinates(a);
    const auto cb = coordinates(b);
    const Dimension& d = dimensions[static_cast<std::size_t>(dim)];
    return hops_between(d.topology, d.npus, ca[dim], cb[dim]);
}

}  // namespace dtcalc
