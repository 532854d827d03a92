// Properties of collective_time() over a grid of networks (1-3 dimensions of
// Ring, Switch and FullyConnected), algorithms (ring, direct, halvingDoubling,
// doubleBinaryTree and the flat one* variants), the five collectives, chunking
// settings, both backends and sizes from 1 byte to 1 GiB:
//   - results are finite and non-negative;
//   - time never decreases with size;
//   - more bandwidth, or less latency, on any dimension is never slower;
//   - a smaller group (fewer NPUs on the same dimensions) is never slower.
// A failing property lists its first counterexamples.
//
// The last two hold only where the model makes them hold. Each is checked
// strictly where it must hold, and on the whole grid with every
// counterexample required to have one of the causes the test's comment lists.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "collective/algorithm_steps.h"
#include "collective/collective_cost.h"
#include "collective/comm_group.h"
#include "core/error.h"

using namespace dtcalc;

namespace {

struct Scenario {
    Network network;
    CommGroup group;  // the whole network
    SystemConfig system;
    NetworkBackend backend;
    CollectiveKind kind;
    AlgorithmChoice algorithm;
    std::string label;

    /// A localBWAware all-reduce over several dimensions visits the inner
    /// dimensions twice (reduce-scatter up, all-gather down), sharing their slots.
    bool revisits_a_dimension() const {
        return kind == CollectiveKind::AllReduce && !algorithm.flat &&
               system.collective_optimization == CollectiveOptimization::LocalBWAware &&
               group.spanned_dimensions().size() > 1;
    }
    bool direct() const { return algorithm.kind == AlgorithmKind::Direct; }
    bool whole_batches() const {
        return system.preferred_dataset_splits % system.active_chunks_per_dimension == 0;
    }
};

const std::vector<std::uint64_t> kSizes{1, 1000, 4096, 65536, 100000, 1048576, 3000001, 16777216, 1073741824};

std::string describe_network(const Network& net) {
    std::ostringstream out;
    for (std::size_t i = 0; i < net.dimensions.size(); ++i) {
        const Dimension& d = net.dimensions[i];
        out << (i ? " x " : "") << topology_name(d.topology) << d.npus << "@" << d.bandwidth_gbps << "GBps/"
            << d.latency_ns << "ns";
    }
    return out.str();
}

std::string describe_group(const CommGroup& g) {
    std::string out = "{";
    for (std::size_t i = 0; i < g.members.size(); ++i) out += (i ? "," : "") + std::to_string(g.members[i]);
    return out + "}";
}

/// Every scenario of the grid, handed to `visit`. Scenarios the engine refuses
/// with InputError are not visited; their labels go to `refused` if given.
void for_each_scenario(const std::function<void(const Scenario&)>& visit, std::vector<std::string>* refused = nullptr) {
    const std::vector<std::vector<int>> shapes{{2}, {4}, {6}, {8}, {4, 2}, {2, 8}, {8, 4}, {2, 4, 2}, {4, 2, 4}};
    const Topology topologies[] = {Topology::Ring, Topology::Switch, Topology::FullyConnected};
    // Inner dimensions fast, outer ones slow, as in ASTRA-sim's examples.
    const double bandwidth[] = {400, 200, 50};
    const double latency[] = {100, 500, 2000};
    const std::vector<AlgorithmChoice> algorithms{
        {AlgorithmKind::Ring, false},            {AlgorithmKind::Direct, false},
        {AlgorithmKind::HalvingDoubling, false}, {AlgorithmKind::DoubleBinaryTree, false},
        {AlgorithmKind::Ring, true},             {AlgorithmKind::Direct, true},
        {AlgorithmKind::HalvingDoubling, true}};
    struct Chunking {
        int splits, active;
    };
    // Whole batches (1/1, 4/2, 16/1) and a partial last batch (3/2, 5/2).
    const Chunking chunkings[] = {{1, 1}, {4, 2}, {3, 2}, {5, 2}, {16, 1}};
    const CollectiveKind kinds[] = {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                    CollectiveKind::AllGather, CollectiveKind::AllToAll, CollectiveKind::SendRecv};

    for (const auto& shape : shapes) {
        const std::size_t dims = shape.size();
        int topology_combos = 1;
        for (std::size_t i = 0; i < dims; ++i) topology_combos *= 3;
        for (int t = 0; t < topology_combos; ++t) {
            Network net;
            for (std::size_t i = 0, code = static_cast<std::size_t>(t); i < dims; ++i, code /= 3)
                net.dimensions.push_back(Dimension{topologies[code % 3], shape[i], bandwidth[i], latency[i]});
            for (const AlgorithmChoice& algorithm : algorithms)
                for (const Chunking& chunking : chunkings)
                    for (CollectiveOptimization opt : {CollectiveOptimization::Baseline, CollectiveOptimization::LocalBWAware})
                        for (NetworkBackend backend : {NetworkBackend::AstraUnaware, NetworkBackend::AstraAware})
                            for (CollectiveKind kind : kinds) {
                                if (kind != CollectiveKind::SendRecv && !supports(kind, algorithm.kind)) continue;
                                // The optimisation only changes multi-dimensional all-reduce.
                                if (opt == CollectiveOptimization::Baseline &&
                                    (kind != CollectiveKind::AllReduce || dims == 1))
                                    continue;
                                Scenario s;
                                s.network = net;
                                s.group = whole_network_group(net);
                                for (auto& list : s.system.implementation)
                                    list = algorithm.flat ? std::vector<AlgorithmChoice>{algorithm}
                                                          : std::vector<AlgorithmChoice>(dims, algorithm);
                                s.system.preferred_dataset_splits = chunking.splits;
                                s.system.active_chunks_per_dimension = chunking.active;
                                s.system.endpoint_delay_ns = 10;
                                s.system.local_mem_bw_gbps = 1600;
                                s.system.collective_optimization = opt;
                                s.backend = backend;
                                s.kind = kind;
                                s.algorithm = algorithm;
                                std::ostringstream label;
                                label << collective_kind_name(kind) << " " << (algorithm.flat ? "one" : "")
                                      << algorithm_name(algorithm.kind) << " on " << describe_network(net) << ", "
                                      << network_backend_name(backend) << ", splits " << chunking.splits << " active "
                                      << chunking.active << ", " << collective_optimization_name(opt);
                                s.label = label.str();
                                try {
                                    collective_time(s.network, s.system, s.backend,
                                                    CollectiveQuery{s.kind, 65536, s.group});
                                } catch (const InputError&) {
                                    if (refused) refused->push_back(s.label);
                                    continue;
                                }
                                visit(s);
                            }
        }
    }
}

double time_of(const Scenario& s, const Network& net, const CommGroup& group, std::uint64_t bytes) {
    return collective_time(net, s.system, s.backend, CollectiveQuery{s.kind, bytes, group}).time_ns;
}

/// Counterexamples of one property: how many, and the first few in words.
struct Violations {
    long long count = 0;
    long long checked = 0;
    std::vector<std::string> first;

