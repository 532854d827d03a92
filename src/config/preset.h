#pragma once
// A preset: a named system (network, system knobs, backend, device) in
// `presets/NAME.toml`, each citing where its numbers come from.
#include <string>
#include <vector>

#include "compute/system.h"
#include "compute/training_device.h"
#include "config/calibration_table.h"
#include "config/config_value.h"
#include "config/hardware_catalogue.h"

namespace dtcalc {

/// The accelerator (Preset::system.device), from a preset's optional [compute] table:
/// `peak-tflops-bf16`, `peak-tflops-fp8`, `peak-tflops-fp32` (dense TFLOP/s),
/// `hbm-bandwidth-gbps`, `hbm-capacity-gib`, and the achieved fractions of
/// peak `gemm-efficiency` and `gemm-efficiency-fp8` (lists of [FLOPs of one
/// GEMM, fraction] points) or, by shape (compute/gemm_efficiency.h),
/// `gemm-benchmark` and `gemm-benchmark-fp8` ([M, N, K, achieved fraction] of a
/// published benchmark) with `gemm-sms`, `gemm-tiles` ([[rows, columns], ...], default
/// [[128, 256]]) and `gemm-k-overhead` (a fixed cost per tile in elements of K of a
/// bf16 GEMM, default 0; fp8 GEMMs pay peak-fp8 / peak-bf16 times as many);
/// `framework-bytes-per-element` (memory traffic per element of a rank's layer activation,
/// tokens x hidden / tp, per layer and pass, beside the kernels, at the elementwise rate),
/// `attention-efficiency` (one figure) or `attention-forward` and `attention-backward`
/// ([plateau, sequence overhead] each: compute/training_device.h), `memory-efficiency`. Without the table, a preset's
/// device is its system's `peak-perf` and `local-mem-bw` at full efficiency
/// (ASTRA-sim's roofline). `efficiency-assumed-from`: the efficiencies are this
/// device's, not measured on this one; reports say "efficiency assumed from
/// NAME, unvalidated".
///
/// The dense peak (TFLOP/s) a roofline of elements of `datatype_bytes` bytes
/// runs at: 1 byte fp8, 2 bytes bf16, 4 bytes fp32; 0 where the device gives
/// none for that width.
double roofline_peak_for_datatype(const TrainingDevice& compute, int datatype_bytes);

struct Preset {
    std::string name;
    std::string description;
    std::vector<std::string> sources;
    /// The system the preset describes: its network, system knobs (with the
    /// [nccl] table's constants, config/nccl_params_reader.h, in
    /// `system.config.nccl`), backend, and device: the [compute] table's,
    /// or the system's peak-perf and local-mem-bw at full efficiency
    /// (ASTRA-sim's roofline); named after the preset.
    System system;
    /// Whether the preset has a [compute] table (`system.device` is that
    /// table's rather than the roofline of peak-perf and local-mem-bw).
    bool has_compute_table = false;
    /// The constants `dtcalc calibrate` may fit, with their bounds (the
    /// optional [calibration] table, config/calibration_table.h).
    std::vector<CalibratedConstant> calibration;
    std::string path;  ///< the file it was read from ("" when built from flags)
    /// The preset as a whole table (a composed preset expanded): what
    /// `dtcalc preset --write` writes and what reads back as the same preset.
    ConfigValue tree;
};

/// `name_or_path` is a file path (it contains '/' or ends in ".toml") or a
/// preset name looked up as NAME.toml in each of `search_dirs` in turn. A
/// preset either states its tables ([network], [system], optional [compute]
/// and [nccl]) or is composed of catalogue items (`gpu`, optional `nic`,
/// `gpus-per-node`, `nodes`, `nics-per-node`, `host-cpu`; hardware_catalogue.h).
Preset load_preset(const std::string& name_or_path, const std::vector<std::string>& search_dirs);

/// The preset a whole preset table states (as read from a file, or a composed
/// preset expanded), with every check load_preset makes; `path` names it in
/// errors. `dtcalc calibrate` calls it with candidate values set in the tree.
Preset preset_from_config(const ConfigValue& root, const std::string& path);

/// The cluster `request` describes, as the preset it would be (flags: --gpu, --nic, ...).
Preset compose_preset(const ClusterRequest& request, const std::vector<std::string>& search_dirs);

/// "efficiency assumed from h100-sxm, unvalidated" for a device whose
/// efficiencies were borrowed; "" otherwise.
std::string efficiency_note(const std::string& assumed_from);

/// Names of the presets found in `search_dirs`, sorted, without duplicates.
std::vector<std::string> list_presets(const std::vector<std::string>& search_dirs);

}  // namespace dtcalc
