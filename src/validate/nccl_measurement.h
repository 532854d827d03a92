#pragma once
// One measured nccl-tests row, wherever it was read from (a dataset CSV or a
// raw nccl-tests log): the collective, the cluster shape it ran on, the size
// as nccl-tests counts it and the out-of-place time. `validate` and
// `calibrate` predict it the same way.
#include <cstdint>
#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_force.h"
#include "collective/nccl/nccl_parameters.h"
#include "collective/nccl/nccl_reduction.h"
#include "compute/system.h"
#include "core/collective_kind.h"
#include "core/error.h"

namespace dtcalc {

struct NcclMeasurement {
    CollectiveKind kind = CollectiveKind::AllReduce;
    int nodes = 1;
    int gpus_per_node = 1;
    std::uint64_t bytes = 0;  ///< nccl-tests' "size" (the whole buffer; all-gather: the output)
    double time_us = 0;       ///< out-of-place time, > 0
    InputLocation where;      ///< the row: file and line
    std::string source;       ///< where the measurement comes from (a CSV's source_url, else file:line)
    /// The NCCL settings the run was made with (NCCL_ALGO, NCCL_PROTO,
    /// NCCL_NVLS_ENABLE, the channel settings: nccl_modelled_settings()), where its input states
    /// them (a log's NCCL_DEBUG=INFO lines); unset otherwise.
    NcclForce force;
    std::string force_origin;  ///< where `force` was read ("file:line"), for messages
    /// The type and op the row reduced (nccl-tests' "type" and "redop"
    /// columns; float and sum where the input does not say): NVLS runs only
    /// for what the switch reduces (collective/nccl/nccl_reduction.h).
    NcclReduction reduction;
    /// NCCL settings the run states that dtcalc does not model
    /// ("NCCL_MAX_NCHANNELS=2"): predicted as NCCL's defaults, and said so.
    std::vector<std::string> unmodelled_settings;
    /// What NCCL itself ran at this size, where the log says it
    /// (NCCL_DEBUG_SUBSYS=TUNING: "AllReduce: 1048576 Bytes -> Algo TREE
    /// proto LL128 channel{Lo..Hi}={0..15}"), in dtcalc's names
    /// ("tree/LL128"), and on how many channels; empty and 0 otherwise.
    std::string nccl_ran;
    int nccl_ran_channels = 0;
    /// GPUs one thread of nccl-tests drove (its header's nGpus, -g); 1 with a
    /// process per GPU and for dataset CSVs. One thread launches its GPUs'
    /// kernels in turn, which small sizes show and dtcalc does not predict.
    int gpus_per_thread = 1;
    /// Operations nccl-tests timed back to back for the row: its -n (the
    /// header's "iters:", times "graph:" launches where it captured a CUDA
    /// graph); nccl-tests' own default, 20, where the input does not say.
    /// The printed time is the mean over ranks of each rank's own time over
    /// them (validate/nccl_tests_timing.h).
    std::int64_t timed_operations = 20;

    int gpus() const { return nodes * gpus_per_node; }
};

/// A place in an input as a message names it: "file:line" where the line is
/// known, else "file (key)" (a JSON member), else the file.
std::string nccl_input_place(const InputLocation& at);

/// One NCCL setting a run states (one of nccl_modelled_settings()): its
/// variable, value, and where.
struct NcclStatedSetting {
    std::string variable;  ///< "NCCL_ALGO", "NCCL_MAX_NCHANNELS", ...
    std::string value;
    InputLocation at;
};

/// A run's own NCCL settings (those it does not state: unset), read at where
/// its input states them, in nccl_modelled_settings()'s order: the
/// restriction, and "NCCL_ALGO=Ring at file:line" for messages. Throws
/// InputError at the place for a value NCCL rejects.
struct StatedNcclForce {
    NcclForce force;
    std::string origin;
};
StatedNcclForce stated_nccl_force(const std::vector<NcclStatedSetting>& settings);

/// Why `count` rows of 0 bytes (MeasuredInputs::discarded) are left out.
std::string nccl_discarded_note(int count);

/// Which NCCL settings the runs made that dtcalc does not model.
std::string nccl_unmodelled_settings_note(const std::vector<std::string>& settings);

/// What a run where one thread drove `gpus_per_thread` GPUs (> 1) adds to
/// its small sizes, for a note beside its rows.
std::string nccl_thread_launch_note(int gpus_per_thread);

/// "all-reduce/8gpu/1node": the group `validate` and `calibrate` summarise by
/// (collective x total GPUs x nodes).
std::string nccl_group_name(const NcclMeasurement& row);

/// dtcalc's prediction of `row` on `system` (a preset's) reshaped to the row's
/// nodes x GPUs per node (network/cluster_shape.h), the whole cluster as the
/// communicator, with NCCL's choice restricted by the row's own NCCL_ALGO /
/// NCCL_PROTO, else by `force` (a dataset's or the command line's). Throws
/// InputError at the row for a shape the system cannot take, and where the
/// row's settings and `force` differ. Send/recv across nodes is priced as
/// nccl-tests prints it (nccl_tests_timing.h): its network pairs take the
/// operation's time, its NVLink pairs that of a pair of one node within the
/// same communicator (nccl backend; the ASTRA-sim backends: one node's).
CollectiveResult predict_nccl_measurement(const System& system, const NcclForce& force, const NcclMeasurement& row);

}  // namespace dtcalc
