#pragma once
// Collective algorithms as closed forms: for one chunk of one phase on p NPUs
// of one dimension, the steps it takes, the bytes of each message, how far the
// farthest peer of a step is, and whether the step ends with a local reduction.
//
// `data_bytes` is the data the phase works on for one chunk: the buffer being
// reduced (all-reduce, reduce-scatter input, all-to-all buffer) or the buffer
// being assembled (all-gather output). Every NPU holds data_bytes / p of it as
// its own block.
//
//   algorithm         collective      steps            bytes per message
//   ring              all-reduce      2(p-1)           D/p  (first p-1 reduce)
//   ring              reduce-scatter  p-1              D/p  (all reduce)
//   ring              all-gather      p-1              D/p
//   ring              all-to-all      p(p-1)/2         D/p  (one after another)
//   direct            reduce-scatter  1, to p-1 peers  D/p  (reduces)
//   direct            all-gather      1, to p-1 peers  D/p
//   direct            all-reduce      reduce-scatter then all-gather
//   direct            all-to-all      1, to p-1 peers  D/p
//   halvingDoubling   reduce-scatter  log2 p           D/2, D/4, ... D/p (reduce)
//   halvingDoubling   all-gather      log2 p           D/p, ... D/4, D/2
//   halvingDoubling   all-reduce      reduce-scatter then all-gather
//   doubleBinaryTree  all-reduce      2 floor(log2 p)  D    (every step reduces)
//
// A step's endpoint delay and its link costs are the caller's (link_cost.h);
// this file only counts.
#include <array>
#include <cstdint>

#include "core/collective_kind.h"
#include "system/system_config.h"

namespace dtcalc {

struct StepRun {
    long long count;             ///< identical steps, one after another (p(p-1)/2 needs 64 bits)
    std::uint64_t message_bytes; ///< bytes per message
    int peer_distance;           ///< farthest peer in a step, in group positions
    int messages_per_step;       ///< messages an NPU sends at once in a step
    bool reduces;                ///< the step ends with a local reduction
};

/// The runs of one phase, stored inline (no allocation: the engine prices
/// millions of these a second). halvingDoubling needs one run per step, at most
/// 2 x 31 for an int-sized group.
class StepRuns {
public:
    static constexpr int kCapacity = 64;
    void push_back(const StepRun& run) { runs_[static_cast<std::size_t>(size_++)] = run; }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const StepRun& operator[](int i) const { return runs_[static_cast<std::size_t>(i)]; }
    const StepRun* begin() const { return runs_.data(); }
    const StepRun* end() const { return runs_.data() + size_; }

private:
    std::array<StepRun, kCapacity> runs_;
    int size_ = 0;
};

struct AlgorithmSteps {
    StepRuns runs;
    long long total_steps() const;
};

/// Throws std::invalid_argument for a combination that does not exist
/// (halvingDoubling all-to-all; doubleBinaryTree other than all-reduce);
/// callers check `supports` first.
AlgorithmSteps algorithm_steps(CollectiveKind kind, AlgorithmKind algorithm, int npus, std::uint64_t data_bytes);

bool supports(CollectiveKind kind, AlgorithmKind algorithm);

}  // namespace dtcalc
