#include "collective/message_recurrence.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace dtcalc {

// The ring algorithm (and direct on a FullyConnected) on the congestion-aware
// backend, as a recurrence over one representative rank's messages in FIFO
// order, no event queue. Every rank is
// the image of its neighbour, so the message rank 0 receives at a step is the
// image of the one it sent at that step and arrives when its own does. A chunk
// is a chain: its first send one ED after it starts; each send crosses the
// links (a Switch: the uplink, then the downlink; else one link), starting
// when it enters or when the link frees, whichever is later:
//     start = max(enter, free);  free = start + floor(m/B);  out = start + floor(lat + m/B)
// its receipt is the arrival; the next send one bundle later (ED, plus the
// reduction on a reducing step); the chunk exits one bundle after its last
// receipt, and the next chunk starts then. Sends are taken in time order
// across the chunks in flight (ties: the one whose bundle was registered
// first, then the one computed first, as the event order does), so each link
// sees its messages in FIFO order and its state is one number.
MessageModelResult run_message_recurrence(const MessageModelInput& in) {
    struct Chain {
        double send = 0;        ///< next send
        double registered = 0;  ///< when that send's bundle was registered
        long long order = 0;    ///< tie-break: when it was computed
        long long step = 0;     ///< next step to send
        bool live = false;
    };
    const int p = in.npus;
    const CollectiveKind k = in.kind;
    // direct on a FullyConnected: the p-1 messages of a step leave in one tick
    // on p-1 private links, each in the state of the others, and arrive
    // together; the step is one link of the chain (the all-gather of an
    // all-reduce leaves when all pieces are in: together). 1 or 2 steps.
    const bool direct = in.algorithm == AlgorithmKind::Direct;
    const long long steps = direct                          ? (k == CollectiveKind::AllReduce ? 2 : 1)
                            : k == CollectiveKind::AllReduce ? 2LL * (p - 1)
                            : k == CollectiveKind::AllToAll  ? static_cast<long long>(p) * (p - 1) / 2
                                                             : p - 1;
    const std::uint64_t m = k == CollectiveKind::AllGather ? in.chunk_bytes : in.chunk_bytes / static_cast<std::uint64_t>(p);
    const double bytes_per_ns = in.bandwidth_gbps * 1073741824.0 / 1e9;
    const double serial = static_cast<double>(m) / bytes_per_ns;
    const double hold = std::floor(serial), hop = std::floor(in.latency_ns + serial);
    const double ed = std::floor(in.endpoint_delay_ns);
    const double reduction = 3 * std::floor(static_cast<double>(m) / (in.local_mem_bw_gbps * 1e9) * 1e9);
    const int links = in.topology == Topology::Switch ? 2 : 1;
    // Receipt j (1-based) is packet j of rounds of p (one start packet, p - 1
    // receipts): the first of a round is not reduced; reduce-scatter reduces
    // the others, all-reduce those of its first round.
    auto reduces = [&](long long j) {
        // direct: the first step's pieces are the first round's receipts.
        if (direct) return j == 1 && (k == CollectiveKind::ReduceScatter || k == CollectiveKind::AllReduce);
        if (j % p == 0) return false;
        return k == CollectiveKind::ReduceScatter || (k == CollectiveKind::AllReduce && (j / p) % 2 == 0);
    };
    double free_at[2] = {0, 0};
    std::vector<Chain> chains(static_cast<std::size_t>(std::min(in.active, in.chunks)));
    long long order = 0;
    int launched = 0;
    double finish = 0;
    auto launch = [&](Chain& c, double at) {
        c = {at + ed, at, order++, 0, true};
        ++launched;
    };
    // The chains in flight, earliest send first (a heap: up to 1,024 chunks in flight).
    auto later = [&](int a, int b) {
        const Chain& x = chains[static_cast<std::size_t>(a)];
        const Chain& y = chains[static_cast<std::size_t>(b)];
        if (x.send != y.send) return x.send > y.send;
        if (x.registered != y.registered) return x.registered > y.registered;
        return x.order > y.order;
    };
    std::vector<int> heap;
    for (std::size_t i = 0; i < chains.size(); ++i) {
        launch(chains[i], 0);
        heap.push_back(static_cast<int>(i));
    }
    std::make_heap(heap.begin(), heap.end(), later);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        const int index = heap.back();
        heap.pop_back();
        Chain* next = &chains[static_cast<std::size_t>(index)];
        double t = next->send;
        for (int l = 0; l < links; ++l) {
            const double start = std::max(t, free_at[l]);
            free_at[l] = start + hold;
            t = start + hop;
        }
        const long long received = ++next->step;  // receipt `received`, at t
        const double r = reduces(received) ? reduction : 0;
        if (received < steps) {
            next->send = t + ed + r;
            next->registered = r > 0 ? t + ed : t;
            next->order = order++;
        } else {
            const double exit = t + ed + r;
            finish = std::max(finish, exit);
            next->live = false;
            if (launched >= in.chunks) continue;
            launch(*next, exit);
        }
        heap.push_back(index);
        std::push_heap(heap.begin(), heap.end(), later);
    }
    MessageModelResult out;
    out.sys0_ns = out.min_ns = out.max_ns = finish;
    out.representative = true;
    out.method = "one rank's recurrence";
    return out;
}

}  // namespace dtcalc
