// NCCL_MIN_NCHANNELS and NCCL_MAX_NCHANNELS (src/graph/connect.cc,
// ncclMinNchannels / ncclMaxNchannels, the last step of ncclTopoPostset): the
// communicator's channels are cut to at most the maximum, then copied up to
// at least the minimum, within NCCL's 64 (MAXCHANNELS). NCCL's search, and so
// its tuning and choice, do not see them; the channels the kernels run, the
// point-to-point channels that follow them, and the rates those channels
// drive do.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "collective/nccl/nccl_force.h"
#include "collective/nccl/nccl_shape.h"
#include "collective/nccl/nccl_topology.h"
#include "collective/collective_cost.h"
#include "config/preset.h"
#include "input_error.h"
#include "network/cluster_shape.h"
#include "run_dtcalc.h"
#include "shaped_collective.h"
#include "temp_file.h"
#include "validate/nccl_tests_csv.h"
#include "validate/nccl_tests_json.h"
#include "validate/nccl_tests_log.h"
#include "nccl_tests_log_text.h"

using namespace dtcalc;
using namespace dtcalc::testing;


namespace {

const std::vector<std::string> kDirs{DTCALC_PRESETS_DIR};
constexpr std::uint64_t GiB = 1u << 30;

NcclForce limits(int min, int max) {
    NcclForce f;
    f.channels = {min, max};
    return f;
}

}  // namespace

TEST_CASE("NCCL_MIN/MAX_NCHANNELS bound the channels last: the maximum first, then the minimum, within 1..64") {
    // connect.cc: nChannels = min(ncclMaxNchannels(), nChannels), then
    // copyChannels up to ncclMinNchannels() ("max, then min, to only use the
    // first channels, then duplicate them").
    CHECK(nccl_limited_channels(24, {}) == 24);
    CHECK(nccl_limited_channels(24, {0, 8}) == 8);
    CHECK(nccl_limited_channels(24, {32, 0}) == 32);
    CHECK(nccl_limited_channels(24, {8, 0}) == 24);   // already at least 8
    CHECK(nccl_limited_channels(24, {8, 4}) == 8);    // cut to 4, copied up to 8
    CHECK(nccl_limited_channels(24, {0, 100}) == 24);
    CHECK(nccl_limited_channels(24, {100, 0}) == 64);  // MAXCHANNELS
}

TEST_CASE("NCCL_MIN/MAX_NCHANNELS values read as NCCL reads them") {
    NcclForce f;
    apply_nccl_max_nchannels(f, "8", {});
    CHECK(f.channels.max == 8);
    apply_nccl_max_nchannels(f, "0", {});  // ncclMaxNchannels: below 1 "setting it to 1"
    CHECK(f.channels.max == 1);
    apply_nccl_max_nchannels(f, "100", {});  // at most MAXCHANNELS
    CHECK(f.channels.max == 64);
    // NCCL_PARAM's default, -2, is "unset": what an NCCL_MAX_NRINGS gave stands
    // (ncclMaxNchannels reads the legacy name, then the new one if set).
    apply_nccl_max_nchannels(f, "-2", {});
    CHECK(f.channels.max == 64);
    NcclForce fresh;
    apply_nccl_max_nchannels(fresh, "-2", {});
    CHECK(fresh.unset());
    f.channels.max = 0;
    apply_nccl_min_nchannels(f, "32", {});
    CHECK(f.channels.min == 32);
    apply_nccl_min_nchannels(f, "-5", {});  // ncclMinNchannels: below 0 is none
    CHECK(f.channels.min == 0);
    CHECK(f.unset());
    CHECK_INPUT_ERROR(apply_nccl_max_nchannels(f, "eight", {"f.log", 7, 0, ""}),
                      "f.log:7: NCCL_MAX_NCHANNELS='eight': expected a whole number of channels (NCCL's 1 to 64)");
    CHECK_INPUT_ERROR(apply_nccl_min_nchannels(f, "2.5", {"f.log", 7, 0, ""}),
                      "f.log:7: NCCL_MIN_NCHANNELS='2.5': expected a whole number of channels (NCCL's 1 to 64)");
    // The one entry point the readers use.
    apply_nccl_setting(f, "NCCL_MAX_NCHANNELS", "4", {});
    CHECK(f.channels.max == 4);
    CHECK(nccl_setting_modelled("NCCL_MIN_NCHANNELS"));
    CHECK_FALSE(nccl_setting_modelled("NCCL_BUFFSIZE"));
}

