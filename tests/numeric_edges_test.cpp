// Numerical safety at the edges of the inputs. Message sizes of 1 B and 1 PiB,
// groups of 1, 2 and 1,048,576 NPUs (one dimension of 2^20, dimensions that
// multiply to it, meshes and tori of it), links of 1e-3 and 1e6 GB/s, latency
// and endpoint delay 0, through every algorithm and backend (nccl included):
//   - every result is finite and non-negative; a group of more than one NPU
//     with a latency or endpoint delay takes time (> 0); one NPU takes none;
//   - a bigger message is never faster, a faster link never slower, less
//     latency never slower;
//   - a few points equal the value worked out by hand (comments show how);
//   - no single query takes a second.
// Past the physical ranges (core/units.h) the input is refused with an "out of
// range" InputError naming the key or flag and the range; on the command line,
// exit code 2 and no "nan" or "inf" in any output.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "chakra/remote_memory.h"
#include "collective/algorithm_steps.h"
#include "collective/collective_cost.h"
#include "collective/comm_group.h"
#include "config/config_readers.h"
#include "config/network_config.h"
#include "config/preset.h"
#include "config/system_config_reader.h"
#include "core/error.h"
#include "core/units.h"
#include "gemm/parallel_split.h"
#include "network/cluster_shape.h"
#include "predict/predict.h"
#include "report/iteration_report.h"
#include "run_dtcalc.h"
#include "schedule/evaluate.h"
#include "temp_file.h"
#include "workload/astra_v1_workload.h"
#include "chakra_test_traces.h"
#include "input_error.h"

using namespace dtcalc;
using dtcalc::testing::error_of;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

constexpr std::uint64_t kPiB = std::uint64_t{1} << 50;
constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr int kMillion = 1 << 20;  // 1,048,576 NPUs
const std::vector<std::uint64_t> kSizes{1, kMiB, kPiB};
const std::vector<double> kBandwidths{1e-3, 1e6};  // slowest first
const std::vector<double> kLatencies{0, 500};      // smallest first

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// True when `text` holds a word "nan", "inf" or "infinity" in any case
/// ("infeasible" and "info" are words of their own, not matches).
bool has_nan_or_inf(const std::string& text) {
    std::string word;
    auto bad = [&] { return word == "nan" || word == "inf" || word == "infinity"; };
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            continue;
        }
        if (bad()) return true;
        word.clear();
    }
    return bad();
}

/// A network shape: topology and NPUs of each network dimension (a grid
/// entry spans 2 or 3 dimensions, as the network YAML spreads it).
struct Shape {
    std::string label;
    std::vector<std::pair<Topology, int>> dims;
    bool grid = false;
};

std::vector<Shape> astra_shapes() {
    using T = Topology;
    return {
        {"1 NPU (Ring 1)", {{T::Ring, 1}}},
        {"Ring 2", {{T::Ring, 2}}},
        {"Switch 2", {{T::Switch, 2}}},
        {"FullyConnected 2", {{T::FullyConnected, 2}}},
        {"Ring 1048576", {{T::Ring, kMillion}}},
        {"Switch 1048576", {{T::Switch, kMillion}}},
        {"FullyConnected 1048576", {{T::FullyConnected, kMillion}}},
        {"Switch 1024 x Ring 1024", {{T::Switch, 1024}, {T::Ring, 1024}}},
        {"Ring 8 x Switch 16 x FullyConnected 8192", {{T::Ring, 8}, {T::Switch, 16}, {T::FullyConnected, 8192}}},
        {"Mesh2D 2x2", {{T::Mesh2D, 2}, {T::Mesh2D, 2}}, true},
        {"Torus3D 2x2x2", {{T::Torus3D, 2}, {T::Torus3D, 2}, {T::Torus3D, 2}}, true},
        {"Mesh2D 1024x1024", {{T::Mesh2D, 1024}, {T::Mesh2D, 1024}}, true},
        {"Torus2D 1024x1024", {{T::Torus2D, 1024}, {T::Torus2D, 1024}}, true},
        {"Torus3D 128x128x64", {{T::Torus3D, 128}, {T::Torus3D, 128}, {T::Torus3D, 64}}, true},
    };
}

Network make_network(const Shape& shape, double bandwidth, double latency) {
    Network n;
    for (const auto& [topology, npus] : shape.dims) n.dimensions.push_back({topology, npus, bandwidth, latency});
    return n;
}

SystemConfig make_system(AlgorithmChoice algorithm, std::size_t dims, double endpoint_delay, int splits = 1, int active = 1) {
    SystemConfig s;
    for (auto& list : s.implementation)
        list = algorithm.flat ? std::vector<AlgorithmChoice>{algorithm} : std::vector<AlgorithmChoice>(dims, algorithm);
    s.preferred_dataset_splits = splits;
    s.active_chunks_per_dimension = active;
    s.endpoint_delay_ns = endpoint_delay;
    s.local_mem_bw_gbps = 1e12;
    s.collective_optimization = CollectiveOptimization::LocalBWAware;
    return s;
}

const std::vector<AlgorithmChoice> kAlgorithms{
    {AlgorithmKind::Ring, false},     {AlgorithmKind::Direct, false}, {AlgorithmKind::HalvingDoubling, false},
    {AlgorithmKind::DoubleBinaryTree, false}, {AlgorithmKind::Ring, true}, {AlgorithmKind::Direct, true},
    {AlgorithmKind::HalvingDoubling, true}};
const CollectiveKind kKinds[] = {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather,
                                 CollectiveKind::AllToAll, CollectiveKind::SendRecv};

/// Refusals the engine is allowed to make for a combination it does not have.
bool known_refusal(const std::string& message) {
    for (const char* known : {"has no ", "has only all-reduce", "not modelled", "power-of-two", "nccl: no "})
        if (message.find(known) != std::string::npos) return true;
    return false;
}

/// Failures of one property, with the first few counterexamples.
struct Failures {
    long long checks = 0;
    long long count = 0;
    std::string examples;
    void check(bool ok, const std::function<std::string()>& describe) {
        ++checks;
        if (ok) return;
        if (++count <= 6) examples += "  " + describe() + "\n";
    }
};

void report(const std::string& what, const Failures& f) {
    INFO(what << ": " << f.count << " of " << f.checks << " checks fail, e.g.:\n" << f.examples);
    CHECK(f.count == 0);
}

bool result_is_finite(const CollectiveResult& r) {
    if (!std::isfinite(r.time_ns) || r.time_ns < 0) return false;
    for (const PhaseBreakdown& p : r.phases)
        for (double v : {p.latency_ns, p.bandwidth_ns, p.endpoint_ns, p.reduction_ns, p.time_ns, p.wait_ns})
            if (!std::isfinite(v) || v < 0) return false;
    return true;
}

