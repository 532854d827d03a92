#include "validate/nccl_measurement.h"

#include <fmt/format.h>

#include "collective/backend.h"
#include "collective/nccl/nccl_model.h"
#include "network/cluster_shape.h"
#include "validate/nccl_tests_timing.h"

namespace dtcalc {

std::string nccl_input_place(const InputLocation& at) {
    if (at.line > 0) return at.file + ":" + std::to_string(at.line);
    return at.key.empty() ? at.file : at.file + " (" + at.key + ")";
}

StatedNcclForce stated_nccl_force(const std::vector<NcclStatedSetting>& settings) {
    StatedNcclForce out;
    for (std::string_view variable : nccl_modelled_settings()) {
        for (const NcclStatedSetting& setting : settings) {
            if (setting.variable != variable || setting.value.empty()) continue;
            apply_nccl_setting(out.force, setting.variable, setting.value, setting.at);
            out.origin += (out.origin.empty() ? "" : ", ") + setting.variable + "=" + setting.value + " at " +
                          nccl_input_place(setting.at);
        }
    }
    return out;
}

std::string nccl_discarded_note(int count) {
    return fmt::format("{} row{} of 0 bytes left out (fewer elements than ranks): NCCL discards an empty collective "
                       "(src/enqueue.cc, taskAppend) and runs no kernel; nccl-tests times only the call",
                       count, count == 1 ? "" : "s");
}

std::string nccl_unmodelled_settings_note(const std::vector<std::string>& settings) {
    std::string list;
    for (const std::string& s : settings) list += (list.empty() ? "" : ", ") + s;
    return "the runs set " + list +
           " (NCCL_DEBUG=INFO), which dtcalc does not model: it predicts them as NCCL's defaults (it models " +
           nccl_modelled_settings_list() + ")";
}

std::string nccl_thread_launch_note(int gpus_per_thread) {
    // Public 8-GPU H100 and A100 sweeps run with -g 8 (one thread) take 17-20
    // us more at 8 B than dtcalc's NCCL latency, and than the same node run as
    // 8 processes (validation/nccl/SOURCE.md).
    return fmt::format("nccl-tests drove {0} GPUs from one thread (nGpus {0}): its times below ~1 MiB include {0} "
                       "kernel launches one after another (public 8-GPU runs: 17-20 us more at 8 B than one process "
                       "per GPU), which dtcalc does not predict",
                       gpus_per_thread);
}

std::string nccl_group_name(const NcclMeasurement& row) {
    return std::string(collective_kind_name(row.kind)) + "/" + std::to_string(row.gpus()) + "gpu/" +
           std::to_string(row.nodes) + "node";
}

CollectiveResult predict_nccl_measurement(const System& system, const NcclForce& force, const NcclMeasurement& row) {
    System shaped;  // the system's knobs and backend on the row's shape; the device plays no part
    try {
        shaped.network = shape_cluster(system.network, row.nodes, row.gpus_per_node, system.node_gpus());
    } catch (const InputError& e) {
        throw InputError(row.where, e.detail());
    }
    shaped.config = system.config;
    shaped.backend = system.backend;
    // The dataset's algorithm / protocol (`force`) stand where the run states
    // no choice of its own, and its channel settings where the run states none;
    // a run that states others is an error.
    NcclForce restriction = row.force;
    NcclForce row_choice = row.force;
    row_choice.channels = {};
    NcclForce given_choice = force;
    given_choice.channels = {};
    if (!given_choice.unset()) {
        if (!row_choice.unset() && !(row_choice == given_choice))
            throw InputError(row.where, "the run states its own NCCL_ALGO / NCCL_PROTO (" + row.force_origin +
                                            ") and they differ from the algorithm / protocol forced for the dataset; "
                                            "give one or the other");
        restriction.algorithms = force.algorithms;
        restriction.protocols = force.protocols;
    }
    if (!(force.channels == NcclChannelLimits{})) {
        if (!(row.force.channels == NcclChannelLimits{}) && !(row.force.channels == force.channels))
            throw InputError(row.where, "the run states its own channel settings (" + row.force_origin +
                                            ") and they differ from those given for the dataset; give one or the "
                                            "other");
        restriction.channels = force.channels;
    }
    if (!row.force.unset() && (system.backend != NetworkBackend::Nccl || !system.nccl()))
        throw InputError(row.where, "the run sets " + row.force_origin +
                                        ", which the nccl backend only models (this system uses " +
                                        std::string(network_backend_name(system.backend)) + ")");
    CollectiveQuery query{row.kind, row.bytes, whole_network_group(shaped.network), restriction};
    query.out_of_place = true;  // the rows are nccl-tests' out-of-place times
    query.reduction = row.reduction;
    try {
        CollectiveResult result = collective_time(shaped, query);
        // sendrecv_perf's ranks between a node's first and last use NVLink only
        // and run ahead of the network pairs; nccl-tests prints the mean over
        // ranks (nccl_tests_timing.h).
        if (row.kind == CollectiveKind::SendRecv && row.nodes > 1 && row.gpus_per_node > 2) {
            // A pair of one node: on the communicator's channels per peer for
            // the nccl backend; the ASTRA-sim backends price one node's link.
            double nvlink_ns = 0;
            if (shaped.backend == NetworkBackend::Nccl) {
                nvlink_ns = nccl_send_recv_node_pair_ns(shaped.network, shaped.config, query);
            } else {
                System node = shaped;
                node.network = shape_cluster(system.network, 1, row.gpus_per_node, system.node_gpus());
                nvlink_ns =
                    collective_time(node, {row.kind, row.bytes, whole_network_group(node.network), restriction}).time_ns;
            }
            result.time_ns = nccl_tests_sendrecv_printed_ns(row.nodes, row.gpus_per_node, result.time_ns, nvlink_ns,
                                                            row.timed_operations);
        }
        return result;
    } catch (const InputError& e) {  // keep what the engine says (and a preset's location), at the row
        throw InputError(row.where, e.what());
    }
}

}  // namespace dtcalc
