#include "topology/link_load.h"

#include <algorithm>
#include <cstdlib>

namespace dtcalc {
namespace {

// Lines along `axis`: the grid's NPUs with that axis's coordinate left out,
// numbered with the remaining axes in order, fastest first.
std::int64_t line_of(const GridShape& shape, int axis, const GridCoordinates& c) {
    std::int64_t line = 0;
    for (int a = shape.axes; a-- > 0;)
        if (a != axis) line = line * shape.size[static_cast<std::size_t>(a)] + c[static_cast<std::size_t>(a)];
    return line;
}

GridCoordinates line_start(const GridShape& shape, int axis, std::int64_t line) {
    GridCoordinates c{0, 0, 0};
    for (int a = 0; a < shape.axes; ++a) {
        if (a == axis) continue;
        const int n = shape.size[static_cast<std::size_t>(a)];
        c[static_cast<std::size_t>(a)] = static_cast<int>(line % n);
        line /= n;
    }
    return c;
}

}  // namespace

LinkLoadCounter::LinkLoadCounter(const GridShape& shape, const AxisLatencies& latency_ns)
    : shape_(shape), latency_ns_(latency_ns) {
    std::int64_t total = 0;
    for (int a = 0; a < shape.axes; ++a) {
        const std::int64_t n = shape.size[static_cast<std::size_t>(a)];
        offset_[static_cast<std::size_t>(a)] = total;
        total += 2 * (shape.npus() / n) * (n + 1);
    }
    diff_.assign(static_cast<std::size_t>(total), 0);
}

// `move` positions from `at` along `axis` (sign = direction). A forward link
// at position p goes p -> p+1, a backward one p -> p-1.
void LinkLoadCounter::add_run(int axis, const GridCoordinates& at, int move) {
    const auto i = static_cast<std::size_t>(axis);
    const int n = shape_.size[i];
    const int direction = move > 0 ? 0 : 1;
    const std::int64_t lines = shape_.npus() / n;
    std::int64_t* line = diff_.data() + offset_[i] + (direction * lines + line_of(shape_, axis, at)) * (n + 1);
    auto add = [line](int first, int last_exclusive) {
        ++line[first];
        --line[last_exclusive];
    };
    const int u = at[i];
    if (move > 0) {
        if (u + move <= n) {
            add(u, u + move);
        } else {
            add(u, n);
            add(0, u + move - n);
        }
    } else {
        const int first = u + move + 1;  // lowest link position used
        if (first >= 0) {
            add(first, u + 1);
        } else {
            add(0, u + 1);
            add(n + first, n);
        }
    }
}

void LinkLoadCounter::add_flow(const GridCoordinates& src, const GridCoordinates& dst) {
    ++flows_;
    GridCoordinates at = src;
    GridCoordinates hops{0, 0, 0};
    double latency = 0;
    for (int a = 0; a < shape_.axes; ++a) {
        const auto i = static_cast<std::size_t>(a);
        const int move = axis_displacement(shape_, a, at[i], dst[i]);
        if (move == 0) continue;
        add_run(a, at, move);
        hops[i] = std::abs(move);
        latency += hops[i] * latency_ns_[i];
        at[i] = dst[i];
    }
    const int total = hops[0] + hops[1] + hops[2];
    if (latency > longest_latency_ ||
        (latency == longest_latency_ && total > longest_hops_[0] + longest_hops_[1] + longest_hops_[2])) {
        longest_latency_ = latency;
        longest_hops_ = hops;
    }
}

LinkLoads LinkLoadCounter::finish() const {
    LinkLoads out;
    out.shape = shape_;
    out.flows = flows_;
    out.messages.assign(static_cast<std::size_t>(link_slots(shape_)), 0);
    for (int a = 0; a < shape_.axes; ++a) {
        const auto i = static_cast<std::size_t>(a);
        const int n = shape_.size[i];
        const std::int64_t lines = shape_.npus() / n;
        const std::int64_t stride = shape_.stride(a);
        for (int direction = 0; direction < 2; ++direction)
            for (std::int64_t l = 0; l < lines; ++l) {
                const std::int64_t* line = diff_.data() + offset_[i] + (direction * lines + l) * (n + 1);
                const std::int64_t base = shape_.node_at(line_start(shape_, a, l));
                std::int64_t load = 0;
                for (int p = 0; p < n; ++p) {
                    load += line[p];
                    if (load == 0) continue;
                    const std::int64_t node = base + p * stride;
                    out.messages[static_cast<std::size_t>(
                        link_index(shape_, node, a, static_cast<LinkDirection>(direction)))] = load;
                    out.summary.max_link_messages[i] = std::max(out.summary.max_link_messages[i], load);
                }
            }
    }
    if (flows_ > 0) {
        out.summary.longest_route_hops = longest_hops_;
        out.summary.longest_route_latency_ns = longest_latency_;
    }
    return out;
}

std::vector<LinkLoadEntry> LinkLoads::busiest(std::size_t count) const {
    std::vector<std::int64_t> loaded;
    for (std::size_t k = 0; k < messages.size(); ++k)
        if (messages[k] > 0) loaded.push_back(static_cast<std::int64_t>(k));
    const std::size_t keep = std::min(count, loaded.size());
    std::partial_sort(loaded.begin(), loaded.begin() + static_cast<std::ptrdiff_t>(keep), loaded.end(),
                      [this](std::int64_t a, std::int64_t b) {
                          const auto ma = messages[static_cast<std::size_t>(a)];
                          const auto mb = messages[static_cast<std::size_t>(b)];
                          return ma != mb ? ma > mb : a < b;
                      });
    std::vector<LinkLoadEntry> out;
    for (std::size_t k = 0; k < keep; ++k) {
        LinkLoadEntry e;
        e.link = link_at(shape, loaded[k]);
        e.to = link_target(shape, e.link);
        e.messages = messages[static_cast<std::size_t>(loaded[k])];
        out.push_back(e);
    }
    return out;
}

LinkLoads route_traffic(const GridTraffic& traffic, const AxisLatencies& latency_ns) {
    LinkLoadCounter counter(traffic.shape, latency_ns);
    for_each_flow(traffic, [&counter](const GridCoordinates& s, const GridCoordinates& d) { counter.add_flow(s, d); });
    return counter.finish();
}

}  // namespace dtcalc
