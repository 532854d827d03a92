#pragma once
// The text table of `dtcalc collective --links` (collective/collective_links.h).
#include <cstdint>
#include <ostream>
#include <vector>

#include "collective/collective_links.h"
#include "core/units.h"

namespace dtcalc {

/// `size_bytes`: the collective's size the links are shown for.
void write_link_table(std::ostream& out, const std::vector<PhaseLinks>& phases, TimeUnit unit,
                      std::uint64_t size_bytes);

}  // namespace dtcalc
