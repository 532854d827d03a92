#pragma once
// nccl-tests' text output for the log reader's tests: a run's header as
// nccl-tests 2.17 prints it and the footer that closes its table.
#include <string>

namespace dtcalc::testing {

// A run as nccl-tests 2.17 prints it: 2 ranks on one host, all_reduce_perf.
inline std::string header(const std::string& program, int ranks_on_a = 2, int ranks_on_b = 0) {
    std::string s = "# nccl-tests version 2.17.8 nccl-headers=22902 nccl-library=22902\n";
    if (!program.empty()) s += "# Collective test starting: " + program + "\n";
    s += "# nThread 1 nGpus 1 minBytes 1024 maxBytes 2048 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
         "validation: 1 graph: 0\n#\n# Using devices\n";
    int rank = 0;
    for (int i = 0; i < ranks_on_a; ++i, ++rank)
        s += "#  Rank  " + std::to_string(rank) + " Group  0 Pid 100" + std::to_string(rank) +
             " on     hostA device  " + std::to_string(i) + " [0000:1b:00] NVIDIA H100 80GB HBM3\n";
    for (int i = 0; i < ranks_on_b; ++i, ++rank)
        s += "#  Rank  " + std::to_string(rank) + " Group  0 Pid 200" + std::to_string(rank) +
             " on     hostB device  " + std::to_string(i) + " [0000:1b:00] NVIDIA H100 80GB HBM3\n";
    s += "#\n"
         "#                                                              out-of-place                       in-place\n"
         "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n"
         "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)\n";
    return s;
}

inline const std::string kFooter = "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 0.1 \n#\n";


}  // namespace dtcalc::testing
