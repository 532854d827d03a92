#include "collective/bus_bandwidth.h"

namespace dtcalc {

double bus_bandwidth_factor(CollectiveKind kind, long long npus) {
    if (npus <= 1) return kind == CollectiveKind::SendRecv ? 1.0 : 0.0;
    const double n = static_cast<double>(npus);
    switch (kind) {
        case CollectiveKind::AllReduce: return 2.0 * (n - 1) / n;
        case CollectiveKind::ReduceScatter:
        case CollectiveKind::AllGather:
        case CollectiveKind::AllToAll: return (n - 1) / n;
        case CollectiveKind::SendRecv: return 1.0;
    }
    return 1.0;
}

}  // namespace dtcalc