/// Times of one scenario over bandwidth x latency x size, [b][l][s].
using Grid = std::vector<std::vector<std::vector<double>>>;

struct Sweep {
    Failures finite, positive, single, bigger, faster_link, less_latency, slow;
    long long evaluated = 0, refused = 0;
    std::string unknown_refusals;

    /// Runs `run(bandwidth, latency, bytes)` over kBandwidths x kLatencies x kSizes and
    /// checks every property; `waits`: an endpoint delay (or NCCL's own latencies) applies.
    /// A scenario the engine refuses is counted and left out.
    void scenario(const std::string& label, std::int64_t npus, bool waits,
                  const std::function<CollectiveResult(double, double, std::uint64_t)>& run) {
        Grid t(kBandwidths.size(), std::vector<std::vector<double>>(kLatencies.size(), std::vector<double>(kSizes.size())));
        for (std::size_t b = 0; b < kBandwidths.size(); ++b)
            for (std::size_t l = 0; l < kLatencies.size(); ++l)
                for (std::size_t s = 0; s < kSizes.size(); ++s) {
                    const auto start = std::chrono::steady_clock::now();
                    CollectiveResult r;
                    try {
                        r = run(kBandwidths[b], kLatencies[l], kSizes[s]);
                    } catch (const InputError& e) {
                        ++refused;
                        if (!known_refusal(e.what()) && unknown_refusals.size() < 2000)
                            unknown_refusals += label + ": " + e.what() + "\n";
                        return;
                    }
                    const double took = seconds_since(start);
                    ++evaluated;
                    auto here = [&, b, l, s] {
                        std::ostringstream o;
                        o << label << ", " << kBandwidths[b] << " GB/s, " << kLatencies[l] << " ns, " << kSizes[s] << " B";
                        return o.str();
                    };
                    slow.check(took < 1.0, [&] { return here() + ": " + std::to_string(took) + " s"; });
                    finite.check(result_is_finite(r), [&] { return here() + ": " + std::to_string(r.time_ns) + " ns"; });
                    t[b][l][s] = r.time_ns;
                    if (npus <= 1) {
                        single.check(r.time_ns == 0, [&] { return here() + ": one NPU takes " + std::to_string(r.time_ns); });
                    } else if (kLatencies[l] > 0 || waits || (kSizes[s] == kPiB && kBandwidths[b] < 1)) {
                        positive.check(r.time_ns > 0, [&] { return here() + ": takes no time"; });
                    }
                }
        for (std::size_t b = 0; b < kBandwidths.size(); ++b)
            for (std::size_t l = 0; l < kLatencies.size(); ++l)
                for (std::size_t s = 0; s < kSizes.size(); ++s) {
                    const double v = t[b][l][s];
                    auto at = [&, b, l, s](const std::string& change, double other) {
                        std::ostringstream o;
                        o << label << ", " << kBandwidths[b] << " GB/s, " << kLatencies[l] << " ns, " << kSizes[s]
                          << " B: " << change << " goes from " << v << " to " << other << " ns";
                        return o.str();
                    };
                    if (s + 1 < kSizes.size())
                        bigger.check(t[b][l][s + 1] >= v, [&] { return at("a bigger message", t[b][l][s + 1]); });
                    if (b + 1 < kBandwidths.size())
                        faster_link.check(t[b + 1][l][s] <= v, [&] { return at("a faster link", t[b + 1][l][s]); });
                    if (l + 1 < kLatencies.size())
                        less_latency.check(v <= t[b][l + 1][s], [&] { return at("more latency", t[b][l + 1][s]); });
                }
    }

    void check_all() {
        {
            INFO("refused combinations not known to be refused:\n" << unknown_refusals);
            CHECK(unknown_refusals.empty());
        }
        report("finite and non-negative", finite);
        report("time > 0 on more than one NPU with a latency or delay", positive);
        report("one NPU takes no time", single);
        report("a bigger message is never faster", bigger);
        report("a faster link is never slower", faster_link);
        report("less latency is never slower", less_latency);
        report("a query takes less than a second", slow);
    }
};

std::shared_ptr<const NcclParameters> nccl_parameters() {
    static const Preset preset = load_preset("h100-ib-ndr400", {DTCALC_PRESETS_DIR});
    return preset.system.nccl;
}

}  // namespace

TEST_CASE("numeric edge: every ASTRA-sim algorithm, collective and backend at 1 B..1 PiB, 1..1,048,576 NPUs, "
          "1e-3..1e6 GB/s, latency and endpoint delay 0") {
    Sweep sweep;
    for (const Shape& shape : astra_shapes())
        for (const AlgorithmChoice& algorithm : kAlgorithms)
            for (NetworkBackend backend : {NetworkBackend::AstraUnaware, NetworkBackend::AstraAware})
                for (CollectiveKind kind : kKinds)
                    for (double endpoint : {0.0, 10.0}) {
                        if (kind == CollectiveKind::SendRecv && algorithm.kind != AlgorithmKind::Ring) continue;
                        std::int64_t npus = 1;
                        for (const auto& d : shape.dims) npus *= d.second;
                        // An endpoint delay only adds (steps + 1) x delay: on the million-NPU
                        // networks (the slow ones to price) the edge value 0 is enough.
                        if (endpoint > 0 && npus >= kMillion) continue;
                        const std::string label = std::string(collective_kind_name(kind)) + " " +
                                                  (algorithm.flat ? "one" : "") + std::string(algorithm_name(algorithm.kind)) +
                                                  " on " + shape.label + ", " + std::string(network_backend_name(backend)) +
                                                  ", endpoint delay " + std::to_string(endpoint);
                        const SystemConfig system = make_system(algorithm, shape.dims.size(), endpoint);
                        sweep.scenario(label, npus, endpoint > 0, [&](double bandwidth, double latency, std::uint64_t bytes) {
                            const Network network = make_network(shape, bandwidth, latency);
                            return collective_time(network, system, backend, {kind, bytes, whole_network_group(network)});
                        });
                    }
    CHECK(sweep.evaluated > 10000);
    sweep.check_all();
}

