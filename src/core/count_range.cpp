#include "core/count_range.h"

#include <charconv>

namespace dtcalc {
namespace {

std::optional<long long> whole(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

std::optional<std::vector<long long>> parse_count_range(std::string_view text, long long max_count, std::size_t max_values,
                                                        std::string& expected) {
    expected = "a count from 1 to " + std::to_string(max_count) + ", a list like 8,16,32, or a range like 8..1024 "
               "(doubling), 8..64+8 or 2..162*3 of at most " + std::to_string(max_values) + " counts";
    auto in_range = [&](long long v) { return v >= 1 && v <= max_count; };
    std::vector<long long> out;
    const std::size_t dots = text.find("..");
    if (dots == std::string_view::npos) {
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t comma = std::min(text.find(',', start), text.size());
            const auto v = whole(text.substr(start, comma - start));
            if (!v || !in_range(*v) || out.size() == max_values) return std::nullopt;
            out.push_back(*v);
            start = comma + 1;
        }
        return out;
    }
    std::string_view rest = text.substr(dots + 2);
    char step_kind = '*';
    long long step = 2;
    const std::size_t op = rest.find_first_of("+*");
    if (op != std::string_view::npos) {
        step_kind = rest[op];
        const auto s = whole(rest.substr(op + 1));
        if (!s || *s < (step_kind == '+' ? 1 : 2)) return std::nullopt;
        step = *s;
        rest = rest.substr(0, op);
    }
    const auto lo = whole(text.substr(0, dots));
    const auto hi = whole(rest);
    if (!lo || !hi || !in_range(*lo) || !in_range(*hi) || *lo > *hi) return std::nullopt;
    for (long long v = *lo; v <= *hi;) {
        if (out.size() == max_values) return std::nullopt;  // refused whole, never cut short
        out.push_back(v);
        if (step_kind == '+' ? v > *hi - step : v > *hi / step) break;  // the next would pass hi (or overflow)
        v = step_kind == '+' ? v + step : v * step;
    }
    return out;
}

}  // namespace dtcalc
