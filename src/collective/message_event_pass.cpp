#include "collective/message_event_pass.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <unordered_map>
#include <vector>

#include "collective/algorithm_steps.h"
#include "collective/double_binary_tree.h"
#include "collective/message_event_records.h"
#include "collective/ring_family_schedule.h"

namespace dtcalc {
namespace {

using namespace message_event;


class Engine {
public:
    // One engine per thread, reused: its buffers keep their capacity between
    // queries (a sweep asks for thousands).
    void reset(const MessageModelInput& in) {
        in_ = in;
        p_ = in.npus;
        now_ = 0;
        representative_ = message_model_is_representative(in);
        ranks_ = representative_ ? 1 : p_;
        bytes_per_ns_ = in.bandwidth_gbps * 1073741824.0 / 1e9;
        endpoint_ = std::floor(in.endpoint_delay_ns);
        events_.reset();
        batches_.clear();
        free_batches_.clear();
        messages_.clear();
        free_messages_.clear();
        links_.clear();
        pair_links_.clear();
        if (in.topology != Topology::FullyConnected || representative_) links_.resize(static_cast<std::size_t>(2 * p_));
        pending_batches_.resize(static_cast<std::size_t>(ranks_));
        for (auto& open : pending_batches_) open.clear();
        recvs_.resize(static_cast<std::size_t>(ranks_) * static_cast<std::size_t>(in.chunks));
        for (auto& slot : recvs_) slot.clear();
        algs_.clear();
        free_algs_.clear();
        finish_.assign(static_cast<std::size_t>(ranks_), 0);
        next_chunk_.assign(static_cast<std::size_t>(ranks_), 0);
        if (in.algorithm == AlgorithmKind::DoubleBinaryTree) trees_ = double_binary_trees(p_);
    }

    MessageModelResult run() {
        for (int r = 0; r < ranks_; ++r)
            for (int i = 0; i < std::min(in_.active, in_.chunks); ++i) launch(r);
        while (!events_.empty()) {
            const Event e = events_.pop();
            now_ = e.time;
            dispatch(e);
        }
        MessageModelResult out;
        out.representative = representative_;
        out.method = representative_ ? "one rank's event pass" : "every rank's event pass";
        out.sys0_ns = finish_[0];
        out.min_ns = *std::min_element(finish_.begin(), finish_.end());
        out.max_ns = *std::max_element(finish_.begin(), finish_.end());
        if (out.min_ns != out.max_ns) out.rank_finish_ns.assign(finish_.begin(), finish_.end());
        return out;
    }

private:
    MessageModelInput in_;
    int p_ = 2;
    int ranks_ = 1;
    bool representative_ = false;
    double bytes_per_ns_ = 1;
    Tick endpoint_ = 0;
    Tick now_ = 0;
    EventQueue events_;
    std::vector<Batch> batches_;
    std::vector<SysCall> scratch_calls_;
    std::vector<int> free_batches_;
    std::vector<std::vector<int>> pending_batches_;  ///< per rank: open batches
    std::vector<Message> messages_;
    std::vector<int> free_messages_;
    std::vector<Link> links_;
    std::unordered_map<long long, int> pair_links_;  ///< FullyConnected, all ranks: (src, dst) -> link
    /// Per (rank, chunk): the open receive entries, a handful at most.
    std::vector<std::vector<RecvState>> recvs_;
    std::vector<Alg> algs_;
    std::vector<int> free_algs_;
    std::vector<Tick> finish_;
    std::vector<int> next_chunk_;
    DoubleBinaryTrees trees_;  ///< doubleBinaryTree: the two trees over the ranks

    void schedule(Tick time, EventType type, int a) {
        events_.push({time, type, a});
    }

    // -- system layer ---------------------------------------------------------
    void register_sys(int rank, Tick delay, SysCall call) {
        const Tick time = now_ + delay;
        for (int b : pending_batches_[static_cast<std::size_t>(rank)]) {
            if (batches_[static_cast<std::size_t>(b)].time == time) {
                batches_[static_cast<std::size_t>(b)].calls.push_back(call);
                return;
            }
        }
        int b;
        if (!free_batches_.empty()) {
            b = free_batches_.back();
            free_batches_.pop_back();
        } else {
            b = static_cast<int>(batches_.size());
            batches_.emplace_back();
        }
        Batch& batch = batches_[static_cast<std::size_t>(b)];
        batch.rank = rank;
        batch.time = time;
        batch.calls.clear();
        batch.calls.push_back(call);
        pending_batches_[static_cast<std::size_t>(rank)].push_back(b);
        schedule(time, EventType::SysBatch, b);
    }

