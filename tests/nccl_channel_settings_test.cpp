// NCCL's other channel settings, each as NCCL 2.29 applies it:
//   NCCL_MIN_NRINGS / NCCL_MAX_NRINGS   legacy names of NCCL_MIN/MAX_NCHANNELS,
//                                        which override them (connect.cc)
//   NCCL_MIN_CTAS / NCCL_MAX_CTAS        config.minCTAs / maxCTAs (init.cc):
//                                        bound the ring/tree channels with the
//                                        NCHANNELS values, and the NVLS channels
//   NCCL_NVLS_NCHANNELS                  the NVLS channels (nvls.cc)
//   NCCL_MIN/MAX_P2P_NCHANNELS           the point-to-point pool (paths.cc)
//   NCCL_NCHANNELS_PER_NET_PEER          channels per network peer (paths.cc)
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "collective/collective_cost.h"
#include "collective/nccl/nccl_force.h"
#include "collective/nccl/nccl_topology.h"
#include "config/preset.h"
#include "config/system_source.h"
#include "input_error.h"
#include "network/cluster_shape.h"
#include "run_dtcalc.h"
#include "shaped_collective.h"
#include "temp_file.h"
#include "validate/nccl_tests_csv.h"
#include "validate/nccl_tests_log.h"
#include "nccl_tests_log_text.h"

using namespace dtcalc;
using namespace dtcalc::testing;


namespace {

const std::vector<std::string> kDirs{DTCALC_PRESETS_DIR};
constexpr std::uint64_t GiB = 1u << 30;

NcclChannelLimits with(int NcclChannelLimits::*field, int value) {
    NcclChannelLimits l;
    l.*field = value;
    return l;
}

// The settings as `collective --env` applies them.
NcclForce env(const System& system, const std::vector<std::string>& entries) {
    NcclForce force;
    apply_nccl_env_options(force, system, entries, {}, {"--env", 0, 0, ""});
    return force;
}

NcclTopology topology_of(const System& system, long long nodes, long long gpus, const NcclChannelLimits& limits) {
    // NDR: 400 Gb/s = 50 GB/s per direction.
    return nccl_topology(*system.nccl(), gpus, nodes, nodes > 1 ? 50.0 : 0.0, limits);
}

// The first row's prediction (the 6th column) of `validate --format csv`.
std::string predicted(const std::string& csv) {
    std::size_t at = csv.find('\n') + 1;
    for (int field = 0; field < 5; ++field) at = csv.find(',', at) + 1;
    return csv.substr(at, csv.find(',', at) - at);
}

}  // namespace

TEST_CASE("NCCL_MIN/MAX_CTAS: the communicator's CTA bounds, as parseCommConfig leaves them") {
    CHECK(nccl_cta_bounds({}) == std::pair{1, 64});  // NCCL's defaults
    CHECK(nccl_cta_bounds(with(&NcclChannelLimits::max_ctas, 8)) == std::pair{1, 8});
    // "minCTAs ... is larger than maxCTAs ..., set both to" the maximum.
    NcclChannelLimits both;
    both.min_ctas = 32;
    both.max_ctas = 8;
    CHECK(nccl_cta_bounds(both) == std::pair{8, 8});
    // connect.cc: nChannels = min(ncclMaxNchannels(), nChannels, maxCTAs), then
    // copied up to max(ncclMinNchannels(), minCTAs).
    CHECK(nccl_limited_channels(24, with(&NcclChannelLimits::max_ctas, 8)) == 8);
    CHECK(nccl_limited_channels(24, with(&NcclChannelLimits::min_ctas, 32)) == 32);
    CHECK(nccl_limited_channels(24, with(&NcclChannelLimits::min_ctas, 12)) == 24);  // already 12 or more
    NcclChannelLimits mixed;
    mixed.max = 16;
    mixed.max_ctas = 8;
    CHECK(nccl_limited_channels(24, mixed) == 8);  // the lower maximum
    mixed.min_ctas = 12;                            // above maxCTAs: set to 8
    CHECK(nccl_limited_channels(24, mixed) == 8);
    mixed = {};
    mixed.max = 8;
    mixed.min_ctas = 12;  // NCHANNELS cuts to 8, minCTAs copies up to 12
    CHECK(nccl_limited_channels(24, mixed) == 12);
}

