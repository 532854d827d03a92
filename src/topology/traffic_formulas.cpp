#include "topology/traffic_formulas.h"

#include <algorithm>

#include "topology/link_load.h"

namespace dtcalc {
namespace {

struct LineLoad {
    std::int64_t messages = 0;
    int hops = 0;
};

bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// A torus axis partly in the group, where some routes wrap: one line's
// m(m-1) messages routed (O(m^2), m members of the line, not of the grid).
LineLoad routed_line_all_pairs(int m, int n) {
    GridTraffic line;
    line.shape = GridShape{GridKind::Torus, 2, {n, 1, 1}};
    line.members = {m, 1, 1};
    line.axis = 0;
    line.pattern = TrafficPattern::AllPairs;
    const TrafficSummary s = route_traffic(line, {1, 0, 0}).summary;
    return LineLoad{s.max_link_messages[0], s.longest_route_hops[0]};
}

std::optional<LineLoad> line_formula(TrafficPattern pattern, int m, int n, bool wraps, std::int64_t distance) {
    if (m < 2) return LineLoad{};
    const std::int64_t half_down = m / 2;
    const std::int64_t half_up = m - m / 2;
    switch (pattern) {
        case TrafficPattern::RingNeighbour: {
            const int way_back = wraps ? std::min(m - 1, n - m + 1) : m - 1;
            return LineLoad{1, std::max(1, way_back)};
        }
        case TrafficPattern::AllPairs:
            if (wraps && m == n) {
                const std::int64_t k = n / 2;
                return LineLoad{k * (k + 1) / 2, static_cast<int>(k)};
            }
            if (wraps && 2 * (m - 1) >= n) return routed_line_all_pairs(m, n);
            return LineLoad{half_down * half_up, m - 1};
        case TrafficPattern::XorPartner:
            if (!power_of_two(m) || !power_of_two(distance) || distance >= m) return std::nullopt;
            return LineLoad{distance, static_cast<int>(distance)};
        case TrafficPattern::FirstToSecond: return LineLoad{1, 1};
    }
    return std::nullopt;
}

void finish_latency(TrafficSummary& s, const AxisLatencies& latency_ns) {
    s.longest_route_latency_ns = 0;
    for (std::size_t a = 0; a < 3; ++a) s.longest_route_latency_ns += s.longest_route_hops[a] * latency_ns[a];
}

std::optional<TrafficSummary> one_axis(const GridTraffic& t, int axis, std::int64_t distance,
                                       const AxisLatencies& latency_ns) {
    const auto a = static_cast<std::size_t>(axis);
    const auto line = line_formula(t.pattern, t.members[a], t.shape.size[a], t.shape.wraps(), distance);
    if (!line) return std::nullopt;
    TrafficSummary s;
    s.max_link_messages[a] = line->messages;
    s.longest_route_hops[a] = line->hops;
    finish_latency(s, latency_ns);
    return s;
}

std::optional<TrafficSummary> flat_ring(const GridTraffic& t, const std::vector<int>& spanned,
                                        const AxisLatencies& latency_ns) {
    if (spanned.size() == 1) return one_axis(t, spanned.front(), 1, latency_ns);
    TrafficSummary s;
    for (int a : spanned) s.max_link_messages[static_cast<std::size_t>(a)] = 1;
    if (box_size(t.members) % 2 == 0) {
        int slowest = spanned.front();  // one hop; the longest along the axis with the most latency
        for (int a : spanned)
            if (latency_ns[static_cast<std::size_t>(a)] > latency_ns[static_cast<std::size_t>(slowest)]) slowest = a;
        s.longest_route_hops[static_cast<std::size_t>(slowest)] = 1;
    } else {
        // Every side odd: the snake ends at the far corner and routes back.
        for (int a : spanned) {
            const auto i = static_cast<std::size_t>(a);
            const int m = t.members[i];
            s.longest_route_hops[i] = t.shape.wraps() ? std::min(m - 1, t.shape.size[i] - m + 1) : m - 1;
        }
    }
    finish_latency(s, latency_ns);
    return s;
}

std::optional<TrafficSummary> flat(const GridTraffic& t, const AxisLatencies& latency_ns) {
    std::vector<int> spanned;
    for (int a = 0; a < t.shape.axes; ++a)
        if (t.members[static_cast<std::size_t>(a)] > 1) spanned.push_back(a);
    if (spanned.empty()) return TrafficSummary{};
    const std::int64_t p = box_size(t.members);
    switch (t.pattern) {
        case TrafficPattern::RingNeighbour: return flat_ring(t, spanned, latency_ns);
        case TrafficPattern::AllPairs: {
            TrafficSummary s;
            for (int a : spanned) {
                const auto i = static_cast<std::size_t>(a);
                const auto line = line_formula(t.pattern, t.members[i], t.shape.size[i], t.shape.wraps(), 1);
                if (!line) return std::nullopt;
                s.max_link_messages[i] = line->messages * (p / t.members[i]);
                s.longest_route_hops[i] = line->hops;
            }
            finish_latency(s, latency_ns);
            return s;
        }
        case TrafficPattern::XorPartner: {
            if (!power_of_two(p) || !power_of_two(t.distance) || t.distance >= p) return std::nullopt;
            std::int64_t stride = 1;
            for (int a = 0; a < t.shape.axes; ++a) {
                const int m = t.members[static_cast<std::size_t>(a)];
                if (t.distance < stride * m) return one_axis(t, a, t.distance / stride, latency_ns);
                stride *= m;
            }
            return std::nullopt;
        }
        case TrafficPattern::FirstToSecond: return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

std::optional<TrafficSummary> traffic_formula(const GridTraffic& traffic, const AxisLatencies& latency_ns) {
    if (traffic.axis >= 0) return one_axis(traffic, traffic.axis, traffic.distance, latency_ns);
    return flat(traffic, latency_ns);
}

}  // namespace dtcalc