    void check(bool holds, const std::function<std::string()>& what) {
        ++checked;
        if (holds) return;
        if (++count <= 8) first.push_back(what());
    }
    std::string report() const {
        std::string out = std::to_string(count) + " of " + std::to_string(checked) + " checks fail, e.g.:";
        for (const std::string& f : first) out += "\n  " + f;
        return out;
    }
};

std::string num(double v) {
    std::ostringstream out;
    out.precision(15);
    out << v;
    return out.str();
}

/// Doubling each dimension's bandwidth and quartering its latency, one at a time:
/// never slower, or (with `allowed` > 1) never more than `allowed` times slower.
void check_faster_links(const Scenario& s, Violations& bandwidth, Violations& latency, double allowed = 1.0) {
    for (std::uint64_t bytes : kSizes) {
        const double t = time_of(s, s.network, s.group, bytes);
        for (std::size_t d = 0; d < s.network.dimensions.size(); ++d) {
            Network faster = s.network;
            faster.dimensions[d].bandwidth_gbps *= 2;
            const double t_bw = time_of(s, faster, s.group, bytes);
            bandwidth.check(t_bw <= t * allowed, [&] {
                return s.label + ", " + std::to_string(bytes) + " B: doubling dim " + std::to_string(d) +
                       "'s bandwidth goes from " + num(t) + " to " + num(t_bw) + " ns";
            });
            Network nearer = s.network;
            nearer.dimensions[d].latency_ns /= 4;
            const double t_lat = time_of(s, nearer, s.group, bytes);
            latency.check(t_lat <= t * allowed, [&] {
                return s.label + ", " + std::to_string(bytes) + " B: quartering dim " + std::to_string(d) +
                       "'s latency goes from " + num(t) + " to " + num(t_lat) + " ns";
            });
        }
    }
}

/// The first N/2, N/4, ... NPUs of the network, while they form a block.
std::vector<CommGroup> first_npus_subgroups(const Network& net) {
    std::vector<CommGroup> out;
    const std::int64_t total = net.total_npus();
    for (std::int64_t n = total / 2; n >= 1 && total % n == 0; n /= 2) {
        try {
            out.push_back(first_npus_group(net, n, "test"));
        } catch (const InputError&) {
            break;
        }
        if (n % 2 != 0) break;
    }
    return out;
}

/// Does the group fill only part of some Ring dimension?
bool partial_ring(const Network& net, const CommGroup& g) {
    for (std::size_t d = 0; d < g.members.size(); ++d)
        if (net.dimensions[d].topology == Topology::Ring && g.members[d] > 1 && g.members[d] < net.dimensions[d].npus)
            return true;
    return false;
}

void check_smaller_group(const Scenario& s, const CommGroup& smaller, Violations& v) {
    for (std::uint64_t bytes : kSizes) {
        const double t = time_of(s, s.network, s.group, bytes);
        const double t_small = time_of(s, s.network, smaller, bytes);
        v.check(t_small <= t, [&] {
            return s.label + ", " + std::to_string(bytes) + " B: group " + describe_group(smaller) + " takes " +
                   num(t_small) + " ns, the whole " + describe_group(s.group) + " " + num(t);
        });
    }
}

}  // namespace

