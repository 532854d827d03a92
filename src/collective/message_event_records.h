#pragma once
// The records of the message-model event pass (message_event_pass.cpp): its
// events, system-call batches, messages on links, receive matching and the
// per-chunk algorithm state (ASTRA-sim's ring family packets or its double
// binary tree state machine). Internal to the collective layer.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "collective/monotone_event_queue.h"

namespace dtcalc::message_event {

// Times in ns, whole numbers as in ASTRA-sim; a double holds them exactly up to
// 2^53 ns (104 days) and does not overflow at the slowest links dtcalc accepts.
using Tick = double;

// ---------------------------------------------------------------------------
// The event list: by time, then in the order of scheduling, as ASTRA-sim's event queue.
enum class EventType : std::uint8_t { SysBatch, Receive, HopArrive, Arrive };

struct Event {
    Tick time;  ///< whole ns (exact in a double below 2^53)
    EventType type;
    int a;
};

using EventQueue = MonotoneEventQueue<Event>;

// One rank's system events due at one time: run together, at the place of the first.
enum class SysCallType : std::uint8_t { AfterEndpoint, General };
struct SysCall {
    SysCallType type;
    int alg;
    Tick reduction;  ///< AfterEndpoint: the local reduction still to pay, < 0 for none
};
struct Batch {
    int rank = 0;
    Tick time = 0;
    std::vector<SysCall> calls;
};

struct Message {
    int src, dst, tag;
    std::uint64_t size;
    int at;         ///< the device it is at (Ring), or the hop index (Switch)
    int hops_left;  ///< links still to cross
    int direction;  ///< Ring: +1 clockwise, -1 anticlockwise
    int next;       ///< next message waiting on the same link, -1 for none
};

struct Link {
    double free_at = 0;  ///< when the last message on it stops holding it
};

// Receives are matched per (receiving rank, chunk, sender, size), first come first served.
struct RecvState {
    int src = 0;
    std::uint64_t size = 0;
    int arrived = 0;  ///< messages that arrived before their receive was posted
    int waiting = 0;  ///< receives posted before their message arrived
    int alg = -1;     ///< who posted them (one chunk of one rank)
};

struct Packet {
    int dst, src;
    std::uint64_t size;
};

enum class TreeRole : std::uint8_t { Leaf, Inner, Top };
enum class TreeState : std::uint8_t { Begin, WaitTwo, WaitOne, SendUp, WaitParent, SendDown, End };

// One chunk of one rank: ASTRA-sim's Ring / AllToAll (direct) / HalvingDoubling
// packet machinery, or its DoubleBinaryTreeAllReduce state machine.
struct Alg {
    int rank = 0, tag = 0;
    bool live = false;
    // ring family
    long long stream = 0;  ///< sends still to make
    int free = 0;          ///< completed bundles not yet used for a send
    int received = 0;
    int parallel = 1;       ///< bundles started at once at the start
    int nonzero_per_round = 0;
    int zero = 0, nonzero = 0;
    bool toggle = false;
    int middle = 0;  ///< direct all-reduce: reduce-scatter pieces to wait for
    int recv_to = 0, send_from = 0;
    std::uint64_t msg = 0;
    int offset = 0;       ///< halvingDoubling: partner distance
    bool halving = true;  ///< halvingDoubling: distance doubles (else halves)
    std::vector<Packet> packets;
    std::size_t packet_head = 0;
    // tree
    TreeRole role = TreeRole::Leaf;
    TreeState state = TreeState::Begin;
    int reductions = 0;
    int parent = -1, left = -1, right = -1;
};

}  // namespace dtcalc::message_event