TEST_CASE("the settings' values as NCCL takes them from the environment") {
    const System h100 = load_preset("h100-ib-ndr400", kDirs).system;
    // envConfigOverride: a CTA count, NVLS count or per-peer count <= 0 is
    // ignored ("is too low, leaving it"); parseCommConfig caps CTAs at 64.
    CHECK(env(h100, {"NCCL_MIN_CTAS=0", "NCCL_MAX_CTAS=-1", "NCCL_NVLS_NCHANNELS=0", "NCCL_NCHANNELS_PER_NET_PEER=-4"})
              .unset());
    CHECK(env(h100, {"NCCL_MAX_CTAS=100"}).channels.max_ctas == 64);
    // paths.cc: min(nChannels, MAX_P2P) then max(.., MIN_P2P): a maximum of 0
    // leaves MIN_P2P's 1; a minimum above 64 gives MAXCHANNELS.
    CHECK(env(h100, {"NCCL_MAX_P2P_NCHANNELS=0"}).channels.max_p2p == 1);
    CHECK(env(h100, {"NCCL_MIN_P2P_NCHANNELS=100"}).channels.min_p2p == 64);
    // The legacy names, overridden by the new ones whatever the order given.
    CHECK(env(h100, {"NCCL_MAX_NRINGS=4"}).channels.max == 4);
    CHECK(env(h100, {"NCCL_MAX_NCHANNELS=16", "NCCL_MAX_NRINGS=4"}).channels.max == 16);
    CHECK(env(h100, {"NCCL_MIN_NRINGS=32", "NCCL_MIN_NCHANNELS=-2"}).channels.min == 32);  // -2: unset
    CHECK_INPUT_ERROR(env(h100, {"NCCL_MAX_CTAS=8.5"}),
                      "--env: NCCL_MAX_CTAS='8.5': expected a whole number of channels (NCCL's 1 to 64)");
    CHECK_INPUT_ERROR(env(h100, {"NCCL_MAX_CTAS"}), "--env: 'NCCL_MAX_CTAS': expected VARIABLE=VALUE, e.g. NCCL_MAX_CTAS=8");
    // An empty value (a script's unset $ALGO) is refused, not read as unset.
    CHECK_INPUT_ERROR(env(h100, {"NCCL_ALGO="}),
                      "--env: 'NCCL_ALGO=': expected a value after '=' (leave a variable out to keep NCCL's default)");
    CHECK_INPUT_ERROR(env(h100, {"NCCL_MAX_CTAS=8", "NCCL_MAX_CTAS=4"}),
                      "--env: 'NCCL_MAX_CTAS=4': NCCL_MAX_CTAS is given twice");
    CHECK(error_of([&] { (void)env(h100, {"NCCL_BUFFSIZE=1"}); })
              .starts_with("--env: 'NCCL_BUFFSIZE=1': NCCL_BUFFSIZE is not a setting dtcalc models (it models NCCL_ALGO,"));
    const System astra = load_preset("lab-system1", kDirs).system;
    CHECK(error_of([&] { (void)env(astra, {"NCCL_MAX_CTAS=8"}); })
              .starts_with("--env: applies to the nccl backend only"));
    NcclForce force;
    CHECK_INPUT_ERROR(apply_nccl_env_options(force, h100, {"NCCL_ALGO=ring"}, {"NCCL_ALGO"}, {"--env", 0, 0, ""}),
                      "--env: 'NCCL_ALGO=ring': NCCL_ALGO is also given by its own option; give one");
}

TEST_CASE("NVLS channels: NCCL_NVLS_NCHANNELS, then the CTA bounds") {
    const System h100 = load_preset("h100-ib-ndr400", kDirs).system;
    // nvls.cc: NVLS_NCHANNELS_SM90 = 16, or NCCL_NVLS_NCHANNELS; then
    // max(minCTAs, min(maxCTAs, channels)).
    CHECK(topology_of(h100, 1, 8, {}).nvls_channels == 16);
    CHECK(topology_of(h100, 1, 8, with(&NcclChannelLimits::nvls, 4)).nvls_channels == 4);
    NcclChannelLimits l;
    l.nvls = 4;
    l.min_ctas = 8;
    CHECK(topology_of(h100, 1, 8, l).nvls_channels == 8);
    const NcclTopology capped = topology_of(h100, 1, 8, with(&NcclChannelLimits::max_ctas, 8));
    CHECK(capped.nvls_channels == 8);
    CHECK(capped.channels == 8);  // the ring's too (rule: 24)
    CHECK(capped.rule_channels == 24);
    // NCCL_MAX_NCHANNELS leaves NVLS alone (only the CTA bounds reach it).
    CHECK(topology_of(h100, 1, 8, with(&NcclChannelLimits::max, 8)).nvls_channels == 16);
}

