// validation/chakra: the STAGE sanity trace (16 NPUs) against ASTRA-sim's own
// output on it (astrasim_output_sanity_system16.csv, see SOURCE.md).
// Bounds of the issue: wall time and exposed communication within 2 %, GPU
// time within 0.1 %, peak memory within 1 %. dtcalc follows ASTRA-sim's rules
// for this trace closely enough to reproduce the cycle counts exactly, which
// is checked too, so a change that moves any of them is caught.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "chakra/astra_run.h"
#include "chakra_test_traces.h"

using namespace dtcalc;

namespace {

struct Reference {
    int sys_id = 0;
    double wall = 0, gpu = 0, comm = 0, exposed = 0, bound = 0, comp_util = 0, mem_util = 0, intensity = 0, peak = 0;
};

std::vector<Reference> read_reference() {
    std::ifstream in(testing::chakra_dir() + "/astrasim_output_sanity_system16.csv");
    std::string line;
    std::getline(in, line);
    REQUIRE(line.rfind("workload,system,sys_id,wall_cycles,gpu_cycles,comm_cycles,exposed_comm_cycles,compute_bound_pct,"
                       "comp_util_pct,mem_util_pct,op_intensity,peak_mem_bytes", 0) == 0);
    std::vector<Reference> rows;
    while (std::getline(in, line)) {
        std::stringstream fields(line);
        std::string f[14];
        for (auto& x : f) std::getline(fields, x, ',');
        Reference r;
        r.sys_id = std::stoi(f[2]);
        r.wall = std::stod(f[3]);
        r.gpu = std::stod(f[4]);
        r.comm = std::stod(f[5]);
        r.exposed = std::stod(f[6]);
        r.bound = std::stod(f[7]);
        r.comp_util = std::stod(f[8]);
        r.mem_util = std::stod(f[9]);
        r.intensity = std::stod(f[10]);
        r.peak = std::stod(f[11]);
        rows.push_back(r);
    }
    return rows;
}

double relative_error(double got, double want) { return std::fabs(got - want) / want; }

}  // namespace

TEST_CASE("the STAGE sanity trace: every NPU within the issue's bounds of ASTRA-sim, cycles exact") {
    chakra::AstraRunFiles files;
    files.workload = testing::sanity_prefix();
    files.comm_groups = testing::sanity_groups();
    files.network = testing::chakra_dir() + "/network_system_16.yml";
    files.system = testing::chakra_dir() + "/system_system_16.json";
    files.remote_memory = testing::chakra_dir() + "/remote_memory.json";
    const chakra::AstraRun run = chakra::run_astra(files);
    const std::vector<Reference> reference = read_reference();
    REQUIRE(reference.size() == 16);
    REQUIRE(run.ranks.size() == 16);
    for (const Reference& want : reference) {
        CAPTURE(want.sys_id);
        const AstraRankStats& got = run.ranks[static_cast<std::size_t>(want.sys_id)];
        REQUIRE(got.gpu_cycles.has_value());
        REQUIRE(got.comm_cycles.has_value());
        REQUIRE(got.peak_memory_bytes.has_value());
        // The bounds.
        CHECK(relative_error(static_cast<double>(got.wall_cycles), want.wall) <= 0.02);
        CHECK(relative_error(static_cast<double>(got.exposed_comm_cycles), want.exposed) <= 0.02);
        CHECK(relative_error(static_cast<double>(*got.gpu_cycles), want.gpu) <= 0.001);
        CHECK(relative_error(static_cast<double>(*got.peak_memory_bytes), want.peak) <= 0.01);
        // What dtcalc actually achieves.
        CHECK(static_cast<double>(got.wall_cycles) == want.wall);
        CHECK(static_cast<double>(got.finish_cycles) == want.wall);
        CHECK(static_cast<double>(*got.gpu_cycles) == want.gpu);
        CHECK(static_cast<double>(*got.comm_cycles) == want.comm);
        CHECK(static_cast<double>(got.exposed_comm_cycles) == want.exposed);
        // The CSV's statistics have 3 decimals.
        CHECK(std::fabs(got.compute_bound_pct - want.bound) < 0.0005);
        CHECK(std::fabs(got.compute_utilization_pct - want.comp_util) < 0.0005);
        CHECK(std::fabs(got.memory_utilization_pct - want.mem_util) < 0.0005);
        CHECK(std::fabs(got.operation_intensity - want.intensity) < 0.0005);
        // The CSV's peak is ASTRA-sim's "%.2f GB" times 2^30: within half a hundredth of a GiB.
        CHECK(std::fabs(static_cast<double>(*got.peak_memory_bytes) - want.peak) <= 0.005 * 1073741824.0);
    }
}