TEST_CASE("numeric edge: the most chunks (1024 splits, 1024 in flight) at the size and NPU edges stay finite and fast") {
    Sweep sweep;
    for (const Shape& shape : astra_shapes())
        for (NetworkBackend backend : {NetworkBackend::AstraUnaware, NetworkBackend::AstraAware}) {
            if (shape.grid) continue;
            std::int64_t npus = 1;
            for (const auto& d : shape.dims) npus *= d.second;
            const SystemConfig system = make_system({AlgorithmKind::Ring, false}, shape.dims.size(), 0, kMaxChunks, kMaxChunks);
            sweep.scenario("all-reduce ring, 1024/1024 chunks, on " + shape.label + ", " +
                               std::string(network_backend_name(backend)),
                           npus, false, [&](double bandwidth, double latency, std::uint64_t bytes) {
                               const Network network = make_network(shape, bandwidth, latency);
                               return collective_time(network, system, backend,
                                                      {CollectiveKind::AllReduce, bytes, whole_network_group(network)});
                           });
        }
    sweep.check_all();
}

TEST_CASE("numeric edge: the nccl backend at every forced algorithm and protocol, 1..1,048,576 GPUs") {
    // Dimension 0 is the node (NVLink), dimension 1 the NICs: 1 GPU, 2 GPUs on
    // one node, 8 x 2, one node of 1,048,576, and 131,072 nodes of 8.
    const std::vector<Shape> shapes{
        {"1 GPU", {{Topology::Switch, 1}}},
        {"2 GPUs", {{Topology::Switch, 2}}},
        {"8 GPUs x 2 nodes", {{Topology::Switch, 8}, {Topology::Switch, 2}}},
        {"1048576 GPUs on one node", {{Topology::Switch, kMillion}}},
        {"8 GPUs x 131072 nodes", {{Topology::Switch, 8}, {Topology::Switch, kMillion / 8}}},
    };
    const std::vector<std::optional<NcclAlgorithm>> algorithms{
        std::nullopt, NcclAlgorithm::Ring, NcclAlgorithm::Tree, NcclAlgorithm::Nvls, NcclAlgorithm::NvlsTree, NcclAlgorithm::Pat};
    const std::vector<std::optional<NcclProtocol>> protocols{std::nullopt, NcclProtocol::LL, NcclProtocol::LL128,
                                                             NcclProtocol::Simple};
    // NCCL's own choice moves between algorithms with the size and the link,
    // and its model is not dtcalc's, so monotonicity is checked for forced
    // pairs only; the free choice is checked for finiteness and positivity.
    Sweep forced, free_choice;
    long long not_enabled = 0;
    for (const Shape& shape : shapes)
        for (const auto& algorithm : algorithms)
            for (const auto& protocol : protocols)
                for (CollectiveKind kind : kKinds) {
                    std::int64_t npus = 1;
                    for (const auto& d : shape.dims) npus *= d.second;
                    NcclParameters params = *nccl_parameters();
                    params.forced_algorithm = algorithm;
                    params.forced_protocol = protocol;
                    SystemConfig system = make_system({AlgorithmKind::Ring, false}, shape.dims.size(), 0);
                    system.nccl = std::make_shared<const NcclParameters>(params);
                    const std::string label = std::string(collective_kind_name(kind)) + " on " + shape.label + ", nccl " +
                                              (algorithm ? std::string(nccl_algorithm_name(*algorithm)) : "any") + "/" +
                                              (protocol ? std::string(nccl_protocol_name(*protocol)) : "any");
                    Sweep& sweep = algorithm && protocol ? forced : free_choice;
                    const long long refused_before = sweep.refused;
                    // NCCL's latencies are its own constants: a GPU pair always takes time.
                    // A pair NCCL does not enable for the communicator (nvls across nodes, say) is refused.
                    sweep.scenario(label, npus, true, [&](double bandwidth, double latency, std::uint64_t bytes) {
                        const Network network = make_network(shape, bandwidth, latency);
                        return collective_time(network, system, NetworkBackend::Nccl, {kind, bytes, whole_network_group(network)});
                    });
                    not_enabled += sweep.refused - refused_before;
                }
    CHECK(not_enabled > 0);  // nvls across nodes, pat with several GPUs per node, ...
    CHECK(forced.evaluated > 500);
    forced.check_all();
    INFO("refused combinations not known to be refused:\n" << free_choice.unknown_refusals);
    CHECK(free_choice.unknown_refusals.empty());
    report("nccl free choice: finite", free_choice.finite);
    report("nccl free choice: time > 0", free_choice.positive);
    report("nccl free choice: a query takes less than a second", free_choice.slow);
}

