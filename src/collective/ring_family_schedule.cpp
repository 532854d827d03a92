#include "collective/ring_family_schedule.h"

#include <bit>
#include <cstddef>

namespace dtcalc::message_event {
namespace {

// halvingDoubling: the partner at distance `offset`, sending and receiving alike.
void set_hd_partner(Alg& a, int p) {
    if (a.offset < 1) return;
    const bool clockwise = (a.rank / a.offset) % 2 == 0;
    a.recv_to = ((a.rank + (clockwise ? a.offset : -a.offset)) % p + p) % p;
    a.send_from = a.recv_to;
}

}  // namespace

void start_ring_family(Alg& a, const MessageModelInput& in) {
    const int p = in.npus;
    const std::uint64_t d = in.chunk_bytes;
    const auto pu = static_cast<std::uint64_t>(p);
    const CollectiveKind k = in.kind;
    switch (in.algorithm) {
        case AlgorithmKind::HalvingDoubling: {
            const int levels = std::countr_zero(static_cast<unsigned>(p));
            a.stream = k == CollectiveKind::AllReduce ? 2 * levels : levels;
            if (k == CollectiveKind::AllGather) {
                a.msg = d;
                a.offset = p / 2;
                a.halving = false;
            } else {
                a.msg = d / 2;
                a.offset = 1;
                a.halving = true;
            }
            a.parallel = 1;
            a.nonzero_per_round = levels - 1;
            set_hd_partner(a, p);
            break;
        }
        case AlgorithmKind::Direct:
            a.msg = k == CollectiveKind::AllGather ? d : d / pu;
            a.stream = k == CollectiveKind::AllReduce ? 2 * (p - 1) : p - 1;
            a.parallel = p - 1;
            a.nonzero_per_round = p - 1;
            a.middle = p - 1;
            a.recv_to = (a.rank + 1) % p;
            a.send_from = (a.rank - 1 + p) % p;
            break;
        default:
            a.msg = k == CollectiveKind::AllGather ? d : d / pu;
            a.stream = k == CollectiveKind::AllReduce ? 2LL * (p - 1)
                       : k == CollectiveKind::AllToAll ? static_cast<long long>(p) * (p - 1) / 2
                                                       : p - 1;
            a.parallel = 1;
            a.nonzero_per_round = p - 1;
            a.recv_to = (a.rank + 1) % p;
            a.send_from = (a.rank - 1 + p) % p;
            break;
    }
}

RingFamilyPacket next_ring_family_packet(Alg& a, const MessageModelInput& in) {
    const int p = in.npus;
    if (a.zero == 0 && a.nonzero == 0) {
        a.zero = a.parallel;
        a.nonzero = a.nonzero_per_round;
        a.toggle = !a.toggle;
    }
    bool reduces = false;
    if (a.zero > 0) {
        --a.zero;
    } else {
        --a.nonzero;
        reduces = in.kind == CollectiveKind::ReduceScatter || (in.kind == CollectiveKind::AllReduce && a.toggle);
    }
    a.packets.push_back({a.recv_to, a.send_from, a.msg});
    const std::uint64_t size = a.msg;
    if (in.algorithm == AlgorithmKind::HalvingDoubling) {
        if (a.halving) {
            a.offset *= 2;
            a.msg /= 2;
            if (a.offset == p && in.kind == CollectiveKind::AllReduce) {
                a.halving = false;
                a.offset /= 2;
                a.msg *= 2;
            }
        } else {
            a.offset /= 2;
            a.msg *= 2;
        }
        set_hd_partner(a, p);
    } else if (in.algorithm == AlgorithmKind::Direct) {
        a.recv_to = (a.recv_to + 1) % p;
        if (a.recv_to == a.rank) a.recv_to = (a.recv_to + 1) % p;
        a.send_from = (a.send_from - 1 + p) % p;
        if (a.send_from == a.rank) a.send_from = (a.send_from - 1 + p) % p;
    }
    return {size, reduces};
}

}  // namespace dtcalc::message_event