TEST_CASE("fewer channels on one H100 node: the kernels run fewer, the point-to-point ones follow") {
    const System h100 = load_preset("hgx-h100", kDirs).system;
    const NcclParameters& p = *h100.nccl();
    // One node of 8 H100: NVLink path 18 x 20.6 = 370.8 GB/s. Search (sm90
    // intra steps 60, 50, 40, 30, ...): 6 x 60 = 360 is the best, ties after
    // it, 24 < 0.49 x 60 stops; ncclTopoDupChannels doubles it to 12 x 30;
    // the postset runs 2 x 12 = 24 channels.
    const NcclTopology rule = nccl_topology(p, 8, 1, 0);
    CHECK(rule.channels == 24);
    CHECK(rule.rule_channels == 24);
    const NcclTopology cut = nccl_topology(p, 8, 1, 0, {0, 8});
    CHECK(cut.channels == 8);
    CHECK(cut.rule_channels == 24);
    CHECK(cut.ring.channels == 12);    // the search does not see it
    CHECK(cut.p2p_channels == 8);      // pow2Up(min(nChannels, ...)), paths.cc
    CHECK(nccl_topology(p, 8, 1, 0, {64, 0}).p2p_channels == 64);
    // NVLS channels come from NCCL_NVLS_NCHANNELS and the CTA bounds, not
    // these (src/transport/nvls.cc, ncclNvlsInit).
    CHECK(cut.nvls_channels == rule.nvls_channels);
}

TEST_CASE("fewer channels drive less NVLink: each at least one point-to-point channel's link figure") {
    const System h100 = load_preset("hgx-h100", kDirs).system;
    // 4 GiB all-gather on 8 H100, ring/Simple. Unlimited: 24 channels share
    // 370.8 GB/s. NCCL_MAX_NCHANNELS=8: each channel drives
    // max(370.8 / 24 = 15.45, 20.6) = 20.6 GB/s (SM90_NVLINK_BW, what one
    // point-to-point channel moves over NVLink; nccl_p2p.h), 8 x 20.6 =
    // 164.8 GB/s of bus bandwidth: the data's time is
    // 4,294,967,296 x 7/8 / 164.8 = 22,803,982.9 ns.
    const CollectiveResult cut = one(h100, CollectiveKind::AllGather, 4 * GiB, 1, 8, limits(0, 8));
    CHECK(cut.channels == 8);
    CHECK(cut.nccl_algorithm == "ring");
    REQUIRE(cut.phases.size() == 1);
    CHECK(cut.phases[0].bandwidth_ns == doctest::Approx(22803982.9).epsilon(1e-6));
    // A maximum at or above the rule's 24 changes nothing, to the nanosecond.
    const CollectiveResult free = one(h100, CollectiveKind::AllGather, 4 * GiB, 1, 8, {});
    CHECK(one(h100, CollectiveKind::AllGather, 4 * GiB, 1, 8, limits(0, 24)).time_ns == free.time_ns);
    CHECK(one(h100, CollectiveKind::AllGather, 4 * GiB, 1, 8, limits(0, 64)).time_ns == free.time_ns);
    // More channels than the rule: no more NVLink than the links carry.
    const CollectiveResult more = one(h100, CollectiveKind::AllGather, 4 * GiB, 1, 8, limits(64, 0));
    CHECK(more.channels == 64);
    CHECK(more.phases[0].bandwidth_ns == doctest::Approx(free.phases[0].bandwidth_ns));
    // NVLS all-reduce runs its own channels: unchanged.
    CHECK(one(h100, CollectiveKind::AllReduce, 4 * GiB, 1, 8, limits(0, 2)).time_ns ==
          one(h100, CollectiveKind::AllReduce, 4 * GiB, 1, 8, {}).time_ns);
}

