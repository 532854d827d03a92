#pragma once
// ASTRA-sim's ring family for one chunk of one rank, as the event pass
// (message_event_pass.cpp) drives it: Ring (and its all-to-all), AllToAll
// (direct) and HalvingDoubling. How many sends the chunk makes, how many start
// at once, and, packet by packet, to and from whom, how large, and whether the
// bundle it completes reduces (ASTRA-sim's zero/non-zero latency rounds).
#include <cstdint>

#include "collective/message_event_records.h"
#include "collective/message_model.h"

namespace dtcalc::message_event {

/// Sets `a`'s stream, parallel sends, first partners and message size for
/// `in`'s algorithm and collective (a.rank set, the rest fresh).
void start_ring_family(Alg& a, const MessageModelInput& in);

struct RingFamilyPacket {
    std::uint64_t size = 0;
    bool reduces = false;  ///< the bundle it completes pays a reduction
};

/// Queues `a`'s next packet (its partners and size) and moves `a` on to the
/// one after: the round bookkeeping, HalvingDoubling's distance, Direct's peer.
RingFamilyPacket next_ring_family_packet(Alg& a, const MessageModelInput& in);

}  // namespace dtcalc::message_event
