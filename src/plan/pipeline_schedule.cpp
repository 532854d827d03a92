#include "plan/pipeline_schedule.h"

#include <algorithm>

namespace dtcalc {
namespace {

long long forward_passes(const ParallelPlan& p) {
    return p.micro_batches() * (p.schedule == PipelineSchedule::Interleaved ? p.vpp : 1);
}

}  // namespace

long long warmup_passes(const ParallelPlan& p, int stage) {
    const long long total = forward_passes(p);
    if (p.pp == 1) return 0;
    switch (p.schedule) {
        case PipelineSchedule::GPipe: return total;
        case PipelineSchedule::OneFOneB: return std::min<long long>(p.pp - stage - 1, total);
        case PipelineSchedule::Interleaved:
            return std::min<long long>(2LL * (p.pp - stage - 1) + static_cast<long long>(p.vpp - 1) * p.pp, total);
    }
    return total;
}

long long passes_in_flight(const ParallelPlan& p, int stage) {
    return std::min(warmup_passes(p, stage) + 1, forward_passes(p));
}

std::vector<Pass> stage_schedule(const ParallelPlan& p, int stage) {
    const int m = static_cast<int>(p.micro_batches());
    const int warmup = static_cast<int>(warmup_passes(p, stage));
    std::vector<Pass> out;
    if (p.schedule != PipelineSchedule::Interleaved || p.pp == 1) {
        // GPipe, 1F1B and no pipeline: `warmup` forwards, then one forward and
        // one backward in turn, then the remaining backwards, oldest first.
        // (GPipe's backwards in the reverse order of its forwards.)
        out.reserve(static_cast<std::size_t>(2 * m));
        for (int j = 0; j < warmup; ++j) out.push_back({true, j, 0});
        for (int j = 0; j < m - warmup; ++j) {
            out.push_back({true, warmup + j, 0});
            out.push_back({false, j, 0});
        }
        if (p.schedule == PipelineSchedule::GPipe)
            for (int j = m - 1; j >= m - warmup; --j) out.push_back({false, j, 0});
        else
            for (int j = m - warmup; j < m; ++j) out.push_back({false, j, 0});
        return out;
    }
    // Interleaved 1F1B: micro-batches go round the virtual chunks in groups of pp.
    const int v = p.vpp;
    const int total = m * v;
    out.reserve(static_cast<std::size_t>(2 * total));
    auto micro_batch = [&](int k) { return (k / (p.pp * v)) * p.pp + k % p.pp; };
    auto forward_chunk = [&](int k) { return (k / p.pp) % v; };
    auto backward_chunk = [&](int k) { return v - 1 - (k / p.pp) % v; };
    for (int k = 0; k < warmup; ++k) out.push_back({true, micro_batch(k), forward_chunk(k)});
    for (int k = 0; k < total - warmup; ++k) {
        out.push_back({true, micro_batch(warmup + k), forward_chunk(warmup + k)});
        out.push_back({false, micro_batch(k), backward_chunk(k)});
    }
    for (int k = total - warmup; k < total; ++k) out.push_back({false, micro_batch(k), backward_chunk(k)});
    return out;
}

}  // namespace dtcalc
