#pragma once
// The time of one collective on a group of a network, in closed form, with a
// breakdown per phase. This is the engine's front door.
//
//   chunks   = preferred-dataset-splits; chunk = size / chunks (for all-gather,
//              of each NPU's input), raised to the group size when smaller
//              (not for all-gather), as ASTRA-sim does
//   phases   = plan_phases(...)                       (phase_plan.h)
//   a phase  = (steps + 1) x endpoint delay
//            + sum over steps of the step's link cost  (link_cost.h)
//              (on a Mesh2D/Torus dimension: its busiest link and
//              longest route, collective/grid_collective.h)
//            + a local reduction after each reducing step
//   total    = chunks through the phases, at most active-chunks-per-dimension
//              per dimension at once                   (chunk_pipeline.h)
//
// On one dimension of Ring, Switch or FullyConnected, the ASTRA-sim backends'
// cases these forms do not get exactly (every congestion-aware collective;
// doubleBinaryTree and direct all-reduce on a Ring on either backend) are
// priced message by message instead (message_model.h), within its bounds;
// CollectiveResult::method says which.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "collective/backend.h"
#include "collective/comm_group.h"
#include "collective/nccl/nccl_force.h"
#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_reduction.h"
#include "core/collective_kind.h"
#include "network/network.h"
#include "system/system_config.h"

namespace dtcalc {

struct CollectiveQuery {
    CollectiveKind kind = CollectiveKind::AllReduce;
    /// The whole buffer as nccl-tests counts it: the all-gather output, the
    /// reduce-scatter input, the all-reduce and all-to-all buffer, the message.
    std::uint64_t bytes = 0;
    CommGroup group;
    /// The nccl backend: an algorithm or protocol forced like NCCL_ALGO /
    /// NCCL_PROTO, and channel bounds like NCCL_MIN/MAX_NCHANNELS (the
    /// ASTRA-sim backends take theirs from the system).
    NcclForce nccl;
    /// Every GPU of the nodes the group spans runs a copy of this collective
    /// at the same time, as in a training step (the data-parallel groups and
    /// pipeline sends of a node's tensor-parallel ranks run in lockstep);
    /// false: the group alone, as nccl-tests runs it. The nccl backend then
    /// splits a NIC that several GPUs share among the copies on it.
    bool on_every_gpu = false;
    /// The output is a buffer apart from the input, as in nccl-tests' first
    /// (out-of-place) time column; false: in place, as a training step's
    /// gradients and activations are reduced. It matters on one rank, where
    /// the nccl backend then prices NCCL's copy (nccl_one_rank.h).
    bool out_of_place = false;
    /// What a reducing collective reduces (nccl-tests' -d and -o; float and
    /// sum by default). The nccl backend runs NVLS only where the switch can
    /// reduce it (nccl_reduction.h); the ASTRA-sim backends ignore it.
    NcclReduction reduction{};
};

struct PhaseBreakdown {
    int dimension = 0;
    CollectiveKind kind = CollectiveKind::AllReduce;
    AlgorithmChoice algorithm;
    int npus = 1;
    long long steps = 0;
    std::uint64_t bytes_per_step = 0;  ///< largest message of the phase
    // Per chunk, for one pass of this phase:
    double latency_ns = 0;    ///< hops x latency, summed over steps
    double bandwidth_ns = 0;  ///< serialisation, summed over steps
    double endpoint_ns = 0;   ///< endpoint delays
    double reduction_ns = 0;  ///< local reductions
    double time_ns = 0;       ///< the phase alone, after rounding
    double wait_ns = 0;       ///< mean wait per chunk for a slot (chunk batching, pipelining) or a busy link
};

struct CollectiveResult {
    double time_ns = 0;  ///< ASTRA-sim backends: when rank 0 finishes (its `sys[0] finished`)
    /// The earliest and latest rank's finish; both equal time_ns where every
    /// rank finishes together (all but doubleBinaryTree and halvingDoubling on
    /// a congestion-aware Ring).
    double ranks_min_ns = 0;
    double ranks_max_ns = 0;
    /// Each rank's own finish, by position in the group (ASTRA-sim's
    /// `sys[i] finished` on a collective-only workload); empty when every rank
    /// finishes at time_ns.
    std::vector<double> rank_finish_ns;
    /// How the time was found: "closed form" (per-phase formulas and the chunk
    /// pipeline), or message_model.h's "one rank's recurrence", "one rank's
    /// event pass" or "every rank's event pass"; empty for the nccl backend.
    std::string_view method;
    int chunks = 0;
    std::uint64_t chunk_bytes = 0;
    std::vector<PhaseBreakdown> phases;
    /// The nccl backend's choice, e.g. "nvls/Simple" (a static string); empty
    /// for the ASTRA-sim backends.
    std::string_view algorithm;
    /// The nccl backend only: the choice's algorithm ("nvls") and protocol
    /// ("Simple"), NICs in use per node (0 on one node) and channels it runs.
    std::string_view nccl_algorithm;
    std::string_view nccl_protocol;
    int nics = 0;
    int channels = 0;
};

/// Throws InputError at the system's implementation entry when it has no algorithm
/// for it (check_phase_algorithms, phase_plan.h), key "collective" for a grid it
/// cannot model,
/// (key "size") when the size is over kMaxMessageBytes (core/units.h).
/// Backend nccl: see collective/nccl/nccl_model.h.
CollectiveResult collective_time(const Network& network, const SystemConfig& system, NetworkBackend backend,
                                 const CollectiveQuery& query);

}  // namespace dtcalc
