#pragma once
// The system layer's knobs, named as in ASTRA-sim's system JSON.
#include <array>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/collective_kind.h"
#include "core/error.h"

namespace dtcalc {

struct NcclParameters;  // collective/nccl/nccl_parameters.h

enum class AlgorithmKind { Ring, Direct, HalvingDoubling, DoubleBinaryTree };

/// One entry of an `*-implementation` list: the algorithm, and whether it is a
/// flat `one*` variant that treats all the group's dimensions as one.
struct AlgorithmChoice {
    AlgorithmKind kind = AlgorithmKind::Ring;
    bool flat = false;
};

/// "ring", "direct", "halvingDoubling", "doubleBinaryTree", "oneRing",
/// "oneDirect", "oneHalvingDoubling", "oneDoubleBinaryTree".
std::optional<AlgorithmChoice> parse_algorithm(std::string_view name);
std::string_view algorithm_name(AlgorithmKind kind);

enum class CollectiveOptimization { Baseline, LocalBWAware };
enum class SchedulingPolicy { LIFO, FIFO };

std::optional<CollectiveOptimization> parse_collective_optimization(std::string_view name);
std::string_view collective_optimization_name(CollectiveOptimization value);
std::optional<SchedulingPolicy> parse_scheduling_policy(std::string_view name);
std::string_view scheduling_policy_name(SchedulingPolicy value);

struct SystemConfig {
    /// Per collective (index = CollectiveKind, all but SendRecv), one algorithm
    /// per network dimension; a single flat `one*` entry covers all dimensions.
    std::array<std::vector<AlgorithmChoice>, kGroupCollectiveKinds> implementation;
    /// Where each implementation entry was read (file, line, column, key), so a
    /// collective the entry cannot run names it; empty for a system built in code.
    std::array<std::vector<InputLocation>, kGroupCollectiveKinds> implementation_where;
    int preferred_dataset_splits = 1;     ///< chunks a collective is cut into
    int active_chunks_per_dimension = 1;  ///< chunks in flight per dimension queue
    double endpoint_delay_ns = 0;         ///< per message step at the NPU
    double local_mem_bw_gbps = 0;         ///< local reduction bandwidth (GB/s, decimal)
    CollectiveOptimization collective_optimization = CollectiveOptimization::Baseline;
    SchedulingPolicy scheduling_policy = SchedulingPolicy::LIFO;
    // Compute side (roofline); zero when the file does not give them.
    double peak_perf_tflops = 0;
    bool roofline_enabled = false;
    bool track_local_mem = false;
    /// The nccl backend's constants (a preset's [nccl] table); null when absent.
    std::shared_ptr<const NcclParameters> nccl;

    const std::vector<AlgorithmChoice>& algorithms_for(CollectiveKind kind) const {
        return implementation[static_cast<int>(kind)];
    }
};

}  // namespace dtcalc
