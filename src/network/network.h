#pragma once
// A network as an ordered list of dimensions, innermost first. NPU ids map to
// per-dimension coordinates with dimension 0 varying fastest; a message is
// charged to the first dimension in which the two coordinates differ.
#include <cstdint>
#include <vector>

#include "network/topology.h"

namespace dtcalc {

struct Dimension {
    Topology topology = Topology::Switch;
    int npus = 1;               ///< members along this dimension
    double bandwidth_gbps = 0;  ///< per link per direction, GB/s as the input states it
    double latency_ns = 0;      ///< per hop
};

struct Network {
    std::vector<Dimension> dimensions;

    std::int64_t total_npus() const;
    std::vector<int> coordinates(std::int64_t npu) const;
    std::int64_t npu_at(const std::vector<int>& coordinates) const;
    /// First dimension in which the two NPUs differ; -1 when they are the same NPU.
    int charged_dimension(std::int64_t a, std::int64_t b) const;
    /// Hops of a message between two NPUs, on the dimension it is charged to.
    int hops(std::int64_t a, std::int64_t b) const;
};

}  // namespace dtcalc
