#include "compute/system.h"

namespace dtcalc {

CollectiveResult collective_time(const System& system, const CollectiveQuery& query) {
    return collective_time(system.network, system.config, system.backend, query);
}

std::vector<PhaseLinks> collective_links(const System& system, const CollectiveQuery& query,
                                         const CollectiveResult& result, std::size_t top_links) {
    return collective_links(system.network, system.config, system.backend, query, result, top_links);
}

}  // namespace dtcalc
