#include "sweep/ordered_runner.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace dtcalc {
namespace {

constexpr std::uint64_t kMaxBlock = 64;
constexpr std::uint64_t kBlocksAheadPerWorker = 8;

struct Block {
    std::string out;
    std::vector<RankedPoint> records;
    std::exception_ptr error;  ///< what an item of this block threw (its rows are not written)
    bool ready = false;
};

}  // namespace

int effective_threads(int threads) {
    if (threads > 0) return threads;
    const unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? static_cast<int>(n) : 1;
}

OrderedRun run_in_order(std::uint64_t begin, std::uint64_t end, int threads, const ItemFunction& item,
                        const std::function<void(std::string_view)>& write, const std::function<void(std::uint64_t)>& progress) {
    OrderedRun run;
    if (end <= begin) return run;
    // Blocks of up to 64 items, at least 8 per thread so that a small sweep
    // whose expensive points sit together still spreads over the threads.
    const auto wanted = static_cast<std::uint64_t>(effective_threads(threads));
    const std::uint64_t kBlock = std::clamp<std::uint64_t>((end - begin) / (wanted * 8), 1, kMaxBlock);
    const std::uint64_t blocks = (end - begin + kBlock - 1) / kBlock;
    const int workers = static_cast<int>(std::min<std::uint64_t>(wanted, blocks));
    auto fill = [&](std::uint64_t b, int worker, Block& block) {
        const std::uint64_t first = begin + b * kBlock, last = std::min(end, first + kBlock);
        for (std::uint64_t i = first; i < last; ++i) {
            RankedPoint record;
            if (item(i, worker, block.out, record)) block.records.push_back(record);
        }
    };
    auto flush = [&](Block& block, std::uint64_t written) {
        if (!block.out.empty()) write(block.out);
        run.records.insert(run.records.end(), block.records.begin(), block.records.end());
        if (progress) progress(written);
    };

    if (workers <= 1) {  // no threads at all: the same blocks, in order, here
        for (std::uint64_t b = 0; b < blocks; ++b) {
            Block block;
            fill(b, 0, block);
            flush(block, std::min(end, begin + (b + 1) * kBlock) - begin);
        }
        return run;
    }

    const std::uint64_t window = kBlocksAheadPerWorker * static_cast<std::uint64_t>(workers);
    std::vector<Block> ring(static_cast<std::size_t>(window));
    std::mutex mutex;
    std::condition_variable block_done, slot_free;
    std::uint64_t next_block = 0, next_to_write = 0;
    std::uint64_t limit = blocks;  // no block from here on is started: an earlier one failed
    bool stop = false;
    std::exception_ptr failure;

    auto work = [&](int worker) {
        while (true) {
            std::uint64_t b;
            {
                std::unique_lock lock(mutex);
                slot_free.wait(lock, [&] { return stop || next_block >= limit || next_block < next_to_write + window; });
                if (stop || next_block >= limit) return;
                b = next_block++;
            }
            Block local;
            try {
                fill(b, worker, local);
            } catch (...) {
                // The blocks before this one still run: the writer reports the
                // first failure in item order, as one thread would.
                local = Block{};
                local.error = std::current_exception();
                std::lock_guard lock(mutex);
                limit = std::min(limit, b + 1);
                slot_free.notify_all();
            }
            std::lock_guard lock(mutex);
            Block& slot = ring[static_cast<std::size_t>(b % window)];
            slot = std::move(local);
            slot.ready = true;
            block_done.notify_all();
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(workers));
    for (int w = 0; w < workers; ++w) pool.emplace_back(work, w);

    try {
        while (next_to_write < blocks) {
            Block block;
            {
                std::unique_lock lock(mutex);
                Block& slot = ring[static_cast<std::size_t>(next_to_write % window)];
                block_done.wait(lock, [&] { return slot.ready; });  // every block up to a failed one completes
                block = std::move(slot);
                slot = Block{};
            }
            if (block.error) {
                std::lock_guard lock(mutex);
                failure = block.error;
                stop = true;
                break;
            }
            const std::uint64_t written = std::min(end, begin + (next_to_write + 1) * kBlock) - begin;
            flush(block, written);
            {
                std::lock_guard lock(mutex);
                ++next_to_write;
            }
            slot_free.notify_all();
        }
    } catch (...) {  // the writer failed (a full disk): stop the workers, then report it
        {
            std::lock_guard lock(mutex);
            stop = true;
            failure = std::current_exception();
        }
    }
    slot_free.notify_all();
    for (std::thread& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
    return run;
}

}  // namespace dtcalc