TEST_CASE("the property grid is not empty, and refuses only halvingDoubling on non-power-of-two groups") {
    int scenarios = 0;
    std::vector<std::string> refused;
    for_each_scenario([&](const Scenario&) { ++scenarios; }, &refused);
    CHECK(scenarios > 1000);
    // Unsupported algorithm x collective pairs are never generated. What is left
    // to refuse: halvingDoubling on a dimension whose size is not a power of
    // two (the grid has 6-NPU rings). A tree all-reduce over several dimensions
    // runs its inner levels as tree all-reduces, so it is accepted.
    for (const std::string& label : refused) {
        INFO(label);
        CHECK(label.find("halvingDoubling") != std::string::npos);
        CHECK(label.find("6@") != std::string::npos);
    }
}

TEST_CASE("results are finite and non-negative, and never decrease with size") {
    Violations finite, monotone;
    for_each_scenario([&](const Scenario& s) {
        double previous = 0;
        std::uint64_t previous_size = 0;
        for (std::uint64_t bytes : kSizes) {
            const double t = time_of(s, s.network, s.group, bytes);
            finite.check(std::isfinite(t) && t >= 0,
                         [&] { return s.label + ", " + std::to_string(bytes) + " B: " + num(t); });
            monotone.check(t >= previous, [&] {
                return s.label + ": " + std::to_string(previous_size) + " B takes " + num(previous) + " ns, " +
                       std::to_string(bytes) + " B only " + num(t);
            });
            previous = t;
            previous_size = bytes;
        }
    });
    CHECK_MESSAGE(finite.count == 0, finite.report());
    CHECK_MESSAGE(monotone.count == 0, monotone.report());
}

