#include "chakra/trace_set.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "core/error.h"

namespace dtcalc::chakra {
namespace {

std::string rank_ranges(const std::vector<long long>& ranks) {
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (!out.empty()) out += ", ";
        out += std::to_string(ranks[i]);
        if (j > i) {
            out += '-';
            out += std::to_string(ranks[j]);
        }
        i = j + 1;
        if (out.size() > 200) {
            if (i < ranks.size()) out += ", ...";
            break;
        }
    }
    return out;
}

void check_files_exist(const std::string& prefix, long long npus) {
    std::vector<long long> missing;
    std::error_code ec;
    for (long long r = 0; r < npus; ++r)
        if (!std::filesystem::is_regular_file(rank_file(prefix, r), ec)) missing.push_back(r);
    if (missing.empty()) return;
    const std::string first = rank_file(prefix, missing.front());
    std::string message = "does not exist: the network has " + std::to_string(npus) +
                          " NPUs, so the workload needs one trace per NPU, " + rank_file(prefix, 0) + " to " +
                          rank_file(prefix, npus - 1) + "; missing rank" + (missing.size() > 1 ? "s " : " ") +
                          rank_ranges(missing);
    if (missing.size() == static_cast<std::size_t>(npus))
        message = "does not exist (no file " + prefix + ".<rank>.et was found for any of the network's " +
                  std::to_string(npus) + " NPUs)";
    throw InputError({first, 0, 0, ""}, message);
}

// Calls work(i, buffer) for i in [0, count) on `threads` threads; an exception is
// recorded under its index, and indices above the lowest failing one are skipped.
template <class F>
void run_parallel(long long count, int threads, F&& work, std::map<long long, std::exception_ptr>& failures,
                  std::mutex& lock) {
    std::atomic<long long> next{0};
    std::atomic<long long> first_failure{count};
    auto loop = [&] {
        std::string buffer;  // this thread's file buffer
        for (;;) {
            const long long i = next.fetch_add(1);
            if (i >= count || i > first_failure.load()) return;
            try {
                work(i, buffer);
            } catch (...) {
                const std::lock_guard<std::mutex> guard(lock);
                failures.emplace(i, std::current_exception());
                long long seen = first_failure.load();
                while (i < seen && !first_failure.compare_exchange_weak(seen, i)) {
                }
            }
        }
    };
    threads = static_cast<int>(std::min<long long>(std::max(threads, 1), count));
    if (threads <= 1) {
        loop();
        return;
    }
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(loop);
    for (std::thread& t : pool) t.join();
}

class Merger {
public:
    explicit Merger(TraceSet& set) : set_(set) {}

    void add(RankTrace&& trace) {
        std::vector<PeerFields> peers;
        for (const TraceNode& n : trace.nodes) {
            if (n.kind != NodeKind::Send && n.kind != NodeKind::Recv && n.kind != NodeKind::Collective) continue;
            PeerFields p{n.comm_src, n.comm_dst, -1};
            if (n.pg_name >= 0) p.pg = pg_index(trace.strings[static_cast<std::size_t>(n.pg_name)]);
            peers.push_back(p);
        }
        const auto rank = static_cast<std::size_t>(trace.rank);
        set_.peers[rank] = std::move(peers);
        set_.nodes += trace.nodes.size();
        auto& candidates = by_shape_[trace.shape];
        for (int s : candidates) {
            RankTrace& kept = set_.shapes[static_cast<std::size_t>(s)];
            if (!same_shape(kept, trace)) continue;
            set_.shape_of_rank[rank] = s;
            if (trace.rank < kept.rank) kept = std::move(trace);
            return;
        }
        candidates.push_back(static_cast<int>(set_.shapes.size()));
        set_.shape_of_rank[rank] = static_cast<int>(set_.shapes.size());
        set_.shapes.push_back(std::move(trace));
    }