TEST_CASE("numeric edge: hand-computed times at the edges") {
    // B = GB/s x 2^30 / 1e9 bytes per ns (ASTRA-sim's GB). Local reductions
    // at local-mem-bw 1e12 GB/s: 3 x floor(bytes / 1e12).
    auto ring_all_reduce = [](int npus, double bandwidth, NetworkBackend backend, std::uint64_t bytes, double latency = 0) {
        const Network network{{{Topology::Ring, npus, bandwidth, latency}}};
        return collective_time(network, make_system({AlgorithmKind::Ring, false}, 1, 0), backend,
                               {CollectiveKind::AllReduce, bytes, whole_network_group(network)});
    };

    SUBCASE("ring all-reduce of 1 B on 2 NPUs, latency 0, endpoint delay 0") {
        // The chunk is raised to the group size: max(1 B / 1 split, 2) = 2 B,
        // so each NPU's block is 2 / 2 = 1 B. Ring all-reduce on 2 NPUs:
        // 2(p - 1) = 2 steps of 1 B, one hop each.
        // At 1e-3 GB/s: B = 1e-3 x 1.073741824 = 0.001073741824 B/ns, and one
        // step is floor(0 x 1 + 1 / 0.001073741824) = floor(931.32...) = 931 ns.
        // Reduction after the first step: 3 x floor(1 / 1e12) = 0.
        // Endpoint: (2 + 1) x 0 = 0. One chunk, so the total is 2 x 931 = 1862 ns.
        for (NetworkBackend backend : {NetworkBackend::AstraUnaware, NetworkBackend::AstraAware}) {
            // The aware backend charges hops x floor(latency + 1 / B) = 931 per step too.
            const CollectiveResult r = ring_all_reduce(2, 1e-3, backend, 1);
            CHECK(r.chunk_bytes == 2);
            REQUIRE(r.phases.size() == 1);
            CHECK(r.phases[0].steps == 2);
            CHECK(r.phases[0].bytes_per_step == 1);
            CHECK(r.time_ns == 1862);
        }
        // At 1e6 GB/s a byte takes 1 / 1073741.824 = 9.3e-7 ns; floor(9.3e-7) = 0:
        // with no latency and no endpoint delay the collective takes 0 ns (ASTRA-sim floors each step).
        CHECK(ring_all_reduce(2, 1e6, NetworkBackend::AstraUnaware, 1).time_ns == 0);
    }

    SUBCASE("ring all-reduce of 1 PiB on 3 NPUs at 1e6 GB/s, latency 0") {
        // Chunk 2^50 B; block floor(2^50 / 3) = 375,299,968,947,541 B.
        // B = 1e6 x 2^30 / 1e9 = 2^30 / 1000 B/ns, so a step serialises
        // 375,299,968,947,541 x 1000 / 2^30 = 349,525,333.33 ns, floor 349,525,333.
        // 2(3 - 1) = 4 steps, one hop each: 1,398,101,332 ns. The first p - 1 = 2
        // steps reduce: 3 x floor(375,299,968,947,541 / 1e12) = 3 x 375 = 1125 ns
        // each. Total 1,398,101,332 + 2,250 = 1,398,103,582 ns.
        CHECK(ring_all_reduce(3, 1e6, NetworkBackend::AstraUnaware, kPiB, 0).time_ns == 1398103582.0);
    }

    SUBCASE("ring all-reduce of 1 PiB on 1,048,576 NPUs at 1e-3 GB/s") {
        // Block 2^50 / 2^20 = 2^30 B. B = 1e-3 x 2^30 / 1e9 B/ns, so a step
        // serialises 2^30 / B = 1e12 ns. With latency 0.5 ns (one hop) a step
        // is floor(0.5 + 1e12) = 1e12 ns (the half keeps the floor clear of
        // rounding). 2(2^20 - 1) = 2,097,150 steps; reductions
        // 3 x floor(2^30 / 1e12) = 0. Total 2,097,150 x 1e12 = 2.09715e18 ns (66 years).
        const CollectiveResult r = ring_all_reduce(kMillion, 1e-3, NetworkBackend::AstraUnaware, kPiB, 0.5);
        CHECK(r.phases.at(0).steps == 2097150);
        CHECK(r.time_ns == 2097150.0 * 1e12);
    }

    SUBCASE("all-gather of 1 B on 1,048,576 NPUs on a switch, latency 1 s (the largest accepted)") {
        // Each NPU's input: max(1 / 2^20 / 1, 1) = 1 B (raised to a byte); the
        // ring all-gather then works on 2^20 B, 1 B per message, p - 1 =
        // 1,048,575 steps of 2 hops (NPU, switch, NPU): floor(2 x 1e9 + 1 / B).
        // At 1e6 GB/s, 1 / B < 1e-6 ns, so a step is 2e9 ns:
        // 1,048,575 x 2e9 = 2.09715e15 ns, plus endpoint delays (1,048,576 x 0).
        const Network network{{{Topology::Switch, kMillion, 1e6, kMaxLatencyNs}}};
        const CollectiveResult r = collective_time(network, make_system({AlgorithmKind::Ring, false}, 1, 0),
                                                   NetworkBackend::AstraUnaware,
                                                   {CollectiveKind::AllGather, 1, whole_network_group(network)});
        CHECK(r.time_ns == 1048575.0 * 2e9);
    }
}

TEST_CASE("numeric edge: a small ASTRA-sim 1.0 workload on the edge networks") {
    // Two layers: an all-to-all, an input-gradient reduce-scatter and two
    // weight-gradient all-reduces of S bytes each, and a forward all-gather of
    // S / NPUs per NPU (at least 1 B), so that the gathered output is at most S.
    auto workload = [](std::uint64_t s, std::uint64_t gather) {
        const std::string S = std::to_string(s), G = std::to_string(gather);
        return "DATA\n2\n"
               "embed -1 100 ALLTOALL " + S + " 50 NONE 0 80 ALLREDUCE " + S + " 10\n"
               "mlp -1 200 ALLGATHER " + G + " 150 REDUCESCATTER " + S + " 120 ALLREDUCE " + S + " 0\n";
    };
    Failures finite, covers_compute, faster_link, bigger;
    int runs = 0;
    for (const Shape& shape : astra_shapes()) {
        if (shape.grid && shape.dims.front().second > 2) continue;  // the big grids: covered by the collective sweep
        std::int64_t npus = 1;
        for (const auto& d : shape.dims) npus *= d.second;
        for (NetworkBackend backend : {NetworkBackend::AstraUnaware, NetworkBackend::AstraAware}) {
            double previous_size = 0;
            for (std::uint64_t s : {std::uint64_t{1}, kPiB}) {
                // The all-gather's size is each NPU's input: at most 2^50 / NPUs so the output fits.
                const std::uint64_t gather = std::max<std::uint64_t>(s / static_cast<std::uint64_t>(npus), 1);
                const V1Workload w = parse_v1_workload_text(workload(s, gather), "edges.txt");
                double slow_link = 0;
                for (double bandwidth : kBandwidths) {
                    const Network network = make_network(shape, bandwidth, 0);
                    const SystemConfig system = make_system({AlgorithmKind::Ring, false}, shape.dims.size(), 0);
                    const WorkloadGraph graph = build_v1_training_graph(w, network, 1);
                    EvaluationSystem eval;
                    eval.network = &network;
                    eval.system = &system;
                    eval.backend = backend;
                    const IterationReport r = make_iteration_report(graph, evaluate(graph, eval), 1);
                    ++runs;
                    const std::string here = shape.label + ", " + std::string(network_backend_name(backend)) + ", " +
                                             std::to_string(s) + " B, " + std::to_string(bandwidth) + " GB/s";
                    finite.check(std::isfinite(r.iteration_ns) && std::isfinite(r.comm_ns) && std::isfinite(r.exposed_comm_ns) &&
                                     r.comm_ns >= 0 && r.exposed_comm_ns >= 0,
                                 [&] { return here; });
                    // Compute alone, on one stream: forward 100 + 200, input gradient 150 (layer 0
                    // has none), weight gradient 80 + 120, the final update 10: 660 cycles.
                    covers_compute.check(r.iteration_ns >= 660, [&] { return here + ": " + std::to_string(r.iteration_ns); });
                    if (slow_link > 0)
                        faster_link.check(r.iteration_ns <= slow_link, [&] { return here + ": " + std::to_string(r.iteration_ns); });
                    else slow_link = r.iteration_ns;
                    if (bandwidth == kBandwidths.front()) {
                        bigger.check(r.iteration_ns >= previous_size, [&] { return here; });
                        previous_size = r.iteration_ns;
                    }
                }
            }
        }
    }
    CHECK(runs > 40);
    report("v1 run: finite", finite);
    report("v1 run: at least the compute", covers_compute);
    report("v1 run: a faster link is never slower", faster_link);
    report("v1 run: bigger messages are never faster", bigger);
}