TEST_CASE("more bandwidth or less latency on any dimension is never slower (no dimension visited twice)") {
    Violations bandwidth, latency;
    for_each_scenario([&](const Scenario& s) {
        if (!s.revisits_a_dimension()) check_faster_links(s, bandwidth, latency);
    });
    CHECK_MESSAGE(bandwidth.count == 0, bandwidth.report());
    CHECK_MESSAGE(latency.count == 0, latency.report());
}

// Model limitation: the chunk pipeline serves each dimension's slots first come,
// first served (chunk_pipeline.h). When a dimension is visited twice (localBWAware
// all-reduce: reduce-scatter up, all-gather down), a faster outer dimension can
// bring one chunk's all-gather back to an inner queue ahead of a later chunk's
// reduce-scatter; the later chunk then waits, and the whole collective can end
// later: Graham's list-scheduling anomaly. chunk_pipeline_test.cpp has a
// two-chunk example by hand (10 ns -> 11 ns). Seen on the grid, e.g. ring
// all-reduce on Ring2 x Ring4 x Ring2 (400/200/50 GB/s, 100/500/2000 ns),
// astra-unaware, splits 5 active 2, 1 GiB: doubling dim 2's bandwidth goes from
// 3,193,205 to 3,316,418 ns (+3.9 %); also with the aware backend and 2 of 4
// chunks at a time.
TEST_CASE("when a dimension is visited twice, faster links are never slower with one chunk, and with several "
          "within Graham's bound for list scheduling") {
    // One chunk has no queue to reorder: the property holds strictly. With
    // several chunks it may fail (the anomaly above), but list scheduling on m
    // slots is never more than 2 - 1/m times its shortest schedule (Graham
    // 1969, "Bounds on multiprocessing timing anomalies"); here m is the
    // active chunks per dimension.
    Violations one_chunk_bandwidth, one_chunk_latency, bandwidth, latency, anomalies_b, anomalies_l;
    for_each_scenario([&](const Scenario& s) {
        if (!s.revisits_a_dimension()) return;
        if (s.system.preferred_dataset_splits == 1) {
            check_faster_links(s, one_chunk_bandwidth, one_chunk_latency);
            return;
        }
        const double m = s.system.active_chunks_per_dimension;
        check_faster_links(s, bandwidth, latency, 2.0 - 1.0 / m);
        check_faster_links(s, anomalies_b, anomalies_l);
    });
    CHECK(one_chunk_bandwidth.checked > 1000);
    CHECK_MESSAGE(one_chunk_bandwidth.count == 0, one_chunk_bandwidth.report());
    CHECK_MESSAGE(one_chunk_latency.count == 0, one_chunk_latency.report());
    CHECK(bandwidth.checked > 1000);
    CHECK_MESSAGE(bandwidth.count == 0, bandwidth.report());
    CHECK_MESSAGE(latency.count == 0, latency.report());
    MESSAGE("list-scheduling anomalies with queued chunks (slower, within the bound): "
            << anomalies_b.count + anomalies_l.count << " of " << anomalies_b.checked + anomalies_l.checked
            << " checks");
}

TEST_CASE("the first N/2, N/4, ... NPUs are never slower than the whole network (where the model allows it)") {
    // Where it must hold: the group fills whole inner dimensions and part of the
    // outermost one it spans (what first_npus_group builds), that partial
    // dimension is not a Ring, the algorithm is not direct, the chunks fill whole
    // batches, and links are stateless or chunks go one at a time. The
    // whole-grid test below says why each condition is needed. Send-recv is left
    // out: it is one message across the group's outermost spanned dimension, so
    // a smaller group sends over a different dimension, not less.
    Violations subset;
    int groups = 0;
    for_each_scenario([&](const Scenario& s) {
        if (s.kind == CollectiveKind::SendRecv || s.direct() || !s.whole_batches()) return;
        if (s.backend == NetworkBackend::AstraAware && s.system.active_chunks_per_dimension > 1) return;
        // A one-dimensional aware doubleBinaryTree runs message by message
        // (collective/message_model.h: the whole chunk on every tree edge, links
        // shared by the two trees' chunks); on several dimensions it keeps the
        // per-phase form, which does not see that sharing: the two are not ordered.
        if (s.backend == NetworkBackend::AstraAware && s.algorithm.kind == AlgorithmKind::DoubleBinaryTree) return;
        for (const CommGroup& smaller : first_npus_subgroups(s.network)) {
            if (partial_ring(s.network, smaller)) continue;
            ++groups;
            check_smaller_group(s, smaller, subset);
        }
    });
    CHECK(groups > 1000);
    CHECK_MESSAGE(subset.count == 0, subset.report());
}

