#include "collective/chunk_pipeline.h"

#include <algorithm>
#include <array>
#include <limits>

namespace dtcalc {

// Chunks never overtake each other within a phase: they enter the first phase
// in index order, every chunk costs the same in a phase, and slots are served
// in arrival order. So the next chunk to enter phase p is always the lowest
// chunk that has not entered it yet, and choosing what happens next means
// comparing at most one candidate per phase, not one per chunk.
PipelineResult run_chunk_pipeline(const std::vector<PipelinePhase>& phases, int chunks, int slots) {
    PipelineResult result;
    result.mean_wait_ns.assign(phases.size(), 0.0);
    result.total_ns = run_chunk_pipeline(std::span<const PipelinePhase>(phases), chunks, slots, result.mean_wait_ns);
    return result;
}

double run_chunk_pipeline(std::span<const PipelinePhase> phases, int chunks, int slots, std::span<double> mean_wait_ns) {
    const int phase_count = static_cast<int>(phases.size());
    std::fill(mean_wait_ns.begin(), mean_wait_ns.end(), 0.0);
    if (phase_count == 0 || chunks <= 0) return 0;
    slots = std::max(slots, 1);

    // With stateless links and whole batches, the `slots` chunks of a batch
    // enter every queue together and leave it together: a batch behaves as one
    // chunk on a queue with one slot. Same answer, `slots` times less work.
    const bool stateless = std::all_of(phases.begin(), phases.end(),
                                       [](const PipelinePhase& p) { return p.link_serialization_ns == 0; });
    if (stateless && slots > 1 && chunks % slots == 0) {
        chunks /= slots;
        slots = 1;
    }

    int queues = 0;
    for (const PipelinePhase& p : phases) queues = std::max(queues, p.queue + 1);

    // One buffer: slot free times per queue, last entry per queue, per chunk the
    // time it is ready for its next phase, per phase the next chunk to enter it.
    const std::size_t slot_count = static_cast<std::size_t>(queues) * static_cast<std::size_t>(slots);
    const std::size_t needed = slot_count + static_cast<std::size_t>(queues) + static_cast<std::size_t>(chunks);
    std::array<double, 256> small;  // filled below, only as far as needed
    std::vector<double> large;
    double* slot_free = small.data();
    if (needed > small.size()) {
        large.resize(needed);
        slot_free = large.data();
    }
    std::fill(slot_free, slot_free + needed, 0.0);
    double* last_entry = slot_free + slot_count;
    double* ready = last_entry + queues;
    std::fill(last_entry, last_entry + queues, -std::numeric_limits<double>::infinity());
    std::array<int, 64> next_small;
    std::vector<int> next_large;
    int* next_chunk = next_small.data();
    if (phases.size() > next_small.size()) {
        next_large.resize(phases.size());
        next_chunk = next_large.data();
    }
    std::fill(next_chunk, next_chunk + phase_count, 0);

    double finish = 0;
    const long long total = static_cast<long long>(chunks) * phase_count;
    for (long long done = 0; done < total; ++done) {
        // Candidate of phase p: chunk next_chunk[p], if it has finished phase p-1.
        int best_phase = -1;
        double best_ready = 0;
        for (int p = 0; p < phase_count; ++p) {
            const int c = next_chunk[static_cast<std::size_t>(p)];
            if (c >= chunks) continue;
            if (p > 0 && next_chunk[static_cast<std::size_t>(p - 1)] <= c) continue;  // still in phase p-1
            // Ties: the chunk that entered the pipeline first (lower index), then the earlier phase.
            if (best_phase < 0 || ready[c] < best_ready ||
                (ready[c] == best_ready && c < next_chunk[static_cast<std::size_t>(best_phase)])) {
                best_phase = p;
                best_ready = ready[c];
            }
        }
        const PipelinePhase& phase = phases[static_cast<std::size_t>(best_phase)];
        const int chunk = next_chunk[static_cast<std::size_t>(best_phase)];
        double* queue_slots = slot_free + static_cast<std::size_t>(phase.queue) * static_cast<std::size_t>(slots);
        double* slot = std::min_element(queue_slots, queue_slots + slots);
        const double start = std::max(best_ready, *slot);

        // Link contention (congestion-aware links): entering right behind
        // another chunk costs the rest of that chunk's first serialisation.
        double stagger = 0;
        if (phase.link_serialization_ns > 0) {
            double& previous = last_entry[phase.queue];
            stagger = std::max(0.0, previous + phase.link_serialization_ns - start);
            previous = start + stagger;
        }

        const double end = start + stagger + phase.duration_ns;
        mean_wait_ns[static_cast<std::size_t>(best_phase)] += (start - best_ready) + stagger;
        *slot = end;
        ready[chunk] = end;
        ++next_chunk[static_cast<std::size_t>(best_phase)];
        finish = std::max(finish, end);
    }
    for (double& w : mean_wait_ns) w /= chunks;
    return finish;
}

}  // namespace dtcalc