TEST_CASE("numeric edge: predict for a small GPT at the NPU and link edges") {
    // GPT with 2 layers of hidden 256: small enough that any plan fits.
    ModelSpec m;
    m.name = "tiny-gpt";
    m.layers = 2;
    m.hidden = 256;
    m.ffn_hidden = 1024;
    m.heads = 4;
    m.kv_heads = 4;
    m.vocab = 1000;
    m.seq = 128;
    Failures finite, faster_link;
    int runs = 0;
    for (int npus : {1, 2, kMillion})
        for (NetworkBackend backend : {NetworkBackend::AstraUnaware, NetworkBackend::AstraAware, NetworkBackend::Nccl})
            for (int zero : {0, 3}) {
                double previous = 0;
                for (double bandwidth : kBandwidths) {
                    PredictInputs in;
                    in.model = m;
                    in.backend = backend;
                    // Nodes of 8 (or fewer) GPUs on a switch; NCCL's view needs its nodes on dimension 1.
                    const int per_node = std::min(npus, 8);
                    in.network.dimensions.push_back({Topology::Switch, per_node, bandwidth, 0});
                    if (npus > per_node) in.network.dimensions.push_back({Topology::Switch, npus / per_node, bandwidth, 0});
                    in.system = make_system({AlgorithmKind::Ring, false}, in.network.dimensions.size(), 0);
                    in.system.nccl = nccl_parameters();
                    in.device.peak_tflops_bf16 = 989;
                    in.device.hbm_gbps = 3350;
                    in.plan.dp = npus;
                    in.plan.zero = zero;
                    in.plan.mbs = 1;
                    const PredictResult r = predict(in);
                    ++runs;
                    const std::string here = std::to_string(npus) + " NPUs, " + std::string(network_backend_name(backend)) +
                                             ", zero " + std::to_string(zero) + ", " + std::to_string(bandwidth) + " GB/s";
                    REQUIRE_MESSAGE(r.plan_problems.empty(), here);
                    bool ok = true;
                    for (double v : {r.iteration_ns, r.compute_ns, r.comm_ns, r.exposed_comm_ns, r.bubble_ns, r.tokens_per_s,
                                     r.tokens_per_s_per_gpu, r.model_tflops_per_gpu, r.mfu, r.model_flops})
                        ok = ok && std::isfinite(v) && v >= 0;
                    finite.check(ok && r.iteration_ns > 0 && r.tokens_per_s > 0, [&] { return here; });
                    if (previous > 0)
                        faster_link.check(r.iteration_ns <= previous, [&] {
                            return here + ": " + std::to_string(previous) + " -> " + std::to_string(r.iteration_ns);
                        });
                    previous = r.iteration_ns;
                }
            }
    CHECK(runs == 36);
    report("predict: finite and positive", finite);
    report("predict: a faster link is never slower", faster_link);
}

// ---------------------------------------------------------------------------
// Bounds: what is outside the physical ranges is refused, naming the key.

namespace {

std::string network_yaml(const std::string& topology, const std::string& npus, const std::string& bandwidth,
                         const std::string& latency) {
    return "topology: [ " + topology + " ]\nnpus_count: [ " + npus + " ]\nbandwidth: [ " + bandwidth +
           " ]\nlatency: [ " + latency + " ]\n";
}

std::string system_json(const std::string& splits, const std::string& active, const std::string& endpoint,
                        const std::string& mem_bw) {
    return "{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": " + endpoint +
           ", \"active-chunks-per-dimension\": " + active + ", \"preferred-dataset-splits\": " + splits +
           ",\n \"all-reduce-implementation\": [\"ring\"], \"all-gather-implementation\": [\"ring\"], "
           "\"reduce-scatter-implementation\": [\"ring\"], \"all-to-all-implementation\": [\"ring\"],\n"
           " \"collective-optimization\": \"baseline\", \"local-mem-bw\": " + mem_bw + "}\n";
}

}  // namespace