TEST_CASE("point-to-point channels: NCCL_MIN/MAX_P2P_NCHANNELS and NCCL_NCHANNELS_PER_NET_PEER") {
    const System h100 = load_preset("h100-ib-ndr400", kDirs).system;
    // 2 x 8 H100: 16 ring channels -> p2p pool pow2Up(16) = 16. Per peer: the
    // NVLink peers 2 x (370.8 / 20.6) = 36, the network peers max(1 NIC,
    // divUp(50, P2P_PER_CHANNEL_NET_BW 14)) = 4; pow2Up(min) = 4; 16 ranks are
    // 2 rounds of 8, 4 x 2 <= 16, so 4.
    const NcclTopology rule = topology_of(h100, 2, 8, {});
    CHECK(rule.p2p_channels == 16);
    CHECK(rule.p2p_channels_per_peer == 4);
    // NCCL_MAX_P2P_NCHANNELS=4: pool pow2Up(min(16, 4)) = 4; per peer halved
    // while 2 rounds x per peer > 4: 4 -> 2.
    const NcclTopology small_pool = topology_of(h100, 2, 8, with(&NcclChannelLimits::max_p2p, 4));
    CHECK(small_pool.p2p_channels == 4);
    CHECK(small_pool.p2p_channels_per_peer == 2);
    // NCCL_MIN_P2P_NCHANNELS=40: pool pow2Up(40) = 64; per peer still 4.
    const NcclTopology big_pool = topology_of(h100, 2, 8, with(&NcclChannelLimits::min_p2p, 40));
    CHECK(big_pool.p2p_channels == 64);
    CHECK(big_pool.p2p_channels_per_peer == 4);
    // NCCL_NCHANNELS_PER_NET_PEER: the network peers' count; no halving for
    // the rounds, at most the pool: 16 -> min(36, 16) = 16; 3 -> pow2Up = 4;
    // 32 -> min(36, 32) = 32, cut to the pool's 16.
    CHECK(topology_of(h100, 2, 8, with(&NcclChannelLimits::per_net_peer, 16)).p2p_channels_per_peer == 16);
    CHECK(topology_of(h100, 2, 8, with(&NcclChannelLimits::per_net_peer, 3)).p2p_channels_per_peer == 4);
    CHECK(topology_of(h100, 2, 8, with(&NcclChannelLimits::per_net_peer, 32)).p2p_channels_per_peer == 16);
    // One node: no network peer, so the setting changes nothing: pool
    // pow2Up(24) = 32, per peer min(pow2Up(36) = 64, 32) = 32.
    const NcclTopology one_node = topology_of(h100, 1, 8, with(&NcclChannelLimits::per_net_peer, 2));
    CHECK(one_node.p2p_channels == 32);
    CHECK(one_node.p2p_channels_per_peer == 32);
}

TEST_CASE("NCCL_NCHANNELS_PER_NET_PEER=1: a 2 x 1 send/recv on one channel's rate") {
    const System h100 = load_preset("h100-ib-ndr400", kDirs).system;
    // One channel through the NIC moves p2p-channel-bandwidth-gbps (16.37 GB/s)
    // less its cost per 128 KiB chunk (p2p-chunk-overhead-us 1.1):
    // 1/16.37 + 1100/131072 = 0.0610874 + 0.0083923 = 0.0694797 ns/B, so 4 GiB
    // streams in 4294967296 x 0.0694797 = 298,409,200 ns (14.39 GB/s) plus
    // the latency and one chunk's fill (< 0.1 ms). NCCL's rule runs 4 channels
    // per peer (divUp(50, 14)), bound by the NIC instead.
    const CollectiveResult single =
        one(h100, CollectiveKind::SendRecv, 4 * GiB, 2, 1, env(h100, {"NCCL_NCHANNELS_PER_NET_PEER=1"}));
    CHECK(single.channels == 1);
    CHECK(single.time_ns >= 298.4092e6 * 0.9999);
    CHECK(single.time_ns <= 298.4092e6 + 0.1e6);
    const CollectiveResult rule = one(h100, CollectiveKind::SendRecv, 4 * GiB, 2, 1, {});
    CHECK(rule.channels == 4);
    CHECK(rule.time_ns < single.time_ns / 2.5);
}