    // Shapes in the order of their lowest rank.
    void finish() {
        std::vector<int> order(set_.shapes.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            return set_.shapes[static_cast<std::size_t>(a)].rank < set_.shapes[static_cast<std::size_t>(b)].rank;
        });
        std::vector<int> new_index(order.size());
        std::vector<RankTrace> sorted;
        sorted.reserve(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            new_index[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
            sorted.push_back(std::move(set_.shapes[static_cast<std::size_t>(order[i])]));
        }
        set_.shapes = std::move(sorted);
        for (int& s : set_.shape_of_rank) s = new_index[static_cast<std::size_t>(s)];
        // pg names in sorted order, whatever order the files were read in.
        std::vector<std::string> names = set_.pg_names;
        std::sort(names.begin(), names.end());
        std::vector<std::int32_t> renumber(names.size());
        for (std::size_t i = 0; i < set_.pg_names.size(); ++i)
            renumber[i] = static_cast<std::int32_t>(std::lower_bound(names.begin(), names.end(), set_.pg_names[i]) - names.begin());
        for (auto& rank : set_.peers)
            for (PeerFields& p : rank)
                if (p.pg >= 0) p.pg = renumber[static_cast<std::size_t>(p.pg)];
        set_.pg_names = std::move(names);
    }

private:
    static bool same_shape(const RankTrace& a, const RankTrace& b) {
        if (a.nodes.size() != b.nodes.size()) return false;
        for (std::size_t i = 0; i < a.nodes.size(); ++i)
            if (a.nodes[i].signature != b.nodes[i].signature) return false;
        return true;
    }

    std::int32_t pg_index(const std::string& name) {
        const auto found = pg_.find(name);
        if (found != pg_.end()) return found->second;
        const auto index = static_cast<std::int32_t>(set_.pg_names.size());
        set_.pg_names.push_back(name);
        pg_.emplace(name, index);
        return index;
    }

    TraceSet& set_;
    std::unordered_map<std::uint64_t, std::vector<int>> by_shape_;
    std::map<std::string, std::int32_t> pg_;
};

}  // namespace

std::string rank_file(const std::string& prefix, long long rank) { return prefix + "." + std::to_string(rank) + ".et"; }

TraceSet load_trace_set(const std::string& prefix, long long npus, const DecodeOptions& options, int threads) {
    if (npus < 1) throw InputError({prefix, 0, 0, ""}, "the network has no NPUs");
    check_files_exist(prefix, npus);
    TraceSet set;
    set.prefix = prefix;
    set.npus = npus;
    set.shape_of_rank.assign(static_cast<std::size_t>(npus), -1);
    set.peers.resize(static_cast<std::size_t>(npus));
    Merger merger(set);

    if (threads <= 0) threads = static_cast<int>(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
    // Pass 1: every file, without names and tensor lists (the shape does not
    // depend on them). Pass 2: the one kept file per shape, in full.
    DecodeOptions light;
    light.tensors = false;
    light.names = false;
    std::mutex lock;
    std::map<long long, std::exception_ptr> failures;
    run_parallel(npus, threads, [&](long long rank, std::string& buffer) {
        RankTrace trace = read_rank_trace(rank_file(prefix, rank), static_cast<int>(rank), light, buffer);
        const std::lock_guard<std::mutex> guard(lock);
        merger.add(std::move(trace));
    }, failures, lock);
    if (!failures.empty()) std::rethrow_exception(failures.begin()->second);
    merger.finish();
    const long long shapes = static_cast<long long>(set.shapes.size());
    run_parallel(shapes, threads, [&](long long s, std::string& buffer) {
        RankTrace& kept = set.shapes[static_cast<std::size_t>(s)];
        kept = read_rank_trace(kept.file, kept.rank, options, buffer);
    }, failures, lock);
    if (!failures.empty()) std::rethrow_exception(failures.begin()->second);
    return set;
}

}  // namespace dtcalc::chakra