// Any smaller block of the network (half of any one dimension, all of it gone
// when it had 2), every algorithm and setting. This fails, for reasons that are
// the model's, not bugs in the arithmetic:
// - Hierarchical collectives: a reduce-scatter (or localBWAware all-reduce) shrinks
//   the data by each inner group before the next dimension, so fewer NPUs on an
//   inner dimension leave more data for the slower outer ones ({4,2} -> {2,2}
//   sends D/4 instead of D/8 over dim 1). This is physically real, not a defect.
// - direct on the stateless (unaware) backend has no injection limit: one step
//   costs its slowest single message, D/p bytes, so more NPUs are faster
//   (SEMANTICS.md: "very optimistic"). On the aware backend direct is off by
//   a nanosecond of rounding: hops*floor(lat + s) + floor((k-1)*s).
// - A ring (and doubleBinaryTree, modelled with neighbour messages) on part of
//   a Ring dimension pays the wrap-around, member g-1 back to member 0, g-1 hops
//   every step (collective_cost_test.cpp: 4 of a Ring of 8 take 988 ns where all
//   8 take 836).
// - Slots: with a partial last batch (3 chunks, 2 slots) a 1-phase collective
//   wastes a slot, while the same chunks split into reduce-scatter and
//   all-gather visits on two dimensions pack the slots better.
// - Aware backend, chunks side by side: the second chunk of a batch waits one
//   serialisation of one message (chunk_pipeline.h), and a smaller group has
//   larger messages, so a larger wait: ring all-gather of 16 MiB on a
//   FullyConnected 4 at 400 GB/s, 4 chunks 2 at a time: 2 NPUs 19,648 ns, all 4
//   17,767 ns.
// - Send-recv is one message across the group's outermost spanned dimension: a
//   smaller group may send it over another dimension (Ring8 x FullyConnected4:
//   the whole group sends once over the FullyConnected dimension, the first 8
//   NPUs over the Ring, charged floor(8/2) = 4 hops).
TEST_CASE("a smaller block of the network is slower than the whole only for one of the causes above") {
    // Half of any one dimension, every algorithm and setting. A counterexample
    // must have one of the listed causes; any other is a defect.
    Violations unexplained;
    long long explained = 0, checked = 0;
    for_each_scenario([&](const Scenario& s) {
        const std::vector<int> spanned = s.group.spanned_dimensions();
        const int outermost = spanned.empty() ? 0 : spanned.back();
        for (std::size_t d = 0; d < s.group.members.size(); ++d) {
            CommGroup smaller = s.group;
            smaller.members[d] /= 2;
            const bool hierarchical = spanned.size() > 1 && static_cast<int>(d) != outermost;
            const bool cause = hierarchical || s.direct() || partial_ring(s.network, smaller) || !s.whole_batches() ||
                               (s.backend == NetworkBackend::AstraAware &&
                                (s.system.active_chunks_per_dimension > 1 ||
                                 s.algorithm.kind == AlgorithmKind::DoubleBinaryTree)) ||
                               s.kind == CollectiveKind::SendRecv;
            Violations v;
            check_smaller_group(s, smaller, v);
            checked += v.checked;
            if (cause) {
                explained += v.count;
                continue;
            }
            unexplained.checked += v.checked;
            unexplained.count += v.count;
            for (const std::string& f : v.first)
                if (unexplained.first.size() < 8) unexplained.first.push_back(f);
        }
    });
    CHECK(unexplained.checked > 10000);
    CHECK_MESSAGE(unexplained.count == 0, unexplained.report());
    MESSAGE("smaller blocks slower for a listed cause: " << explained << " of " << checked << " checks");
}
