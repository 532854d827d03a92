#pragma once
// Point-to-point messages of a trace set: every COMM_SEND_NODE must meet a
// COMM_RECV_NODE on its peer NPU with the same comm_tag and comm_size, and
// the reverse -- ASTRA-sim matches messages by (source, destination, tag,
// size).
#include "chakra/comm_peers.h"
#include "chakra/trace_index.h"

namespace dtcalc::chakra {

/// Throws InputError at the first unmatched send or receive (in order of
/// source, destination, tag, size, rank, node), naming the peer's file.
void check_messages_match(const TraceIndex& index, const PeerTable& peers);

}  // namespace dtcalc::chakra