TEST_CASE("numeric edge: network files outside the physical ranges are refused with the key and the range") {
    auto load = [](const std::string& name, const std::string& text) {
        const std::string path = write_temp_file("numedge-" + name + ".yml", text);
        return std::make_pair(path, error_of([&] { load_astra_network_yaml(path); }));
    };
    SUBCASE("the edges themselves are accepted") {
        for (const std::string& bandwidth : {"1e-6", "1e-3", "1e6", "1e12"})
            for (const std::string& latency : {"0", "1e9"}) {
                const auto [path, error] = load("ok", network_yaml("Ring", "1048576", bandwidth, latency));
                CHECK(error == "(no error)");
            }
        const auto [path, error] = load("ok-product", network_yaml("Ring, Switch, Ring", "256, 256, 256", "1, 1, 1", "0, 0, 0"));
        CHECK(error == "(no error)");  // 2^24 exactly
    }
    SUBCASE("bandwidth below 1 kB/s or above 1 ZB/s") {
        const auto [slow, slow_error] = load("slow", network_yaml("Ring", "4", "1e-7", "0"));
        CHECK(slow_error == slow + ":3:14: bandwidth[0]: out of range (got 1e-07): accepted are 1e-06 to 1e+12 GB/s per link "
                                   "(1 kB/s to 1 ZB/s)");
        const auto [fast, fast_error] = load("fast", network_yaml("Ring", "4", "2e12", "0"));
        CHECK(fast_error == fast + ":3:14: bandwidth[0]: out of range (got 2e+12): accepted are 1e-06 to 1e+12 GB/s per link "
                                   "(1 kB/s to 1 ZB/s)");
    }
    SUBCASE("latency over a second") {
        const auto [path, error] = load("latency", network_yaml("Ring", "4", "100", "2e9"));
        CHECK(error == path + ":4:12: latency[0]: out of range (got 2e+09): accepted are 0 to 1e+09 ns per hop (up to 1 s)");
    }
    SUBCASE("dimensions that multiply past 2^24 NPUs, also where the 64-bit product would wrap to 0") {
        const auto [path, error] = load("product", network_yaml("Ring, Ring", "8192, 4096", "1, 1", "0, 0"));
        CHECK(error == path + ":2:21: npus_count[1]: out of range: the dimensions multiply to more than 16,777,216 NPUs "
                              "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
        // 65536^4 = 2^64: before the bound, the product wrapped to 0 and the network had "0 NPUs".
        const auto [wrap, wrap_error] =
            load("wrap", network_yaml("Ring, Ring, Ring, Ring", "65536, 65536, 65536, 65536", "1, 1, 1, 1", "0, 0, 0, 0"));
        CHECK(wrap_error == wrap + ":2:22: npus_count[1]: out of range: the dimensions multiply to more than 16,777,216 NPUs "
                                   "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
        // A grid entry's axes count the same way.
        const auto [grid, grid_error] = load("grid", network_yaml("Torus2D, Ring", "4096, 4096, 2", "1, 1", "0, 0"));
        CHECK(grid_error == grid + ":2:27: npus_count[2]: out of range: the dimensions multiply to more than 16,777,216 NPUs "
                                   "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
    }
}

TEST_CASE("numeric edge: system files outside the physical ranges are refused with the key and the range") {
    auto load = [](const std::string& name, const std::string& text) {
        const std::string path = write_temp_file("numedge-" + name + ".json", text);
        return std::make_pair(path, error_of([&] { load_astra_system_json(path, 1); }));
    };
    {
        const auto [path, error] = load("sys-ok", system_json("1024", "1024", "1e9", "1e-6"));
        CHECK(error == "(no error)");
    }
    {
        const auto [path, error] = load("sys-splits", system_json("1025", "1", "0", "1000"));
        CHECK(error == path + ":1: preferred-dataset-splits: out of range (got 1025): accepted are 1 to 1024");
    }
    {
        const auto [path, error] = load("sys-active", system_json("4", "100000", "0", "1000"));
        CHECK(error == path + ":1: active-chunks-per-dimension: out of range (got 100000): accepted are 1 to 1024");
    }
    {
        const auto [path, error] = load("sys-endpoint", system_json("4", "1", "1e10", "1000"));
        CHECK(error == path + ":1: endpoint-delay: out of range (got 1e+10): accepted are 0 to 1e+09 ns (up to 1 s)");
    }
    {
        const auto [path, error] = load("sys-membw", system_json("4", "1", "0", "1e-9"));
        CHECK(error == path + ":3: local-mem-bw: out of range (got 1e-09): accepted are 1e-06 to 1e+12 GB/s (1 kB/s to 1 ZB/s)");
    }
    {
        std::string text = system_json("4", "1", "0", "1000");
        text.insert(text.rfind('}'), ", \"peak-perf\": 1e-9");
        const auto [path, error] = load("sys-peak", text);
        CHECK(error == path + ":3: peak-perf: out of range (got 1e-09): accepted are 1e-06 to 1e+09 TFLOP/s");
    }
    {
        const std::string path = write_temp_file("numedge-remote.json", "{\"memory-type\": \"PER_NPU_MEMORY_EXPANSION\", "
                                                                        "\"remote-mem-latency\": 5, \"remote-mem-bw\": 1e-9}\n");
        CHECK(error_of([&] { chakra::load_remote_memory(path); }) ==
              path + ":1: remote-mem-bw: out of range (got 1e-09): accepted are 1e-06 to 1e+12 GB/s (1 kB/s to 1 ZB/s)");
    }
}

TEST_CASE("numeric edge: a cluster shaped past 2^24 NPUs is refused, whatever the 64-bit product would be") {
    Network two{{{Topology::Switch, 8, 450, 0}, {Topology::Switch, 16, 50, 0}}};
    CHECK(shape_cluster(two, 2097152, 8).total_npus() == kMaxNpus);  // 2^21 x 8 = 2^24: the edge is accepted
    CHECK(error_of([&] { shape_cluster(two, 16777216, 16777216); }) ==
          "--nodes: out of range: the cluster would have more than 16,777,216 NPUs (accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
    // The middle dimension is kept: 2^24 x 2^24 x 2^24 would be 2^72.
    Network three{{{Topology::Switch, 8, 450, 0}, {Topology::Switch, 16777216, 50, 0}, {Topology::Switch, 2, 50, 0}}};
    CHECK(error_of([&] { shape_cluster(three, std::nullopt, 16777216); }) ==
          "--gpus-per-node: out of range: the cluster would have more than 16,777,216 NPUs (accepted are 1 to 16,777,216 = 2^24 NPUs in all)");
}

TEST_CASE("numeric edge: message sizes over 1 PiB are refused; all-gathers whose output would pass it too") {
    SUBCASE("sizes parse up to EiB so that the bound, not the parser, answers") {
        CHECK(parse_byte_size("1EiB") == std::uint64_t{1} << 60);
        CHECK(parse_byte_size("1EB") == 1000000000000000000ULL);
        CHECK(parse_byte_size("1PiB") == kPiB);
        CHECK(byte_size_out_of_range(std::uint64_t{1} << 60) ==
              "out of range (got 1 EiB): sizes from 0 B to 1 PiB (2^50 B) are accepted");
    }
    SUBCASE("the collective front door") {
        const Network network{{{Topology::Ring, 4, 100, 0}}};
        const SystemConfig system = make_system({AlgorithmKind::Ring, false}, 1, 0);
        CHECK(error_of([&] {
                  collective_time(network, system, NetworkBackend::AstraUnaware,
                                  {CollectiveKind::AllReduce, kPiB + 1, whole_network_group(network)});
              }) == "size: out of range (got 1125899906842625 B): sizes from 0 B to 1 PiB (2^50 B) are accepted");
        CHECK(error_of([&] {
                  collective_time(network, system, NetworkBackend::AstraUnaware,
                                  {CollectiveKind::AllReduce, kPiB, whole_network_group(network)});
              }) == "(no error)");
    }
    SUBCASE("an ASTRA-sim 1.0 size over 1 PiB") {
        const std::string text = "DATA\n1\nl -1 1 NONE 0 1 NONE 0 1 ALLREDUCE 1125899906842625 0\n";
        CHECK(error_of([&] { parse_v1_workload_text(text, "big.txt"); }) ==
              "big.txt:3: wg_comm_size: out of range (got 1125899906842625): sizes from 0 B to 1 PiB (2^50 B) are accepted");
    }
    SUBCASE("an ASTRA-sim 1.0 all-gather: each NPU's input times the group, checked before it is multiplied") {
        // 2^40 B per NPU on 1024 NPUs gathers exactly 2^50 B: accepted. On
        // 2048 NPUs it would be 2^51; on 2^24 NPUs of 2^50 B, 2^74 (a 64-bit wrap).
        const std::string text = "DATA\n1\nl -1 1 ALLGATHER 1099511627776 1 NONE 0 1 NONE 0 0\n";
        const V1Workload w = parse_v1_workload_text(text, "gather.txt");
        const Network fits{{{Topology::Ring, 1024, 100, 0}}};
        CHECK(build_v1_training_graph(w, fits, 1).ops.size() > 0);
        const Network over{{{Topology::Ring, 2048, 100, 0}}};
        CHECK(error_of([&] { build_v1_training_graph(w, over, 1); }) ==
              "gather.txt:3: fwd_comm_size: out of range: an all-gather of 1099511627776 B per NPU on 2048 NPUs gathers "
              "more than 1 PiB (2^50 B, the largest size accepted)");
        const std::string huge = "DATA\n1\nl -1 1 ALLGATHER 1125899906842624 1 NONE 0 1 NONE 0 0\n";
        const Network most{{{Topology::Switch, 1 << 24, 100, 0}}};
        CHECK(error_of([&] { build_v1_training_graph(parse_v1_workload_text(huge, "wrap.txt"), most, 1); }) ==
              "wrap.txt:3: fwd_comm_size: out of range: an all-gather of 1125899906842624 B per NPU on 16777216 NPUs "
              "gathers more than 1 PiB (2^50 B, the largest size accepted)");
    }
    SUBCASE("a GEMM whose buffer, a message of the workload gen-workload writes, is over 1 PiB") {
        // m = n = k = 2^25 at 2 bytes: the forward output m x n x 2 is 2^51 B.
        GemmLayer big;
        big.name = "big";
        big.line = 3;
        big.m = big.n = big.k = std::int64_t{1} << 25;
        CHECK(error_of([&] { split_layer(big, "g.csv", {1, 1}, 2); }) ==
              "g.csv:3: layer: 'big': a buffer of 2251799813685248 bytes is out of range (sizes from 0 B to 1 PiB = 2^50 B "
              "are accepted)");
        big.m = big.n = big.k = std::int64_t{1} << 24;  // 2^49 B: accepted
        CHECK(split_layer(big, "g.csv", {1, 1}, 2).weight_bytes == std::uint64_t{1} << 49);
    }
    SUBCASE("an ASTRA-sim 1.0 compute time over 1e18 cycles") {
        const std::string text = "DATA\n1\nl -1 1e300 NONE 0 1 NONE 0 1 NONE 0 0\n";
        CHECK(error_of([&] { parse_v1_workload_text(text, "slow.txt"); }) ==
              "slow.txt:3: fwd_compute: out of range (got 1e300): accepted are 0 to 1e18 cycles (32 years)");
    }
}

// ---------------------------------------------------------------------------
// The command line at a few representative edges.

namespace {

struct Files {
    std::string network, system;
};

Files edge_files(const std::string& name, const std::string& topology, const std::string& npus, const std::string& bandwidth,
                 const std::string& latency, const std::string& algorithm, const std::string& endpoint = "0") {
    return {write_temp_file("numedge-cli-" + name + ".yml", network_yaml(topology, npus, bandwidth, latency)),
            write_temp_file("numedge-cli-" + name + ".json",
                            "{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": " + endpoint +
                                ", \"active-chunks-per-dimension\": 1, \"preferred-dataset-splits\": 1, "
                                "\"all-reduce-implementation\": [\"" + algorithm + "\"], \"all-gather-implementation\": [\"" +
                                algorithm + "\"], \"reduce-scatter-implementation\": [\"" + algorithm +
                                "\"], \"all-to-all-implementation\": [\"" + algorithm +
                                "\"], \"collective-optimization\": \"baseline\", \"local-mem-bw\": 1000, \"peak-perf\": 100}\n")};
}

/// The time column of `collective --format csv` (its 7th field).
double csv_time(const std::string& out) {
    const std::string row = out.substr(out.find('\n') + 1);
    std::istringstream in(row);
    std::string field;
    for (int i = 0; i < 7; ++i) std::getline(in, field, ',');
    return std::stod(field);
}

}  // namespace

TEST_CASE("numeric edge: the command line prints no nan or inf at the edges, and exits 0 or 2") {
    int runs = 0;
    for (const std::string& npus : {"1", "2", "1048576"})
        for (const std::string& bandwidth : {"0.001", "1000000"})
            for (const std::string& algorithm : {"ring", "direct"}) {
                const Files f = edge_files(npus + "-" + bandwidth + "-" + algorithm, "Switch", npus, bandwidth, "0", algorithm);
                for (const std::string& format : {"table", "csv", "json"})
                    for (const std::string& size : {"1", "1PiB", "1:1PiB:x1024"}) {
                        const auto r = run_dtcalc("collective all-to-all --size " + size + " --network " + f.network +
                                                  " --system " + f.system + " --units cycles --format " + format);
                        ++runs;
                        INFO(npus << " NPUs, " << bandwidth << " GB/s, " << algorithm << ", " << format << ", " << size);
                        INFO(r.out);
                        CHECK(r.exit_code == 0);
                        CHECK_FALSE(has_nan_or_inf(r.out));
                    }
            }
    CHECK(runs == 108);
    // The same 1 PiB all-reduce on the preset's 64 NPUs with --npus 1 and the whole
    // network, in every unit, and the nccl preset at 1 and 1,048,576 GPUs.
    for (const std::string& units : {"us", "ns", "ms", "s", "cycles"}) {
        for (const std::string& group : {"--npus 1", ""}) {
            const auto r = run_dtcalc("collective all-reduce --size 1PiB --preset lab-system1 --units " + units + " " + group);
            CHECK(r.exit_code == 0);
            CHECK_FALSE(has_nan_or_inf(r.out));
        }
    }
    for (const std::string& shape : {"--nodes 1 --gpus-per-node 1", "--nodes 131072 --gpus-per-node 8"})
        for (const std::string& kind : {"all-reduce", "all-gather", "all-to-all", "send-recv"}) {
            const auto r = run_dtcalc("collective " + kind + " --size 1:1PiB:x1024 --preset h100-ib-ndr400 " + shape + " --format json");
            INFO(kind << " " << shape << "\n" << r.out);
            CHECK(r.exit_code == 0);
            CHECK_FALSE(has_nan_or_inf(r.out));
        }
    // Hand value through the CLI: 1 B ring all-reduce on 2 NPUs at 1e-3 GB/s,
    // latency 0 (see "hand-computed times"): 2 steps x floor(931.32) = 1862 ns.
    const Files two = edge_files("hand", "Ring", "2", "0.001", "0", "ring");
    const auto hand = run_dtcalc("collective all-reduce --size 1 --network " + two.network + " --system " + two.system +
                                 " --units ns --format csv");
    REQUIRE(hand.exit_code == 0);
    CHECK(csv_time(hand.out) == 1862);
}

TEST_CASE("numeric edge: run and predict on the command line at the edges") {
    const std::string workload = write_temp_file("numedge-cli-v1.txt",
                                                  "DATA\n2\n"
                                                  "a -1 100 NONE 0 50 NONE 0 80 ALLREDUCE 1125899906842624 10\n"
                                                  "b -1 200 ALLGATHER 1 150 REDUCESCATTER 1 120 ALLTOALL 1 0\n");
    for (const std::string& npus : {"1", "1048576"})
        for (const std::string& bandwidth : {"0.001", "1000000"})
            for (const std::string& format : {"table", "csv", "json"}) {
                const Files f = edge_files("run-" + npus + "-" + bandwidth, "Switch", npus, bandwidth, "0", "ring");
                const auto r = run_dtcalc("run " + workload + " --network " + f.network + " --system " + f.system +
                                          " --units cycles --format " + format);
                INFO(npus << " NPUs at " << bandwidth << " GB/s, " << format << "\n" << r.out);
                CHECK(r.exit_code == 0);
                CHECK_FALSE(has_nan_or_inf(r.out));
            }
    for (const std::string& shape : {"--nodes 1 --gpus-per-node 1", "--nodes 131072 --gpus-per-node 8"})
        for (const std::string& format : {"table", "csv", "json"}) {
            const auto r = run_dtcalc("predict --model gpt2 --preset h100-ib-ndr400 " + shape +
                                      " --mbs 1 --seq 128 --zero 3 --format " + format);
            INFO(shape << " " << format << "\n" << r.out);
            CHECK(r.exit_code == 0);
            CHECK_FALSE(has_nan_or_inf(r.out));
        }
}

TEST_CASE("numeric edge: the command line refuses what is out of range with exit code 2 and one line naming the flag or key") {
    SUBCASE("--size over 1 PiB, alone or as the top of a range") {
        for (const std::string& size : {"1EiB", "1KiB:1EiB:x1024", "2PiB"}) {
            const auto r = run_dtcalc("collective all-reduce --size " + size + " --preset lab-system1");
            CHECK(r.exit_code == 2);
            CHECK(r.out.rfind("dtcalc: error: --size: out of range (got ", 0) == 0);
            CHECK(r.out.find("): sizes from 0 B to 1 PiB (2^50 B) are accepted\n") != std::string::npos);
        }
        CHECK(run_dtcalc("collective all-reduce --size 1EiB --preset lab-system1").out ==
              "dtcalc: error: --size: out of range (got 1 EiB): sizes from 0 B to 1 PiB (2^50 B) are accepted\n");
    }
    SUBCASE("a cluster of more than 2^24 NPUs") {
        const auto r = run_dtcalc("collective all-reduce --size 1MiB --preset h100-ib-ndr400 --nodes 16777216 --gpus-per-node 8");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: --nodes: out of range: the cluster would have more than 16,777,216 NPUs "
                       "(accepted are 1 to 16,777,216 = 2^24 NPUs in all)\n");
    }
    SUBCASE("a network whose dimensions multiply past 2^24 (and would wrap a 64-bit product to 0)") {
        const Files f = edge_files("wrap", "Ring, Ring, Ring, Ring", "65536, 65536, 65536, 65536", "1, 1, 1, 1", "0, 0, 0, 0", "ring");
        const auto r = run_dtcalc("collective all-reduce --size 1MiB --network " + f.network + " --system " + f.system);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + f.network + ":2:22: npus_count[1]: out of range: the dimensions multiply to more "
                       "than 16,777,216 NPUs (accepted are 1 to 16,777,216 = 2^24 NPUs in all)\n");
    }
    SUBCASE("a link of 1e-9 GB/s") {
        const Files f = edge_files("crawl", "Ring", "4", "1e-9", "0", "ring");
        const auto r = run_dtcalc("collective all-reduce --size 1MiB --network " + f.network + " --system " + f.system);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + f.network + ":3:14: bandwidth[0]: out of range (got 1e-09): accepted are 1e-06 "
                       "to 1e+12 GB/s per link (1 kB/s to 1 ZB/s)\n");
    }
    SUBCASE("an all-gather in a workload that gathers more than 1 PiB") {
        const std::string workload = write_temp_file("numedge-cli-gather.txt",
                                                     "DATA\n1\nl -1 1 ALLGATHER 1125899906842624 1 NONE 0 1 NONE 0 0\n");
        const Files f = edge_files("gather", "Switch", "1048576", "100", "0", "ring");
        const auto r = run_dtcalc("run " + workload + " --network " + f.network + " --system " + f.system);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + workload + ":3: fwd_comm_size: out of range: an all-gather of 1125899906842624 B "
                       "per NPU on 1048576 NPUs gathers more than 1 PiB (2^50 B, the largest size accepted)\n");
    }
    SUBCASE("a sweep that scales a link out of range") {
        auto r = run_dtcalc("sweep --model gpt2 --preset lab-system1 --dp 64 --bandwidth-scale 1e11 --quiet");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: bandwidth_scale: out of range (got 1e+13): accepted are 1e-06 to 1e+12 GB/s per "
                       "link (1 kB/s to 1 ZB/s)\n");
        r = run_dtcalc("sweep --model gpt2 --preset lab-system1 --dp 64 --dim1-latency 1,5e9 --quiet");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: dim1_latency: out of range (got 5e+09): accepted are 0 to 1e+09 ns per hop (up to 1 s)\n");
    }
}