TEST_CASE("NCCL_MAX_CTAS prices as NCCL_MAX_NCHANNELS on a ring; NCCL_MIN_CTAS as NCCL_MIN_NCHANNELS") {
    const System h100 = load_preset("h100-ib-ndr400", kDirs).system;
    NcclForce max_channels;
    max_channels.channels.max = 8;
    NcclForce min_channels;
    min_channels.channels.min = 32;
    const auto time = [&](const NcclForce& f) {
        return one(h100, CollectiveKind::AllGather, 16 * GiB, 10, 8, f).time_ns;
    };
    CHECK(time(env(h100, {"NCCL_MAX_CTAS=8"})) == time(max_channels));
    CHECK(time(env(h100, {"NCCL_MIN_CTAS=32"})) == time(min_channels));
    CHECK(time(env(h100, {"NCCL_MAX_NRINGS=8"})) == time(max_channels));
}

TEST_CASE("a run's channel settings from its log and its dataset row; collective --env") {
    const std::string row = "        1024           128    double     sum      -1    10.00    0.10    0.10       0    10.00    0.10    0.10       0\n";
    const std::string lines = "hostA:1:1 [0] NCCL INFO NCCL_MAX_CTAS set by environment to 4.\n"
                              "hostA:1:1 [0] NCCL INFO NCCL_NCHANNELS_PER_NET_PEER set by environment to 2.\n";
    const auto rows = parse_nccl_tests_log(header("all_reduce_perf", 2) + lines + row + kFooter, "f.log");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].force.channels.max_ctas == 4);
    CHECK(rows[0].force.channels.per_net_peer == 2);
    CHECK(rows[0].unmodelled_settings.empty());
    const std::string csv = write_temp_file(
        "ctas.csv",
        "source_url,gpus,nodes,collective,size_bytes,time_us,nccl_min_ctas,notes\n"
        "x,8,1,all_gather_perf,1024,10,16,\n"
        "x,8,1,all_gather_perf,1024,10,,with NCCL_NVLS_NCHANNELS=4 and XNCCL_MAX_CTAS=2\n");
    const auto from_csv = read_nccl_tests_csv(csv);
    REQUIRE(from_csv.size() == 2);
    CHECK(from_csv[0].force.channels.min_ctas == 16);
    CHECK(from_csv[1].force.channels.nvls == 4);
    CHECK(from_csv[1].force.channels.max_ctas == 0);  // another name's tail is not the setting

    const auto ctas = run_dtcalc("collective all-gather --size 4G --preset hgx-h100 --env NCCL_MAX_CTAS=8 --format csv");
    const auto nchannels = run_dtcalc("collective all-gather --size 4G --preset hgx-h100 --max-nchannels 8 --format csv");
    REQUIRE(ctas.exit_code == 0);
    CHECK(ctas.out == nchannels.out);
    const auto both = run_dtcalc(
        "collective all-gather --size 4G --preset hgx-h100 --env NCCL_MAX_CTAS=8 --env NCCL_MIN_CTAS=16 --format csv");
    CHECK(both.out.find(",8,ring,Simple") != std::string::npos);  // minCTAs above maxCTAs: both 8
    CHECK(run_dtcalc("collective all-gather --size 4G --preset hgx-h100 --max-nchannels 8 --env NCCL_MAX_NCHANNELS=4")
              .out == "dtcalc: error: --env: 'NCCL_MAX_NCHANNELS=4': NCCL_MAX_NCHANNELS is also given by its own "
                      "option; give one\n");
    const auto astra = run_dtcalc("collective all-gather --size 4G --preset lab-system1 --env NCCL_MAX_CTAS=8");
    CHECK(astra.exit_code == 2);
    CHECK(astra.out.find("--env: applies to the nccl backend only") != std::string::npos);
}

