#pragma once
// Chunks of one collective flowing through its phases.
//
// A collective is cut into `chunks` equal chunks; each chunk visits the same
// phases in order, and phase p runs on the queue of one network dimension.
// A dimension's queue runs at most `slots` chunks at once (ASTRA-sim's
// `active-chunks-per-dimension`); a chunk waiting for a slot is served in the
// order it arrived (ties: lower chunk first). A dimension visited twice
// (reduce-scatter on the way up, all-gather on the way down) shares its slots.
//
// Because every chunk costs the same in a phase, this is a flow shop with
// identical jobs and parallel identical machines per stage. Its completion
// times follow the recurrence
//     start(c, p) = max(end(c, p-1), slot of queue(p) free)
//     end(c, p)   = start(c, p) + duration(p) + stagger(c, p)
// evaluated over chunks x phases in arrival order: O(chunks x phases x slots),
// no messages and no event queue. Without a revisited dimension it reduces to
// the closed form end = (ceil(chunks/slots) - 1) * bottleneck + sum(durations)
// when the bottleneck is the first phase (tested against it).
#include <span>
#include <vector>

namespace dtcalc {

struct PipelinePhase {
    int queue = 0;            ///< dimension whose slots the phase occupies
    double duration_ns = 0;   ///< one chunk's time in the phase, alone
    /// Serialisation of one message on the NPU's link (congestion-aware links
    /// only, else 0): chunks entering the queue less than this apart queue
    /// behind each other once; afterwards they are staggered and do not meet again.
    double link_serialization_ns = 0;
};

struct PipelineResult {
    double total_ns = 0;
    /// Per phase, summed over chunks: time spent waiting for a slot or a
    /// congested link, divided by the number of chunks (mean wait per chunk).
    std::vector<double> mean_wait_ns;
};

PipelineResult run_chunk_pipeline(const std::vector<PipelinePhase>& phases, int chunks, int slots);

/// The same without allocating: returns the total and writes each phase's
/// mean wait per chunk into `mean_wait_ns` (one entry per phase).
double run_chunk_pipeline(std::span<const PipelinePhase> phases, int chunks, int slots, std::span<double> mean_wait_ns);

}  // namespace dtcalc