    void run_batch(int b) {
        const int rank = batches_[static_cast<std::size_t>(b)].rank;
        auto& open = pending_batches_[static_cast<std::size_t>(rank)];
        open.erase(std::find(open.begin(), open.end(), b));
        // Calls run may add to other batches (never this one: its time is now and it is closed).
        std::vector<SysCall> calls;
        calls.swap(scratch_calls_);
        calls.clear();
        calls.swap(batches_[static_cast<std::size_t>(b)].calls);
        free_batches_.push_back(b);
        for (const SysCall& c : calls) {
            if (c.type == SysCallType::AfterEndpoint && c.reduction >= 0) {
                register_sys(algs_[static_cast<std::size_t>(c.alg)].rank, c.reduction, {SysCallType::General, c.alg, -1});
            } else {
                general(c.alg);
            }
        }
        scratch_calls_.swap(calls);
    }

    Tick reduction_of(std::uint64_t size) const {
        // ASTRA-sim: three passes of size / local_mem_bw (B/s) seconds, each truncated to ns.
        const Tick one = std::floor(static_cast<double>(size) / (in_.local_mem_bw_gbps * 1e9) * 1e9);
        return 3 * one;
    }

    // A bundle: the endpoint delay, then the local reduction when it reduces.
    void bundle(int alg, std::uint64_t size, bool reduces) {
        register_sys(algs_[static_cast<std::size_t>(alg)].rank, endpoint_,
                     {SysCallType::AfterEndpoint, alg, reduces ? reduction_of(size) : -1});
    }

    // -- network --------------------------------------------------------------
    int new_message(const Message& m) {
        if (!free_messages_.empty()) {
            const int id = free_messages_.back();
            free_messages_.pop_back();
            messages_[static_cast<std::size_t>(id)] = m;
            return id;
        }
        messages_.push_back(m);
        return static_cast<int>(messages_.size() - 1);
    }

    int hops(int src, int dst) const {
        switch (in_.topology) {
            case Topology::Switch: return 2;
            case Topology::FullyConnected: return 1;
            default: {
                const int cw = ((dst - src) % p_ + p_) % p_;
                return std::min(cw, p_ - cw);
            }
        }
    }

    void send(int src, int dst, int tag, std::uint64_t size) {
        Message m{src, dst, tag, size, src, hops(src, dst), 1, -1};
        if (in_.topology == Topology::Ring) {
            const int cw = ((dst - src) % p_ + p_) % p_;
            m.direction = (p_ - cw < cw) ? -1 : 1;
        } else if (in_.topology == Topology::Switch) {
            m.at = 0;
        }
        const int id = new_message(m);
        if (!in_.congestion_aware) {
            const Tick delay = std::floor(m.hops_left * in_.latency_ns + static_cast<double>(size) / bytes_per_ns_);
            schedule(now_ + delay, EventType::Arrive, id);
            return;
        }
        enter_link(id);
    }

    int link_of(const Message& m) {
        switch (in_.topology) {
            case Topology::Switch:
                if (representative_) return m.at;             // 0 uplink, 1 downlink
                return m.at == 0 ? m.src : p_ + m.dst;
            case Topology::FullyConnected: {
                if (representative_) return m.dst;
                const long long key = static_cast<long long>(m.src) * p_ + m.dst;
                auto [it, added] = pair_links_.try_emplace(key, static_cast<int>(links_.size()));
                if (added) links_.emplace_back();
                return it->second;
            }
            default:
                if (representative_) return m.direction > 0 ? 0 : 1;
                return m.direction > 0 ? m.at : p_ + m.at;
        }
    }

    // FIFO service without a queue: a message starts when it enters or when the
    // link frees from the one before it, whichever is later, and holds it for
    // floor(m/B); it reaches the far end floor(latency + m/B) after it started.
    void enter_link(int id) {
        Message& m = messages_[static_cast<std::size_t>(id)];
        Link& link = links_[static_cast<std::size_t>(link_of(m))];
        const double serial = static_cast<double>(m.size) / bytes_per_ns_;
        const Tick start = std::max(now_, link.free_at);
        link.free_at = start + std::floor(serial);
        schedule(start + std::floor(in_.latency_ns + serial), EventType::HopArrive, id);
    }