TEST_CASE("across nodes more channels reach more of the NICs, fewer reach less") {
    const System h100 = load_preset("h100-ib-ndr400", kDirs).system;
    // 10 x 8 H100, 16 GiB all-gather (ring/Simple): the rule runs 16
    // channels over 8 NICs, two per NIC at the fitted per-channel rate,
    // below a NIC's payload; NCCL_MIN_NCHANNELS=32 puts four on each and the
    // NICs no longer bind (the ring is then NVLink's); NCCL_MAX_NCHANNELS=8
    // leaves one per NIC.
    const CollectiveResult rule = one(h100, CollectiveKind::AllGather, 16 * GiB, 10, 8, {});
    const CollectiveResult more = one(h100, CollectiveKind::AllGather, 16 * GiB, 10, 8, limits(32, 0));
    const CollectiveResult fewer = one(h100, CollectiveKind::AllGather, 16 * GiB, 10, 8, limits(0, 8));
    CHECK(rule.channels == 16);
    CHECK(more.channels == 32);
    CHECK(fewer.channels == 8);
    CHECK(more.time_ns < 0.95 * rule.time_ns);
    CHECK(fewer.time_ns > 1.8 * rule.time_ns);
    // NVLink bounds the 32: no faster than the same ring on one node's links.
    const double ring_one_node = one(h100, CollectiveKind::AllGather, 16 * GiB, 1, 8, {}).phases[0].bandwidth_ns;
    CHECK(more.phases[0].bandwidth_ns * 79.0 / 80.0 >= ring_one_node * 7.0 / 8.0 * 0.999);
}

TEST_CASE("a run's NCCL_MIN/MAX_NCHANNELS are read from its log, -J JSON and dataset CSV") {
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    const std::string lines = "hostA:1:1 [0] NCCL INFO NCCL_MAX_NCHANNELS set by environment to 2.\n"
                              "hostA:1:1 [1] NCCL INFO NCCL_MAX_NCHANNELS set by environment to 2.\n"
                              "hostA:1:1 [0] NCCL INFO NCCL_MIN_NCHANNELS set by environment to 1.\n";
    const auto rows = parse_nccl_tests_log(header("all_reduce_perf", 2) + lines + row + kFooter, "f.log");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].force.channels == NcclChannelLimits{1, 2});
    CHECK(rows[0].unmodelled_settings.empty());
    CHECK(rows[0].force_origin.find("NCCL_MAX_NCHANNELS=2 at f.log:") != std::string::npos);
    const std::string csv = write_temp_file(
        "channels.csv",
        "source_url,gpus,nodes,collective,size_bytes,time_us,nccl_max_nchannels,notes\n"
        "x,8,1,all_gather_perf,1024,10,8,\n"
        "x,8,1,all_gather_perf,1024,10,,run with NCCL_MIN_NCHANNELS=32; 8 GPUs\n"
        "x,8,1,all_gather_perf,1024,10,,\n");
    const auto from_csv = read_nccl_tests_csv(csv);
    REQUIRE(from_csv.size() == 3);
    CHECK(from_csv[0].force.channels == NcclChannelLimits{0, 8});
    CHECK(from_csv[1].force.channels == NcclChannelLimits{32, 0});
    CHECK(from_csv[2].force.unset());
    const std::string clash = write_temp_file(
        "channels_clash.csv",
        "source_url,gpus,nodes,collective,size_bytes,time_us,nccl_max_nchannels,notes\n"
        "x,8,1,all_gather_perf,1024,10,4,NCCL_MAX_NCHANNELS=8\n");
    CHECK_INPUT_ERROR(read_nccl_tests_csv(clash),
                      clash + ":2: nccl_max_nchannels: '4' but the notes say NCCL_MAX_NCHANNELS=8");
    const std::string bad = write_temp_file("channels_bad.csv",
                                            "source_url,gpus,nodes,collective,size_bytes,time_us,nccl_min_nchannels\n"
                                            "x,8,1,all_gather_perf,1024,10,many\n");
    CHECK_INPUT_ERROR(read_nccl_tests_csv(bad), bad + ":2: nccl_min_nchannels: NCCL_MIN_NCHANNELS='many': expected a "
                                                      "whole number of channels (NCCL's 1 to 64)");
    // nccl-tests -J: the run's env list.
    const std::string json = R"({"args": ["all_gather_perf"], "env": ["NCCL_MAX_NCHANNELS=4", "NCCL_MAX_NCHANNELS=9"],
 "config": {"nthreads": 1, "ngpus": 1, "iterations": 20, "graph": 0,
   "devices": [{"hostname": "hostA"}, {"hostname": "hostA"}]},
 "results": [{"size": 4096, "count": 256, "type": "double", "redop": "none", "root": -1,
              "out_of_place": {"time": 12.0}}]})";
    const NcclTestsLog log = parse_nccl_tests_json(json, "x.json");
    REQUIRE(log.rows.size() == 1);
    CHECK(log.rows[0].force.channels == NcclChannelLimits{0, 4});  // the first, as getenv finds it
}