TEST_CASE("numeric edge: Chakra sizes over 1 PiB, and all-gathers that would gather more, are refused naming the node") {
    using namespace dtcalc::testing;
    const std::string network = write_switch_network("numedge-switch2", 2);
    const std::string system = write_system("numedge-system", false, false);
    auto astra = [&](const std::string& prefix) {
        return run_dtcalc("astra --workload-configuration " + prefix + " --system-configuration " + system +
                          " --network-configuration " + network);
    };
    constexpr int kAllReduce = 0, kAllGather = 2;  // Chakra's CollectiveCommType
    SUBCASE("the edge itself: an all-reduce of 1 PiB on 2 NPUs runs") {
        const std::string prefix = write_traces("numedge-pib", {{collective(1, kAllReduce, kPiB, "")},
                                                                {collective(1, kAllReduce, kPiB, "")}});
        const auto r = astra(prefix);
        CHECK(r.exit_code == 0);
        CHECK_FALSE(has_nan_or_inf(r.out));
    }
    SUBCASE("comm_size 2^50 + 1") {
        const std::string prefix = write_traces("numedge-over", {{collective(1, kAllReduce, kPiB + 1, "")},
                                                                 {collective(1, kAllReduce, kPiB + 1, "")}});
        const auto r = astra(prefix);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".0.et: node 1: attribute comm_size: out of range (got 1125899906842625 B): "
                       "sizes from 0 B to 1 PiB (2^50 B) are accepted\n");
    }
    SUBCASE("an all-gather of 1 PiB per NPU on 2 NPUs would gather 2 PiB") {
        const std::string prefix = write_traces("numedge-gather", {{collective(1, kAllGather, kPiB, "")},
                                                                   {collective(1, kAllGather, kPiB, "")}});
        const auto r = astra(prefix);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + prefix + ".0.et: node 1: attribute comm_size: out of range: an all-gather of "
                       "1125899906842624 B per NPU on 2 NPUs gathers more than 1 PiB (2^50 B, the largest size accepted)\n");
    }
}
