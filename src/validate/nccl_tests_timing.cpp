#include "validate/nccl_tests_timing.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace dtcalc {

double nccl_tests_sendrecv_printed_ns(int nodes, int gpus_per_node, double network_ns, double nvlink_ns,
                                      int iterations) {
    if (nodes <= 1) return nvlink_ns;
    const std::size_t n = static_cast<std::size_t>(nodes) * static_cast<std::size_t>(gpus_per_node);
    const auto g = static_cast<std::size_t>(gpus_per_node);
    // tau[r]: the transfer from rank r to rank r + 1.
    std::vector<double> tau(n);
    for (std::size_t r = 0; r < n; ++r) tau[r] = (r / g != ((r + 1) % n) / g) ? network_ns : nvlink_ns;
    std::vector<double> done(n, 0.0), next(n, 0.0);
    for (int k = 0; k < iterations; ++k) {
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
    return sum / static_cast<double>(n) / static_cast<double>(iterations);
}

}  // namespace dtcalc
