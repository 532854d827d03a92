#include "validate/dataset_kind.h"

#include <array>

#include "validate/astrasim_datasets.h"
#include "validate/error_metrics.h"
#include "validate/nccl_tests_dataset.h"

namespace dtcalc {

double ValidationCase::error() const { return relative_error(predicted_ns, measured_ns); }

std::span<const DatasetKind> dataset_kinds() {
    static constexpr std::array<DatasetKind, 3> kinds{{
        {"nccl-tests", "nccl-tests results (collective, GPUs, nodes, size, time) against a preset", &run_nccl_tests_dataset},
        {"astrasim-hgx", "ASTRA-sim's HGX-H100 validation points, ASTRA-sim's prediction beside dtcalc's",
         &run_astrasim_hgx_dataset},
        {"astrasim-reference", "ASTRA-sim 2.0 analytical outputs on their own inputs, both backends",
         &run_astrasim_reference_dataset},
    }};
    return kinds;
}

const DatasetKind* find_dataset_kind(std::string_view name) {
    for (const DatasetKind& kind : dataset_kinds())
        if (kind.name == name) return &kind;
    return nullptr;
}

}  // namespace dtcalc