    void hop_arrive(int id) {
        Message& m = messages_[static_cast<std::size_t>(id)];
        --m.hops_left;
        if (in_.topology == Topology::Switch) m.at += 1;
        else if (in_.topology == Topology::Ring) m.at = ((m.at + m.direction) % p_ + p_) % p_;
        if (m.hops_left > 0) {
            enter_link(id);
            return;
        }
        deliver(id);
    }

    void deliver(int id) {
        const Message m = messages_[static_cast<std::size_t>(id)];
        free_messages_.push_back(id);
        int dst = m.dst, src = m.src;
        if (representative_) {
            // The message rank 0 receives is the image of the one it sent.
            dst = 0;
            src = in_.algorithm == AlgorithmKind::HalvingDoubling ? m.dst : (p_ - m.dst) % p_;
        }
        std::vector<RecvState>& slot = recv_slot(dst, m.tag);
        RecvState& r = recv_entry(slot, src, m.size);
        if (r.waiting > 0) {
            --r.waiting;
            const int alg = r.alg;
            if (r.waiting == 0 && r.arrived == 0) drop_entry(slot, r);
            packet_received(alg);
        } else {
            ++r.arrived;
        }
    }

    std::vector<RecvState>& recv_slot(int rank, int tag) {
        return recvs_[static_cast<std::size_t>(rank) * static_cast<std::size_t>(in_.chunks) + static_cast<std::size_t>(tag)];
    }
    static RecvState& recv_entry(std::vector<RecvState>& slot, int src, std::uint64_t size) {
        for (RecvState& e : slot)
            if (e.src == src && e.size == size) return e;
        slot.push_back({src, size, 0, 0, -1});
        return slot.back();
    }
    static void drop_entry(std::vector<RecvState>& slot, RecvState& e) {
        e = slot.back();
        slot.pop_back();
    }

    void post_recv(int alg, int src, std::uint64_t size) {
        const Alg& a = algs_[static_cast<std::size_t>(alg)];
        std::vector<RecvState>& slot = recv_slot(a.rank, a.tag);
        RecvState& r = recv_entry(slot, src, size);
        r.alg = alg;
        if (r.arrived > 0) {
            --r.arrived;
            if (r.waiting == 0 && r.arrived == 0) drop_entry(slot, r);
            schedule(now_, EventType::Receive, alg);
        } else {
            ++r.waiting;
        }
    }

    void dispatch(const Event& e) {
        switch (e.type) {
            case EventType::SysBatch: run_batch(e.a); break;
            case EventType::Receive: packet_received(e.a); break;
            case EventType::HopArrive: hop_arrive(e.a); break;
            case EventType::Arrive: deliver(e.a); break;
        }
    }

    // -- chunks ---------------------------------------------------------------
    void launch(int rank) {
        const int chunk = next_chunk_[static_cast<std::size_t>(rank)]++;
        int id;
        if (!free_algs_.empty()) {
            id = free_algs_.back();
            free_algs_.pop_back();
        } else {
            id = static_cast<int>(algs_.size());
            algs_.emplace_back();
        }
        Alg& a = algs_[static_cast<std::size_t>(id)];
        std::vector<Packet> keep = std::move(a.packets);  // its capacity, for the next chunk
        a = Alg{};
        keep.clear();
        a.packets = std::move(keep);
        a.rank = rank;
        a.tag = chunk;
        a.live = true;
        if (in_.algorithm == AlgorithmKind::DoubleBinaryTree) {
            const TreeLinks& links = trees_.tree[static_cast<std::size_t>(chunk % 2)][static_cast<std::size_t>(rank)];
            a.parent = links.parent;
            a.left = links.left;
            a.right = links.right;
            a.role = a.parent < 0 ? TreeRole::Top : (a.left < 0 && a.right < 0 ? TreeRole::Leaf : TreeRole::Inner);
            tree_event(id, false);
            return;
        }
        start_ring_family(a, in_);
        for (int i = 0; i < a.parallel; ++i) insert_packet(id);
    }

    void exit_chunk(int alg) {
        Alg& a = algs_[static_cast<std::size_t>(alg)];
        a.live = false;
        a.packets.clear();
        a.packet_head = 0;
        const int rank = a.rank;
        finish_[static_cast<std::size_t>(rank)] = now_;
        free_algs_.push_back(alg);
        if (next_chunk_[static_cast<std::size_t>(rank)] < in_.chunks) launch(rank);
    }

    // -- ring, direct, halvingDoubling -----------------------------------------
    void insert_packet(int alg) {
        const RingFamilyPacket pk = next_ring_family_packet(algs_[static_cast<std::size_t>(alg)], in_);
        bundle(alg, pk.size, pk.reduces);
    }

