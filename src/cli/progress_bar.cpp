#include "cli/progress_bar.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

namespace dtcalc::cli {

ProgressBar::ProgressBar(bool enabled, std::string items)
    : enabled_(enabled && isatty(STDERR_FILENO)), items_(std::move(items)), started_(Clock::now()) {}

void ProgressBar::update(std::uint64_t done, std::uint64_t total) {
    if (!enabled_ || total == 0) return;
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - started_).count();
    if (elapsed < 1.0 || (shown_ && now - last_ < std::chrono::milliseconds(100) && done < total)) return;
    last_ = now;
    shown_ = true;
    const double fraction = static_cast<double>(done) / static_cast<double>(total);
    const int width = 30, filled = static_cast<int>(fraction * width);
    const double rate = static_cast<double>(done) / elapsed;
    const double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0;
    std::fprintf(stderr, "\r  [%s%s] %3.0f%%  %llu/%llu %s  %.0f/s  eta %.0f s ", std::string(filled, '#').c_str(),
                 std::string(width - filled, ' ').c_str(), 100 * fraction, static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total), items_.c_str(), rate, eta);
    std::fflush(stderr);
}

void ProgressBar::clear() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
}

}  // namespace dtcalc::cli
