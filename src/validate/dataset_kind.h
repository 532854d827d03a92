#pragma once
// What `dtcalc validate` runs: datasets of measured (or reference) results,
// each read by a dataset kind — a function that reads its file and computes
// dtcalc's prediction for every row. Adding a kind (training throughputs for
// `predict`, Chakra traces for `astra`) is one function and one registry line.
//
// Kinds now: "nccl-tests" (nccl-tests tables: collective, GPUs, nodes, size,
// time; the `nccl` model through a preset), "astrasim-hgx" (ASTRA-sim's
// HGX-H100 validation points, with ASTRA-sim's own prediction beside ours),
// "astrasim-reference" (ASTRA-sim 2.0 analytical outputs, both backends),
// "training" (published training throughputs through `predict`),
// "chakra-astrasim" (a Chakra trace run like `dtcalc astra`, against ASTRA-sim's
// per-NPU output), "gemm" (GEMMs timed on a device, against the device model),
// "output-layer" (the vocabulary's ends timed op by op on a device).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "validate/nccl_tests_log.h"

namespace dtcalc {

/// One row of a dataset with its prediction, in the row's unit (times in us).
struct ValidationCase {
    std::string dataset;
    std::string group;   ///< e.g. "all-reduce/8gpu/1node"
    std::string label;   ///< the row for a person, e.g. "32 MiB"
    std::string source;  ///< where the measurement comes from (URL, file row)
    double x = 0;        ///< what the plots put on the x axis (bytes, GPUs, ...)
    double measured = 0;
    double predicted = 0;
    std::string unit = "us";          ///< of measured, predicted and reference
    std::optional<double> reference;  ///< another model's prediction of the same row
    std::string model;                   ///< what dtcalc chose, e.g. "nvls/Simple"
    std::string measured_model;          ///< what the measured run chose, where its input says (NCCL's log)

    double error() const;  ///< |predicted / measured - 1|
};

struct DatasetResult {
    std::vector<ValidationCase> cases;
    std::string reference_name;                                   ///< who made reference, e.g. "ASTRA-sim"
    std::string x_label = "size (bytes)";                         ///< the plots' x axis
    bool points_per_model = false;  ///< plots: unrelated cases, drawn as points per model (no line through them)
    std::vector<std::pair<std::string, std::string>> group_notes;  ///< (group, note) shown in the summary
    std::vector<std::string> notes;  ///< about the dataset as a whole (inputs left out), for the front end to show
};

/// A [[dataset]] entry of the gates file.
struct DatasetSpec {
    std::string name;
    std::string kind;
    std::string file;    ///< resolved against the gates file's folder
    std::string preset;  ///< system to predict with (a name or a .toml path)
    std::string algorithm;  ///< nccl: an NCCL_ALGO value (nccl_force.h); empty = NCCL's choice
    std::string protocol;   ///< nccl: an NCCL_PROTO value
    InputLocation algorithm_where, protocol_where;  ///< where each was given
    /// nccl: further NCCL settings as VARIABLE=VALUE (validate --env), each
    /// one nccl_force.h models; `env_where`: where they were given.
    std::vector<std::string> env;
    InputLocation env_where;
    /// Further files a kind needs (name, path resolved like `file`).
    std::vector<std::pair<std::string, std::string>> inputs;
    InputLocation where;    ///< the entry in the gates file
    /// nccl-tests logs without rank lines: nodes and GPUs per node (--nodes, --gpus-per-node).
    NcclLogShape shape;
    /// nccl-tests runs that failed are read for the rows they printed and
    /// noted, instead of stopping the read (--skip-failed-runs; nccl_inputs.h).
    bool skip_failed_runs = false;

    /// The path of input `name`; throws InputError naming the entry when absent.
    const std::string& input(std::string_view name) const;
};

struct ValidationContext {
    std::vector<std::string> preset_dirs;
    std::vector<std::string> model_dirs;
};

using DatasetKindFn = DatasetResult (*)(const DatasetSpec&, const ValidationContext&);

struct DatasetKind {
    std::string_view name;
    std::string_view description;
    DatasetKindFn run;
};

std::span<const DatasetKind> dataset_kinds();
const DatasetKind* find_dataset_kind(std::string_view name);

}  // namespace dtcalc