    bool ready(int alg) {
        Alg& a = algs_[static_cast<std::size_t>(alg)];
        if (a.packet_head >= a.packets.size() || a.stream == 0 || a.free == 0) return false;
        const Packet pk = a.packets[a.packet_head++];
        if (a.packet_head == a.packets.size()) {
            a.packets.clear();
            a.packet_head = 0;
        }
        --a.stream;
        --a.free;
        send(a.rank, pk.dst, a.tag, pk.size);
        post_recv(alg, pk.src, pk.size);
        return true;
    }

    void general(int alg) {
        if (in_.algorithm == AlgorithmKind::DoubleBinaryTree) {
            tree_event(alg, false);
            return;
        }
        Alg& a = algs_[static_cast<std::size_t>(alg)];
        if (!a.live) return;
        ++a.free;
        if (in_.algorithm == AlgorithmKind::Direct && in_.kind == CollectiveKind::AllReduce && a.stream <= a.middle) {
            if (a.received < a.middle) return;
            for (int i = 0; i < a.parallel; ++i) ready(alg);
        } else {
            ready(alg);
        }
        Alg& b = algs_[static_cast<std::size_t>(alg)];
        if (b.stream == 0 && b.free == b.parallel) exit_chunk(alg);
    }

    void packet_received(int alg) {
        if (in_.algorithm == AlgorithmKind::DoubleBinaryTree) {
            tree_event(alg, true);
            return;
        }
        ++algs_[static_cast<std::size_t>(alg)].received;
        insert_packet(alg);
    }

    // -- doubleBinaryTree ------------------------------------------------------
    // DoubleBinaryTreeAllReduce::run: `received` is a PacketReceived event,
    // else General (a bundle done) or the stream's start.
    void tree_event(int alg, bool received) {
        Alg& a = algs_[static_cast<std::size_t>(alg)];
        if (!a.live) return;
        const std::uint64_t d = in_.chunk_bytes;
        switch (a.role) {
            case TreeRole::Leaf:
                if (a.state == TreeState::Begin) {
                    bundle(alg, d, false);
                    a.state = TreeState::SendUp;
                } else if (a.state == TreeState::SendUp) {
                    send(a.rank, a.parent, a.tag, d);
                    a.state = TreeState::WaitParent;
                    post_recv(alg, a.parent, d);
                } else if (a.state == TreeState::WaitParent) {
                    bundle(alg, d, false);
                    a.state = TreeState::End;
                } else if (a.state == TreeState::End) {
                    exit_chunk(alg);
                }
                break;
            case TreeRole::Inner:
                if (a.state == TreeState::Begin) {
                    a.state = TreeState::WaitTwo;
                    post_recv(alg, a.left, d);
                    post_recv(alg, a.right, d);
                } else if (a.state == TreeState::WaitTwo && received) {
                    bundle(alg, d, true);
                    a.state = TreeState::WaitOne;
                } else if (a.state == TreeState::WaitOne && received) {
                    bundle(alg, d, true);
                    a.state = TreeState::SendUp;
                } else if (a.reductions < 1 && !received) {
                    ++a.reductions;  // the first child's bundle: nothing to do
                } else if (a.state == TreeState::SendUp) {
                    a.state = TreeState::WaitParent;
                    send(a.rank, a.parent, a.tag, d);
                    post_recv(alg, a.parent, d);
                } else if (a.state == TreeState::WaitParent && received) {
                    bundle(alg, d, true);
                    a.state = TreeState::SendDown;
                } else if (a.state == TreeState::SendDown) {
                    send(a.rank, a.left, a.tag, d);
                    send(a.rank, a.right, a.tag, d);
                    exit_chunk(alg);
                }
                break;
            case TreeRole::Top: {
                const int child = a.left >= 0 ? a.left : a.right;
                if (a.state == TreeState::Begin) {
                    a.state = TreeState::WaitOne;
                    post_recv(alg, child, d);
                } else if (a.state == TreeState::WaitOne) {
                    bundle(alg, d, true);
                    a.state = TreeState::SendDown;
                } else if (a.state == TreeState::SendDown) {
                    send(a.rank, child, a.tag, d);
                    exit_chunk(alg);
                }
                break;
            }
        }
    }
};

}  // namespace

MessageModelResult run_message_event_pass(const MessageModelInput& input) {
    thread_local Engine engine;
    engine.reset(input);
    return engine.run();
}

}  // namespace dtcalc
