#pragma once
// Runs items [begin, end) on worker threads and hands their output over in
// item order, so what is written does not depend on the thread count.
//
// Workers take blocks of consecutive items (up to 64, at least 8 blocks per
// worker) from a shared
// counter; a block's rows go into its own buffer. The calling thread writes
// the buffers in block order as they complete, at most 8 blocks per worker
// ahead of the writer (so memory stays bounded on a huge sweep), and reports
// progress. When items throw, the first of them in item order wins, whatever
// the thread count: the blocks before its block are written, no later block is
// started, and its exception is rethrown to the caller.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sweep/sweep_ranking.h"

namespace dtcalc {

/// Evaluates item `index` on worker `worker` (0-based, < threads): appends its
/// row(s) to `out` and sets `record`; returns false to leave the record out of the ranking.
using ItemFunction = std::function<bool(std::uint64_t index, int worker, std::string& out, RankedPoint& record)>;

struct OrderedRun {
    std::vector<RankedPoint> records;  ///< in item order
};

/// `threads` <= 0: every hardware thread. `write` receives the output in item
/// order; `progress` (optional) the number of items written so far, on the calling thread.
OrderedRun run_in_order(std::uint64_t begin, std::uint64_t end, int threads, const ItemFunction& item,
                        const std::function<void(std::string_view)>& write,
                        const std::function<void(std::uint64_t)>& progress = {});

/// The thread count `threads` stands for (<= 0: every hardware thread).
int effective_threads(int threads);

}  // namespace dtcalc
