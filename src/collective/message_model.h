#pragma once
// ASTRA-sim 2.0's analytical backends on one network dimension, message by
// message: every chunk's algorithm state machine on every rank (or on one
// representative rank), its sends and receipts, and the links they cross.
//
// Used where the per-phase closed forms (link_cost.h, chunk_pipeline.h) are
// not exact: the congestion-aware backend (chunks in flight share the NPU's
// links at every step, direct's messages contend, halvingDoubling's steps meet
// on the distance-1 link) and doubleBinaryTree on either backend (ranks play
// different roles and finish apart). What it reproduces, from ASTRA-sim's
// source (astra-sim 518bd51, astra-network-analytical 599a047):
//
// - System layer. A rank runs the chunks of a collective in index order, at
//   most `active` at once, starting its next chunk the moment one of its own
//   exits (no barrier across ranks). Every local step is a "bundle": the
//   endpoint delay ED, then for a reducing step 3 floor(m / local-mem-bw).
//   ring / direct / halvingDoubling: a first bundle at the start, then one per
//   receipt; each completed bundle lets the rank send its next message.
//   direct all-reduce: the all-gather sends wait until all p-1 reduce-scatter
//   pieces have arrived, then go one per completed bundle.
//   doubleBinaryTree: chunk c runs on the RootMax tree (c even) or the RootMin
//   tree (c odd); a leaf sends the whole chunk up after one ED, an inner node
//   after both children's chunks arrived and were reduced, the top node sends
//   down after reducing its one child's chunk and exits; inner nodes exit after
//   sending down, leaves after the chunk came back (plus ED).
// - A message is received when it has arrived and its receive was posted.
// - Congestion-unaware links: a message takes floor(hops x latency + m/B).
// - Congestion-aware links: store-and-forward FIFO; a message holds a link for
//   floor(m/B) and reaches the link's far end floor(latency + m/B) after it
//   started. Switch: NPU uplink then the destination's downlink; Ring: the
//   shorter way, clockwise at exactly p/2; FullyConnected: one link per pair.
// - Ties: events at one time run in the order they were scheduled, and one
//   rank's system events due at one time run together, where the first of them
//   was scheduled (ASTRA-sim's per-Sys event table).
//
// Three ways to run it, the cheapest that is exact for the case:
// - one rank's recurrence (ring on the aware backend; direct on an aware
//   FullyConnected, whose p-1 messages of a step go on p-1 private links in
//   one state and arrive together): every rank is the image of its
//   neighbour, so the message rank 0 receives at a step arrives when its own
//   send of that step does. A chunk is a chain of sends; sends are taken in
//   time order across the chunks in flight and each link is one number, the
//   time it frees: O(chunks x steps x log active), no event list.
// - one rank's event pass (direct on Switch and Ring, and on an unaware Ring;
//   halvingDoubling on Switch and FullyConnected): every rank is still an
//   image of rank 0, but a direct chunk sends p-1 messages in one tick and a
//   direct all-reduce releases its all-gather per completed bundle, so the
//   order of same-tick events decides who queues first. Only rank 0 is run;
//   a message it receives is the image of one it sent, crossing the same links
//   in the same state: its uplink and downlink on a Switch, its link to that
//   peer on a FullyConnected, and on a Ring the one clockwise (or
//   anticlockwise) link, once per hop. O(chunks x sends x hops) events.
// - every rank's event pass, over per-link FIFOs in time order
//   (doubleBinaryTree: ranks play different roles in the two trees;
//   halvingDoubling on a Ring: the direction of a step depends on the rank's
//   parity, so links carry different mixes and no symmetry reduces it).
//   Bounded: O(p x chunks x sends x hops) events, each O(1) amortised, and
//   message_model_supports refuses cases over kMessageModelMaxWork.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/collective_kind.h"
#include "network/topology.h"
#include "system/system_config.h"

namespace dtcalc {

struct MessageModelInput {
    Topology topology = Topology::Switch;  ///< Ring, Switch or FullyConnected
    int npus = 2;
    double bandwidth_gbps = 0;
    double latency_ns = 0;
    bool congestion_aware = false;
    CollectiveKind kind = CollectiveKind::AllReduce;
    AlgorithmKind algorithm = AlgorithmKind::Ring;
    /// ASTRA-sim's per-chunk data size: the chunk of the buffer (for all-gather,
    /// of each NPU's input).
    std::uint64_t chunk_bytes = 0;
    int chunks = 1;
    int active = 1;
    double endpoint_delay_ns = 0;
    double local_mem_bw_gbps = 0;
    /// Run every rank even where one would do (tests compare the two).
    bool all_ranks = false;
    /// Ring on the congestion-aware backend: run the event pass, not the recurrence (tests compare the two).
    bool event_pass = false;
};

struct MessageModelResult {
    double sys0_ns = 0;  ///< when rank 0 finished (ASTRA-sim's `sys[0] finished`)
    double min_ns = 0;   ///< the earliest rank
    double max_ns = 0;   ///< the latest rank
    /// Each rank's own finish, rank by rank (ASTRA-sim's `sys[i] finished`),
    /// where ranks finish apart; empty when every rank finishes at sys0_ns.
    std::vector<double> rank_finish_ns;
    bool representative = false;  ///< run on one representative rank
    /// "one rank's recurrence", "one rank's event pass" or "every rank's event pass".
    std::string_view method;
};

/// Message-hops the case takes: ranks run (1 or p) x chunks x one rank's
/// sends per chunk x mean hops per send (an estimate, within a small factor).
double message_model_work(const MessageModelInput& input);

/// The most message-hops one query may take: 10^6 in an event pass (about
/// 0.1 us each, so 0.1 s), 2 x 10^7 messages in the ring recurrence (about
/// 15 ns each). Larger cases (a million-NPU ring; direct or halvingDoubling
/// over 1,024 NPUs of a Ring; a tree over a million NPUs) keep the per-phase
/// closed forms, which are exact on the congestion-unaware backend and
/// approximate on the congestion-aware one once chunks share links.
inline constexpr double kMessageModelMaxWork = 1e6;
inline constexpr double kMessageModelMaxRecurrence = 2e7;

/// Whether this file models the case: one dimension of Ring, Switch or
/// FullyConnected with 2 or more NPUs, an algorithm that has the collective,
/// halvingDoubling and doubleBinaryTree on a power of two, and within the
/// bounds above.
bool message_model_supports(const MessageModelInput& input);

/// Whether the case runs on one representative rank (see above).
bool message_model_is_representative(const MessageModelInput& input);

MessageModelResult run_message_model(const MessageModelInput& input);

}  // namespace dtcalc
