#pragma once
// What the numeric-edge and numeric-range tests share: 1 PiB, a system of one
// algorithm on every dimension, and the check for a nan or inf in output.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "system/system_config.h"

namespace dtcalc::testing {

inline constexpr std::uint64_t kPiB = std::uint64_t{1} << 50;

/// True when `text` holds a word "nan", "inf" or "infinity" in any case
/// ("infeasible" and "info" are words of their own, not matches).
inline bool has_nan_or_inf(const std::string& text) {
    std::string word;
    auto bad = [&] { return word == "nan" || word == "inf" || word == "infinity"; };
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            continue;
        }
        if (bad()) return true;
        word.clear();
    }
    return bad();
}

/// A system running `algorithm` on every one of `dims` dimensions (a flat
/// one* algorithm once), with free local reductions.
inline SystemConfig make_system(AlgorithmChoice algorithm, std::size_t dims, double endpoint_delay, int splits = 1, int active = 1) {
    SystemConfig s;
    for (auto& list : s.implementation)
        list = algorithm.flat ? std::vector<AlgorithmChoice>{algorithm} : std::vector<AlgorithmChoice>(dims, algorithm);
    s.preferred_dataset_splits = splits;
    s.active_chunks_per_dimension = active;
    s.endpoint_delay_ns = endpoint_delay;
    s.local_mem_bw_gbps = 1e12;
    s.collective_optimization = CollectiveOptimization::LocalBWAware;
    return s;
}

}  // namespace dtcalc::testing
