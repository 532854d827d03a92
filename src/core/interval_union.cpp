#include "core/interval_union.h"

#include <algorithm>

namespace dtcalc {

double covered_length(std::span<const std::pair<double, double>> sorted) {
    double total = 0, run_start = 0, run_end = -1;
    bool open = false;
    for (const auto& [start, end] : sorted) {
        if (open && start <= run_end) {
            run_end = std::max(run_end, end);
            continue;
        }
        if (open) total += run_end - run_start;
        run_start = start;
        run_end = end;
        open = true;
    }
    if (open) total += run_end - run_start;
    return total;
}

}  // namespace dtcalc
