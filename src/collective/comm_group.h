#pragma once
// The NPUs a collective runs on, as a span of the network's dimensions.
#include <cstdint>
#include <string>
#include <vector>

#include "network/network.h"

namespace dtcalc {

/// Members along each network dimension (1 = the group does not span it). The
/// group is the block of NPUs at coordinates [0, members[d]) in every dimension.
struct CommGroup {
    std::vector<int> members;

    std::int64_t size() const;
    /// Dimensions the group spans (members > 1), innermost first.
    std::vector<int> spanned_dimensions() const;
};

/// All NPUs of the network.
CommGroup whole_network_group(const Network& network);

/// The first `npus` NPUs (dimension 0 fastest). Throws InputError, naming
/// `source` (e.g. "--npus"), when the network has fewer NPUs or the first
/// `npus` do not form a block (they must fill the inner dimensions and a
/// divisor-free prefix of the next one).
CommGroup first_npus_group(const Network& network, std::int64_t npus, const std::string& source);

}  // namespace dtcalc
