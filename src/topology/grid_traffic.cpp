#include "topology/grid_traffic.h"

#include <algorithm>

namespace dtcalc {
namespace {

std::vector<int> spanned_axes(const GridCoordinates& members, int axes) {
    std::vector<int> out;
    for (int a = 0; a < axes; ++a)
        if (members[static_cast<std::size_t>(a)] > 1) out.push_back(a);
    return out;
}

/// The snake (boustrophedon) over `walk_axes` (fastest first), from the origin
/// of `start`: each step moves one position along the fastest axis that can
/// still move in its current direction, turning round the ones that cannot.
std::vector<GridCoordinates> snake(const GridCoordinates& members, const std::vector<int>& walk_axes,
                                   GridCoordinates start) {
    std::int64_t count = 1;
    for (int a : walk_axes) count *= members[static_cast<std::size_t>(a)];
    std::vector<GridCoordinates> out;
    out.reserve(static_cast<std::size_t>(count));
    GridCoordinates at = start;
    std::array<int, 3> direction{1, 1, 1};
    out.push_back(at);
    for (std::int64_t step = 1; step < count; ++step) {
        for (int a : walk_axes) {
            const auto i = static_cast<std::size_t>(a);
            const int next = at[i] + direction[i];
            if (next >= 0 && next < members[i]) {
                at[i] = next;
                break;
            }
            direction[i] = -direction[i];
        }
        out.push_back(at);
    }
    return out;
}

}  // namespace

std::int64_t TrafficSummary::max_messages() const {
    return std::max({max_link_messages[0], max_link_messages[1], max_link_messages[2]});
}

std::int64_t box_size(const GridCoordinates& members) {
    return static_cast<std::int64_t>(members[0]) * members[1] * members[2];
}

GridCoordinates box_member(const GridCoordinates& members, std::int64_t number) {
    GridCoordinates c{0, 0, 0};
    for (std::size_t a = 0; a < 3; ++a) {
        c[a] = static_cast<int>(number % members[a]);
        number /= members[a];
    }
    return c;
}

std::int64_t message_count(const GridTraffic& traffic) {
    const std::int64_t p = box_size(traffic.members);
    const std::int64_t m = traffic.axis < 0 ? p : traffic.members[static_cast<std::size_t>(traffic.axis)];
    const std::int64_t groups = p / m;
    if (m <= 1) return 0;
    switch (traffic.pattern) {
        case TrafficPattern::RingNeighbour: return groups * m;
        case TrafficPattern::AllPairs: return groups * m * (m - 1);
        case TrafficPattern::XorPartner: {
            std::int64_t n = 0;
            for (std::int64_t i = 0; i < m; ++i) n += (i ^ traffic.distance) < m;
            return groups * n;
        }
        case TrafficPattern::FirstToSecond: return 1;
    }
    return 0;
}

std::vector<GridCoordinates> ring_order(const GridCoordinates& members, int axes) {
    const std::vector<int> spanned = spanned_axes(members, axes);
    const std::int64_t p = box_size(members);
    if (spanned.size() < 2 || p % 2 != 0) return snake(members, spanned, {0, 0, 0});

    // Hamiltonian cycle: axis `along` (whose removal leaves an even count)
    // walked forward on the first row, the other axes' snake numbering the
    // rows; rows 1.. zig-zag over positions 1..m-1 of `along`, and the way
    // back runs through position 0 of `along`, rows last to 1.
    int along = spanned.front();
    for (int a : spanned)
        if ((p / members[static_cast<std::size_t>(a)]) % 2 == 0) {
            along = a;
            break;
        }
    std::vector<int> others;
    for (int a : spanned)
        if (a != along) others.push_back(a);
    const std::vector<GridCoordinates> rows = snake(members, others, {0, 0, 0});
    const auto i = static_cast<std::size_t>(along);
    const int m = members[i];
    std::vector<GridCoordinates> out;
    out.reserve(static_cast<std::size_t>(p));
    for (int x = 0; x < m; ++x) {
        GridCoordinates c = rows[0];
        c[i] = x;
        out.push_back(c);
    }
    for (std::size_t r = 1; r < rows.size(); ++r)
        for (int k = 0; k < m - 1; ++k) {
            GridCoordinates c = rows[r];
            c[i] = r % 2 == 1 ? m - 1 - k : 1 + k;
            out.push_back(c);
        }
    for (std::size_t r = rows.size(); r-- > 1;) {
        GridCoordinates c = rows[r];
        c[i] = 0;
        out.push_back(c);
    }
    return out;
}

}  // namespace dtcalc
