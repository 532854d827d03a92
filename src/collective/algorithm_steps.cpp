#include "collective/algorithm_steps.h"

#include <stdexcept>

namespace dtcalc {
namespace {

int log2_ceil(int n) {
    int steps = 0;
    while ((1 << steps) < n) ++steps;
    return steps;
}

void ring(CollectiveKind kind, int p, std::uint64_t d, AlgorithmSteps& out) {
    const std::uint64_t block = d / static_cast<std::uint64_t>(p);
    switch (kind) {
        case CollectiveKind::AllReduce:
            out.runs.push_back({p - 1, block, 1, 1, true});
            out.runs.push_back({p - 1, block, 1, 1, false});
            break;
        case CollectiveKind::ReduceScatter: out.runs.push_back({p - 1, block, 1, 1, true}); break;
        case CollectiveKind::AllGather: out.runs.push_back({p - 1, block, 1, 1, false}); break;
        case CollectiveKind::AllToAll: out.runs.push_back({static_cast<long long>(p) * (p - 1) / 2, block, 1, 1, false}); break;
        case CollectiveKind::SendRecv: out.runs.push_back({1, d, 1, 1, false}); break;
    }
}

void direct(CollectiveKind kind, int p, std::uint64_t d, AlgorithmSteps& out) {
    const std::uint64_t block = d / static_cast<std::uint64_t>(p);
    const int far = p / 2 > 0 ? p - 1 : 1;  // every peer, so the farthest one
    switch (kind) {
        case CollectiveKind::AllReduce:
            out.runs.push_back({1, block, far, p - 1, true});
            out.runs.push_back({1, block, far, p - 1, false});
            break;
        case CollectiveKind::ReduceScatter: out.runs.push_back({1, block, far, p - 1, true}); break;
        case CollectiveKind::AllGather:
        case CollectiveKind::AllToAll: out.runs.push_back({1, block, far, p - 1, false}); break;
        case CollectiveKind::SendRecv: out.runs.push_back({1, d, 1, 1, false}); break;
    }
}

// Recursive halving (reduce-scatter): the partner is 2^s positions away and
// the exchanged half shrinks; recursive doubling (all-gather) mirrors it.
// As in ASTRA-sim, the first halving step forwards without a local reduction
// (its bundle is not processed); every later one reduces.
void halving_doubling(CollectiveKind kind, int p, std::uint64_t d, AlgorithmSteps& out) {
    const int steps = log2_ceil(p);
    auto reduce_scatter = [&] {
        std::uint64_t bytes = d;
        for (int s = 0; s < steps; ++s) {
            bytes /= 2;
            out.runs.push_back({1, bytes, 1 << s, 1, s > 0});
        }
    };
    auto all_gather = [&] {
        for (int s = steps - 1; s >= 0; --s) out.runs.push_back({1, d >> (s + 1), 1 << s, 1, false});
    };
    switch (kind) {
        case CollectiveKind::AllReduce:
            reduce_scatter();
            all_gather();
            break;
        case CollectiveKind::ReduceScatter: reduce_scatter(); break;
        case CollectiveKind::AllGather: all_gather(); break;
        case CollectiveKind::AllToAll: throw std::invalid_argument("halvingDoubling has no all-to-all");
        case CollectiveKind::SendRecv: out.runs.push_back({1, d, 1, 1, false}); break;
    }
}

// Double binary tree all-reduce (ASTRA-sim's DoubleBinaryTreeAllReduce): the
// whole chunk moves on every tree edge; it is reduced up floor(log2 p) levels
// to the root and sent back down as many, every reception paying a reduction.
// Successive chunks alternate between the two trees, so one chunk's path is
// the depth of one tree.
void double_binary_tree(CollectiveKind kind, int p, std::uint64_t d, AlgorithmSteps& out) {
    if (kind != CollectiveKind::AllReduce)
        throw std::invalid_argument("doubleBinaryTree has only all-reduce");
    int levels = 0;
    while ((2 << levels) <= p) ++levels;
    out.runs.push_back({levels, d, 1, 1, true});
    out.runs.push_back({levels, d, 1, 1, true});
}

}  // namespace

long long AlgorithmSteps::total_steps() const {
    long long n = 0;
    for (const StepRun& r : runs) n += r.count;
    return n;
}

bool supports(CollectiveKind kind, AlgorithmKind algorithm) {
    if (algorithm == AlgorithmKind::HalvingDoubling) return kind != CollectiveKind::AllToAll;
    if (algorithm == AlgorithmKind::DoubleBinaryTree) return kind == CollectiveKind::AllReduce;
    return true;
}

AlgorithmSteps algorithm_steps(CollectiveKind kind, AlgorithmKind algorithm, int npus, std::uint64_t data_bytes) {
    AlgorithmSteps out;
    if (npus <= 1) return out;
    switch (algorithm) {
        case AlgorithmKind::Ring: ring(kind, npus, data_bytes, out); break;
        case AlgorithmKind::Direct: direct(kind, npus, data_bytes, out); break;
        case AlgorithmKind::HalvingDoubling: halving_doubling(kind, npus, data_bytes, out); break;
        case AlgorithmKind::DoubleBinaryTree: double_binary_tree(kind, npus, data_bytes, out); break;
    }
    return out;
}

}  // namespace dtcalc
