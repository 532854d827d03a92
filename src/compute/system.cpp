#include "compute/system.h"

namespace dtcalc {

std::vector<PhaseLinks> collective_links(const System& system, const CollectiveQuery& query,
                                         const CollectiveResult& result, std::size_t top_links) {
    return collective_links(system.network, system.config, system.backend, query, result, top_links);
}

}  // namespace dtcalc
