#include "validate/dataset_kind.h"

#include <array>

#include "validate/astrasim_datasets.h"
#include "validate/chakra_dataset.h"
#include "validate/error_metrics.h"
#include "validate/gemm_dataset.h"
#include "validate/output_layer_dataset.h"
#include "validate/nccl_tests_dataset.h"
#include "validate/training_dataset.h"

namespace dtcalc {

double ValidationCase::error() const { return relative_error(predicted, measured); }

const std::string& DatasetSpec::input(std::string_view key) const {
    for (const auto& [name, path] : inputs)
        if (name == key) return path;
    InputLocation at = where;
    at.key = "inputs." + std::string(key);
    throw InputError(at, "missing: dataset kind '" + kind + "' needs this input file");
}

std::span<const DatasetKind> dataset_kinds() {
    static constexpr std::array<DatasetKind, 7> kinds{{
        {"nccl-tests", "nccl-tests results (collective, GPUs, nodes, size, time) against a preset",
         &run_nccl_tests_dataset},
        {"astrasim-hgx", "ASTRA-sim's HGX-H100 validation points, ASTRA-sim's prediction beside dtcalc's",
         &run_astrasim_hgx_dataset},
        {"astrasim-reference", "ASTRA-sim 2.0 analytical outputs on their own inputs, both backends",
         &run_astrasim_reference_dataset},
        {"training", "published training throughputs through predict", &run_training_dataset},
        {"chakra-astrasim", "a Chakra trace run like dtcalc astra, against ASTRA-sim's per-NPU output",
         &run_chakra_dataset},
        {"gemm", "GEMMs timed on a device, against the device model a training step uses", &run_gemm_dataset},
        {"output-layer", "the embedding, logits GEMMs and loss timed op by op on a device, against a training step's costs",
         &run_output_layer_dataset},
    }};
    return kinds;
}

const DatasetKind* find_dataset_kind(std::string_view name) {
    for (const DatasetKind& kind : dataset_kinds())
        if (kind.name == name) return &kind;
    return nullptr;
}

}  // namespace dtcalc
