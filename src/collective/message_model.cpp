#include "collective/message_model.h"

#include <cmath>

#include "collective/algorithm_steps.h"
#include "collective/message_event_pass.h"
#include "collective/message_recurrence.h"

namespace dtcalc {
namespace {

bool power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

// The congestion-aware ring anywhere, and direct on a FullyConnected: one
// chain of single-link steps per chunk (message_recurrence.h).
bool uses_recurrence(const MessageModelInput& in) {
    if (!in.congestion_aware || in.all_ranks || in.event_pass) return false;
    return in.algorithm == AlgorithmKind::Ring ||
           (in.algorithm == AlgorithmKind::Direct && in.topology == Topology::FullyConnected);
}

}  // namespace

double message_model_work(const MessageModelInput& in) {
    const double p = in.npus;
    double messages = 0;  // one rank's sends per chunk
    double hops = in.topology == Topology::Switch ? 2 : 1;
    const double levels = std::log2(p);
    switch (in.algorithm) {
        case AlgorithmKind::Ring:
            messages = in.kind == CollectiveKind::AllReduce ? 2 * (p - 1)
                       : in.kind == CollectiveKind::AllToAll ? p * (p - 1) / 2
                                                            : p - 1;
            break;
        case AlgorithmKind::Direct:
            messages = in.kind == CollectiveKind::AllReduce ? 2 * (p - 1) : p - 1;
            if (in.topology == Topology::Ring) hops = p / 4 + 1;  // mean distance the shorter way
            break;
        case AlgorithmKind::HalvingDoubling:
            messages = in.kind == CollectiveKind::AllReduce ? 2 * levels : levels;
            if (in.topology == Topology::Ring) hops = p / levels;  // 1 + 2 + ... + p/2 over log2 p steps
            break;
        case AlgorithmKind::DoubleBinaryTree:
            messages = 3;  // up once, down at most twice
            // In-order trees: half the edges span 1 position, a quarter 2, ...: about log2 p hops a rank.
            if (in.topology == Topology::Ring) hops = std::max(levels, 1.0);
            break;
    }
    const double ranks = message_model_is_representative(in) ? 1 : p;
    return ranks * in.chunks * (messages * hops + 1);  // + 1: each rank's chunk is set up
}

bool message_model_supports(const MessageModelInput& in) {
    if (in.npus < 2 || in.chunks < 1 || in.active < 1) return false;
    if (in.topology != Topology::Ring && in.topology != Topology::Switch && in.topology != Topology::FullyConnected)
        return false;
    if (!supports(in.kind, in.algorithm) || in.kind == CollectiveKind::SendRecv) return false;
    if ((in.algorithm == AlgorithmKind::HalvingDoubling || in.algorithm == AlgorithmKind::DoubleBinaryTree) &&
        !power_of_two(in.npus))
        return false;
    return message_model_work(in) <= (uses_recurrence(in) ? kMessageModelMaxRecurrence : kMessageModelMaxWork);
}

bool message_model_is_representative(const MessageModelInput& in) {
    if (in.all_ranks) return false;
    switch (in.algorithm) {
        case AlgorithmKind::Ring:
        case AlgorithmKind::Direct: return true;
        case AlgorithmKind::HalvingDoubling: return in.topology != Topology::Ring || in.npus == 2;
        case AlgorithmKind::DoubleBinaryTree: return false;
    }
    return false;
}

MessageModelResult run_message_model(const MessageModelInput& input) {
    return uses_recurrence(input) ? run_message_recurrence(input) : run_message_event_pass(input);
}

}  // namespace dtcalc
