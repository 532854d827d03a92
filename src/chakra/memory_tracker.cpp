#include "chakra/memory_tracker.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "core/error.h"

namespace dtcalc::chakra {

std::uint64_t peak_local_memory(const TraceGraph& trace, const Schedule& schedule, int role) {
    const std::uint32_t begin = trace.role_ops[static_cast<std::size_t>(role)];
    const std::uint32_t end = trace.role_ops[static_cast<std::size_t>(role) + 1];
    if (begin == end) return 0;
    const RankTrace& shape = trace.traces.shapes[static_cast<std::size_t>(trace.ops[begin].shape)];

    std::vector<std::uint32_t> order;
    order.reserve(end - begin);
    for (std::uint32_t i = begin; i < end; ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return schedule.ops[a].end_ns < schedule.ops[b].end_ns;
    });

    constexpr double kUnset = -1;
    const std::size_t names = shape.strings.size();
    std::vector<std::uint64_t> size(names, 0);
    std::vector<double> written(names, kUnset);
    std::vector<double> last_read(names, kUnset);
    for (std::uint32_t op : order) {
        const TraceNode& n = shape.nodes[trace.ops[op].node];
        const OpTiming& t = schedule.ops[op];
        for (std::uint32_t k = 0; k < n.inputs; ++k) {
            const TensorRef& r = shape.tensors[n.tensor_begin + k];
            if (r.bytes == 0) continue;
            if (written[r.name] == kUnset) {
                written[r.name] = 0;
                size[r.name] = r.bytes;
            }
            last_read[r.name] = t.end_ns;
        }
        for (std::uint32_t k = 0; k < n.outputs; ++k) {
            const TensorRef& r = shape.tensors[n.tensor_begin + n.inputs + k];
            if (r.bytes == 0 || written[r.name] != kUnset) continue;
            written[r.name] = t.start_ns;
            size[r.name] = r.bytes;
        }
    }

    // (tick, order, bytes): at one tick appearances (order 0) before deaths (order 1).
    struct Change {
        double tick;
        int order;
        std::int64_t bytes;
    };
    std::vector<Change> changes;
    for (std::size_t i = 0; i < names; ++i) {
        if (written[i] == kUnset) continue;
        const auto bytes = static_cast<std::int64_t>(size[i]);
        changes.push_back({written[i], 0, bytes});
        if (last_read[i] != kUnset) changes.push_back({last_read[i], 1, -bytes});
    }
    std::sort(changes.begin(), changes.end(),
              [](const Change& a, const Change& b) { return a.tick != b.tick ? a.tick < b.tick : a.order < b.order; });
    std::int64_t in_use = 0, peak = 0;
    for (std::size_t i = 0; i < changes.size();) {
        const double tick = changes[i].tick;
        for (; i < changes.size() && changes[i].tick == tick; ++i)
            // Each tensor is <= 2^50 B (trace_decoder.h); a sum of many could still pass 2^63.
            if (__builtin_add_overflow(in_use, changes[i].bytes, &in_use))
                throw InputError({trace.traces.prefix, 0, 0, ""},
                                 "out of range: the tensors live at once on one NPU add up to 2^63 bytes or more");
        peak = std::max(peak, in_use);
    }
    return static_cast<std::uint64_t>(peak);
}

}  // namespace dtcalc::chakra