TEST_CASE("collective --min-nchannels / --max-nchannels: NCCL_MIN/MAX_NCHANNELS for the nccl backend") {
    const auto eight = run_dtcalc("collective all-gather --size 4G --preset hgx-h100 --max-nchannels 8 --format csv");
    REQUIRE(eight.exit_code == 0);
    // channels 8; 4 GiB x 7/8 at 164.8 GB/s and the ring's latency: 22.86 ms (busbw 164.4).
    CHECK(eight.out.find(",8,ring,Simple") != std::string::npos);
    CHECK(run_dtcalc("collective all-gather --size 4G --preset hgx-h100 --max-nchannels 0").out ==
          "dtcalc: error: --max-nchannels: expected 1 to 64 channels (NCCL's MAXCHANNELS), got 0\n");
    CHECK(run_dtcalc("collective all-gather --size 4G --preset hgx-h100 --min-nchannels 65").out ==
          "dtcalc: error: --min-nchannels: expected 0 to 64 channels (NCCL's MAXCHANNELS), got 65\n");
    CHECK(run_dtcalc("collective all-gather --size 4G --preset hgx-h100 --backend astra-unaware --max-nchannels 8")
              .out.find("--max-nchannels: applies to the nccl backend only") != std::string::npos);
}

TEST_CASE("validate: a run's channel bounds stand beside --algo; only the nccl backend models them") {
    // 2 ranks on one host, 1 GiB all-gather, NCCL_MAX_NCHANNELS=1 stated by
    // the log; --algo ring gives the choice the log does not state.
    const std::string row = "  1073741824      67108864    double    none      -1   8000.0  134.22   67.11       0   8000.0  134.22   67.11       0\n";
    const std::string lines = "hostA:1:1 [0] NCCL INFO NCCL_MAX_NCHANNELS set by environment to 1.\n";
    const std::string log = write_temp_file("all_gather_max1.log", header("all_gather_perf", 2) + lines + row + kFooter);
    const auto ring = run_dtcalc("validate --dataset " + log + " --preset hgx-h100 --algo ring --format csv");
    REQUIRE(ring.exit_code == 0);
    CHECK(ring.out.find("ring/Simple") != std::string::npos);
    // The bound is the run's: its one channel drives one link figure, 20.6
    // GB/s, where the rule's channels drive the whole 370.8.
    const std::string plain = write_temp_file("all_gather_rule.log", header("all_gather_perf", 2) + row + kFooter);
    const auto predicted = [](const std::string& csv) {
        const std::size_t line = csv.find('\n') + 1;
        std::size_t at = line;
        for (int field = 0; field < 5; ++field) at = csv.find(',', at) + 1;
        return std::stod(csv.substr(at, csv.find(',', at) - at));
    };
    const auto bounded = run_dtcalc("validate --dataset " + log + " --preset hgx-h100 --format csv");
    const auto rule = run_dtcalc("validate --dataset " + plain + " --preset hgx-h100 --format csv");
    REQUIRE(bounded.exit_code == 0);
    REQUIRE(rule.exit_code == 0);
    CHECK(predicted(bounded.out) > 10 * predicted(rule.out));
    CHECK(run_dtcalc("validate --dataset " + log + " --preset lab-system1").out ==
          "dtcalc: error: " + log + ":13: the run sets NCCL_MAX_NCHANNELS=1 at " + log +
              ":12, which the nccl backend only models (this system uses astra-unaware)\n");
}