TEST_CASE("validate --env: the dataset's channel settings where a run states none") {
    // 2 ranks on one host, 1 GiB all-gather; one log states
    // NCCL_MAX_NCHANNELS=1 itself, the other nothing.
    const std::string row = "  1073741824      67108864    double    none      -1   8000.0  134.22   67.11       0   8000.0  134.22   67.11       0\n";
    const std::string lines = "hostA:1:1 [0] NCCL INFO NCCL_MAX_NCHANNELS set by environment to 1.\n";
    const std::string stated = write_temp_file("env_stated.log", header("all_gather_perf", 2) + lines + row + kFooter);
    const std::string silent = write_temp_file("env_silent.log", header("all_gather_perf", 2) + row + kFooter);
    const auto from_log = run_dtcalc("validate --dataset " + stated + " --preset hgx-h100 --format csv");
    const auto from_env =
        run_dtcalc("validate --dataset " + silent + " --preset hgx-h100 --env NCCL_MAX_NCHANNELS=1 --format csv");
    const auto plain = run_dtcalc("validate --dataset " + silent + " --preset hgx-h100 --format csv");
    REQUIRE(from_log.exit_code == 0);
    REQUIRE(from_env.exit_code == 0);
    // The same prediction; the rule's is far faster.
    CHECK(predicted(from_log.out) == predicted(from_env.out));
    CHECK(std::stod(predicted(plain.out)) * 10 < std::stod(predicted(from_env.out)));
    // The same value the run states is no conflict; another is.
    CHECK(run_dtcalc("validate --dataset " + stated + " --preset hgx-h100 --env NCCL_MAX_NCHANNELS=1").exit_code == 0);
    const auto clash = run_dtcalc("validate --dataset " + stated + " --preset hgx-h100 --env NCCL_MAX_NCHANNELS=2");
    CHECK(clash.exit_code == 2);
    CHECK(clash.out.find("the run states its own channel settings (NCCL_MAX_NCHANNELS=1 at " + stated +
                         ":12) and they differ from those given for the dataset") != std::string::npos);
    CHECK(run_dtcalc("validate --env NCCL_MAX_CTAS=8").out ==
          "dtcalc: error: --env: only for --dataset files and folders; the gates file's datasets are predicted as "
          "their runs state\n");
    CHECK(run_dtcalc("validate --dataset " + silent + " --preset hgx-h100 --algo ring --env NCCL_ALGO=tree").out ==
          "dtcalc: error: --env: 'NCCL_ALGO=tree': NCCL_ALGO is also given by its own option; give one\n");
}

TEST_CASE("a gates file's dataset states its runs' NCCL settings under env") {
    const std::string row = "  1073741824      67108864    double    none      -1   8000.0  134.22   67.11       0   8000.0  134.22   67.11       0\n";
    const std::string log = write_temp_file("gates_env_run.log", header("all_gather_perf", 2) + row + kFooter);
    const auto gates = [&](const std::string& env_line) {
        return write_temp_file("gates_env.toml", "[[dataset]]\nname = \"one\"\nkind = \"nccl-tests\"\nfile = \"" + log +
                                                     "\"\npreset = \"hgx-h100\"\n" + env_line +
                                                     "\n[[gate]]\ndataset = \"one\"\ngroup = \"*\"\nmetric = "
                                                     "\"max\"\nbound = 10\n");
    };
    const auto with_env = run_dtcalc("validate --gates " + gates("env = [\"NCCL_MAX_NCHANNELS=1\"]") + " --format csv");
    const auto from_flag =
        run_dtcalc("validate --dataset " + log + " --preset hgx-h100 --env NCCL_MAX_NCHANNELS=1 --format csv");
    REQUIRE(with_env.exit_code == 0);
    REQUIRE(from_flag.exit_code == 0);
    CHECK(predicted(with_env.out) == predicted(from_flag.out));
    const std::string bad = gates("env = \"NCCL_MAX_CTAS=8\"");
    CHECK(run_dtcalc("validate --gates " + bad).out ==
          "dtcalc: error: " + bad + ":6:7: dataset[0].env: expected a list of \"VARIABLE=VALUE\" strings\n");
    const std::string unknown = gates("env = [\"NCCL_BUFFSIZE=8\"]");
    CHECK(run_dtcalc("validate --gates " + unknown)
              .out.starts_with("dtcalc: error: " + unknown + ":6:7: dataset[0].env: 'NCCL_BUFFSIZE=8': NCCL_BUFFSIZE is not a "
                                                             "setting dtcalc models"));
}
