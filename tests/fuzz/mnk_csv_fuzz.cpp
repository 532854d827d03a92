// The GEMM list of `dtcalc gen-workload --mnk` (a CSV of M, N, K per layer),
// turned into a DATA, MODEL and hybrid workload for 16 NPUs in 2 packages,
// printed as ASTRA-sim 1.0 text and read back.
#include "fuzz_target.h"
#include "gemm/gemm_workload.h"
#include "gemm/mnk_table.h"
#include "gemm/v1_writer.h"

extern "C" int DTCALC_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size) {
    using namespace dtcalc;
    try {
        const MnkTable table = parse_mnk_csv_text(std::string(fuzz::as_text(data, size)), "fuzz-gemms.csv");
        const GemmComputeModel compute{roofline_device(900, 3000), 2};
        for (const GemmStrategy strategy : {GemmStrategy::Data, GemmStrategy::Model, GemmStrategy::HybridDataModel}) {
            V1Workload workload;
            try {
                workload = build_gemm_v1_workload(table, {strategy, 16, 2}, compute, "fuzz.txt");
            } catch (const InputError&) {
                continue;
            }
            const std::string text = v1_workload_text(workload);
            fuzz::require_finite_text(text, fuzz::as_text(data, size));
            try {
                (void)parse_v1_workload_text(text, "fuzz.txt");
            } catch (const InputError& e) {
                std::fprintf(stderr, "%s\n", e.what());
                fuzz::finding("a generated workload does not read back", 0);
            }
        }
    } catch (const InputError& e) {
        fuzz::rejected(e);
    }
    return 0;
}
