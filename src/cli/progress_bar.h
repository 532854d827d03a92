#pragma once
// A progress bar on stderr for the long commands (sweep, calibrate): shown
// only on a terminal, and only once the work has run for a second; redrawn at
// most every 100 ms. Not thread-safe: callers from worker threads serialise.
#include <chrono>
#include <cstdint>
#include <string>

namespace dtcalc::cli {

class ProgressBar {
public:
    /// `enabled` false (--quiet, --no-progress) or stderr not a terminal: draws nothing.
    /// `items`: what is counted, in the plural ("points", "refits").
    ProgressBar(bool enabled, std::string items);
    ~ProgressBar() { clear(); }
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;
    void update(std::uint64_t done, std::uint64_t total);
    /// Erases the bar, if one is shown (also when the bar goes out of scope,
    /// so an error message starts on a clean line).
    void clear();

private:
    using Clock = std::chrono::steady_clock;
    bool enabled_;
    std::string items_;
    bool shown_ = false;
    Clock::time_point started_, last_;
};

}  // namespace dtcalc::cli
