#include "collective/chunk_pipeline.h"

#include <algorithm>
#include <limits>

namespace dtcalc {

PipelineResult run_chunk_pipeline(const std::vector<PipelinePhase>& phases, int chunks, int slots) {
    PipelineResult result;
    result.mean_wait_ns.assign(phases.size(), 0.0);
    if (phases.empty() || chunks <= 0) return result;
    slots = std::max(slots, 1);

    int queues = 0;
    for (const PipelinePhase& p : phases) queues = std::max(queues, p.queue + 1);
    // Per queue: when each slot becomes free, and when the last chunk entered.
    std::vector<double> slot_free(static_cast<std::size_t>(queues) * slots, 0.0);
    std::vector<double> last_entry(static_cast<std::size_t>(queues),
                                   -std::numeric_limits<double>::infinity());

    // Chunk state: the next phase to run and when the chunk is ready for it.
    std::vector<int> next_phase(static_cast<std::size_t>(chunks), 0);
    std::vector<double> ready(static_cast<std::size_t>(chunks), 0.0);
    const int total_steps = chunks * static_cast<int>(phases.size());
    double finish = 0;

    for (int step = 0; step < total_steps; ++step) {
        // Serve the chunk that reached its next queue first (ties: lowest index).
        int chosen = -1;
        for (int c = 0; c < chunks; ++c) {
            if (next_phase[c] >= static_cast<int>(phases.size())) continue;
            if (chosen < 0 || ready[c] < ready[chosen]) chosen = c;
        }
        const PipelinePhase& phase = phases[static_cast<std::size_t>(next_phase[chosen])];
        double* queue_slots = &slot_free[static_cast<std::size_t>(phase.queue) * slots];
        double* slot = std::min_element(queue_slots, queue_slots + slots);
        const double start = std::max(ready[chosen], *slot);

        // Link contention: entering right behind another chunk costs the rest
        // of that chunk's first serialisation.
        double& previous = last_entry[static_cast<std::size_t>(phase.queue)];
        const double stagger = std::max(0.0, previous + phase.link_serialization_ns - start);
        previous = start + stagger;

        const double end = start + stagger + phase.duration_ns;
        result.mean_wait_ns[static_cast<std::size_t>(next_phase[chosen])] +=
            (start - ready[chosen]) + stagger;
        *slot = end;
        ready[chosen] = end;
        ++next_phase[chosen];
        finish = std::max(finish, end);
    }
    for (double& w : result.mean_wait_ns) w /= chunks;
    result.total_ns = finish;
    return result;
}

}  // namespace dtcalc
