#include "validate/nccl_tests_timing.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dtcalc {

double nccl_tests_sendrecv_printed_ns(int nodes, int gpus_per_node, double network_ns, double nvlink_ns,
                                      std::int64_t iterations) {
    if (nodes <= 1) return nvlink_ns;
    const std::size_t n = static_cast<std::size_t>(nodes) * static_cast<std::size_t>(gpus_per_node);
    const auto g = static_cast<std::size_t>(gpus_per_node);
    // tau[r]: the transfer from rank r to rank r + 1.
    std::vector<double> tau(n);
    for (std::size_t r = 0; r < n; ++r) tau[r] = (r / g != ((r + 1) % n) / g) ? network_ns : nvlink_ns;
    std::vector<double> done(n, 0.0), next(n, 0.0);
    // A rank d hops from the nearer network rank settles after d <= G / 2
    // operations; from then on every rank finishes one operation per
    // max(T, t), so the rest are added, not stepped through.
    const std::int64_t stepped = std::min<std::int64_t>(iterations, 2 * static_cast<std::int64_t>(gpus_per_node) + 4);
    for (std::int64_t k = 0; k < stepped; ++k) {
        for (std::size_t r = 0; r < n; ++r) {
            const std::size_t up = (r + n - 1) % n, down = (r + 1) % n;
            const double send = std::max(done[r], done[down]) + tau[r];
            const double receive = std::max(done[up], done[r]) + tau[up];
            next[r] = std::max(send, receive);
        }
        done.swap(next);
    }
    double sum = 0;
    for (const double c : done) sum += c;
    const double period = std::max(network_ns, nvlink_ns);
    return (sum / static_cast<double>(n) + static_cast<double>(iterations - stepped) * period) /
           static_cast<double>(iterations);
}

}  // namespace dtcalc
