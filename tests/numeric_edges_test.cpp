// Numerical safety at the edges of the inputs. Message sizes of 1 B and 1 PiB,
// groups of 1, 2 and 1,048,576 NPUs (one dimension of 2^20, dimensions that
// multiply to it, meshes and tori of it), links of 1e-3 and 1e6 GB/s, latency
// and endpoint delay 0, through every algorithm and backend (nccl included):
//   - every result is finite and non-negative; a group of more than one NPU
//     with a latency or endpoint delay takes time (> 0); one NPU takes none;
//   - a bigger message is never faster, a faster link never slower, less
//     latency never slower;
//   - a few points equal the value worked out by hand (numeric_edge_values_test.cpp);
//   - no single query takes a second.
// Past the physical ranges: numeric_ranges_test.cpp.
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
#include "numeric_edge_helpers.h"

using namespace dtcalc;
using dtcalc::testing::error_of;
using dtcalc::testing::has_nan_or_inf;
using dtcalc::testing::kPiB;
using dtcalc::testing::make_system;
using dtcalc::testing::run_dtcalc;
using dtcalc::testing::write_temp_file;

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr int kMillion = 1 << 20;  // 1,048,576 NPUs
const std::vector<std::uint64_t> kSizes{1, kMiB, kPiB};
const std::vector<double> kBandwidths{1e-3, 1e6};  // slowest first
const std::vector<double> kLatencies{0, 500};      // smallest first

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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

const std::vector<AlgorithmChoice> kAlgorithms{
    {AlgorithmKind::Ring, false},     {AlgorithmKind::Direct, false}, {AlgorithmKind::HalvingDoubling, false},
    {AlgorithmKind::DoubleBinaryTree, false}, {AlgorithmKind::Ring, true}, {AlgorithmKind::Direct, true},
    {AlgorithmKind::HalvingDoubling, true}};
const CollectiveKind kKinds[] = {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather,
                                 CollectiveKind::AllToAll, CollectiveKind::SendRecv};

/// Refusals the engine is allowed to make for a combination it does not have.
bool known_refusal(const std::string& message) {
    for (const char* known : {"has no ", "has only all-reduce", "not modelled", "power-of-two", "and none of them runs there"})
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
    return preset.system.config.nccl;
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
                    const NcclForce force = NcclForce::only(algorithm, protocol);
                    SystemConfig system = make_system({AlgorithmKind::Ring, false}, shape.dims.size(), 0);
                    system.nccl = nccl_parameters();
                    const std::string label = std::string(collective_kind_name(kind)) + " on " + shape.label + ", nccl " +
                                              (algorithm ? std::string(nccl_algorithm_name(*algorithm)) : "any") + "/" +
                                              (protocol ? std::string(nccl_protocol_name(*protocol)) : "any");
                    Sweep& sweep = algorithm && protocol ? forced : free_choice;
                    const long long refused_before = sweep.refused;
                    // NCCL's latencies are its own constants: a GPU pair always takes time.
                    // A pair NCCL does not enable for the communicator (nvls across nodes, say) is refused.
                    sweep.scenario(label, npus, true, [&](double bandwidth, double latency, std::uint64_t bytes) {
                        const Network network = make_network(shape, bandwidth, latency);
                        return collective_time(network, system, NetworkBackend::Nccl, {kind, bytes, whole_network_group(network), force});
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
                    const System machine{make_network(shape, bandwidth, 0),
                                         make_system({AlgorithmKind::Ring, false}, shape.dims.size(), 0), backend, {}};
                    const WorkloadGraph graph = build_v1_training_graph(w, machine.network, 1);
                    EvaluationSystem eval;
                    eval.system = &machine;
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
                    in.system.backend = backend;
                    // Nodes of 8 (or fewer) GPUs on a switch; NCCL's view needs its nodes on dimension 1.
                    const int per_node = std::min(npus, 8);
                    in.system.network.dimensions.push_back({Topology::Switch, per_node, bandwidth, 0});
                    if (npus > per_node) in.system.network.dimensions.push_back({Topology::Switch, npus / per_node, bandwidth, 0});
                    in.system.config = make_system({AlgorithmKind::Ring, false}, in.system.network.dimensions.size(), 0);
                    in.system.config.nccl = nccl_parameters();
                    in.system.device.peak_tflops_bf16 = 989;
                    in.system.device.hbm_gbps = 3350;
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
