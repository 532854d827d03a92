#include "core/units.h"

#include <cctype>

#include <charconv>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace dtcalc {
namespace {

struct Suffix {
    std::string_view text;
    double multiplier;
};

constexpr Suffix kSuffixes[] = {
    {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
    {"PiB", 1125899906842624.0}, {"EiB", 1152921504606846976.0},
    {"KB", 1e3},     {"MB", 1e6},        {"GB", 1e9},           {"TB", 1e12}, {"PB", 1e15}, {"EB", 1e18},
    {"K", 1024.0},   {"M", 1048576.0},   {"G", 1073741824.0},   {"B", 1.0},
};

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (text.empty()) return std::nullopt;

    double multiplier = 1.0;
    for (const Suffix& s : kSuffixes) {
        if (text.size() > s.text.size() && text.ends_with(s.text)) {
            multiplier = s.multiplier;
            text.remove_suffix(s.text.size());
            while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
            break;
        }
    }
    if (text.empty() || text.front() == '-' || text.front() == '+') return std::nullopt;
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    const double bytes = value * multiplier;
    if (!std::isfinite(bytes) || bytes < 0 || bytes > 9.0e18) return std::nullopt;
    if (bytes != std::floor(bytes)) return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
}

std::optional<std::uint64_t> parse_memory_size(std::string_view text) {
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    for (std::string_view unit : {"KiB", "MiB", "GiB", "TiB", "PiB", "KB", "MB", "GB", "TB", "PB"})
        if (text.ends_with(unit)) return parse_byte_size(text);
    // "B" alone, after a digit (not the K/M/G/T/P of another unit).
    if (text.size() >= 2 && text.back() == 'B' && std::isdigit(static_cast<unsigned char>(text[text.size() - 2])))
        return parse_byte_size(text);
    if (text.size() >= 3 && text.back() == 'B' && text[text.size() - 2] == ' ') return parse_byte_size(text);
    return std::nullopt;
}

std::string memory_size_expectation(std::string_view text) {
    while (!text.empty() && (text.front() == ' ')) text.remove_prefix(1);
    std::string number(text);
    while (!number.empty() && (std::isalpha(static_cast<unsigned char>(number.back())) || number.back() == ' '))
        number.pop_back();
    double value = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() || !(value > 0)) number = "80";
    return "a memory size with its unit: " + number + "GiB (" + number + " x 2^30 bytes) or " + number + "GB (" + number +
           " x 10^9 bytes)";
}

std::optional<std::vector<std::uint64_t>> parse_byte_size_range(std::string_view text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) {
        auto one = parse_byte_size(text);
        if (!one) return std::nullopt;
        return std::vector<std::uint64_t>{*one};
    }
    std::string_view rest = text.substr(colon + 1);
    double factor = 2.0;
    const auto second = rest.find(':');
    if (second != std::string_view::npos) {
        std::string_view f = rest.substr(second + 1);
        rest = rest.substr(0, second);
        if (f.starts_with('x') || f.starts_with('*')) f.remove_prefix(1);
        auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), factor);
        if (ec != std::errc() || end != f.data() + f.size() || !(factor > 1.0) || factor > 1e6)
            return std::nullopt;
    }
    auto lo = parse_byte_size(text.substr(0, colon));
    auto hi = parse_byte_size(rest);
    if (!lo || !hi || *lo > *hi || *lo == 0) return std::nullopt;
    std::vector<std::uint64_t> sizes;
    double current = static_cast<double>(*lo);
    while (current <= static_cast<double>(*hi) * (1 + 1e-12)) {
        if (sizes.size() == 4096) return std::nullopt;  // refused whole, never cut short
        sizes.push_back(static_cast<std::uint64_t>(std::llround(current)));
        current *= factor;
    }
    return sizes;
}

std::string byte_size_out_of_range(std::uint64_t bytes) {
    std::string got = format_byte_size(bytes);
    if (parse_byte_size(got) != bytes) got = std::to_string(bytes) + " B";  // "1 PiB" would hide the excess
    return "out of range (got " + got + "): sizes from 0 B to 1 PiB (2^50 B) are accepted";
}

std::string number_out_of_range(double value, double lo, double hi, std::string_view unit) {
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "out of range (got %g): accepted are %g to %g %.*s", value, lo, hi,
                  static_cast<int>(unit.size()), unit.data());
    return buffer;
}

std::string format_byte_size(std::uint64_t bytes) {
    static constexpr const char* kNames[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = static_cast<double>(bytes);
    int index = 0;
    while (value >= 1024.0 && index < 6) {
        value /= 1024.0;
        ++index;
    }
    char buffer[32];
    if (value == std::floor(value))
        std::snprintf(buffer, sizeof buffer, "%.0f %s", value, kNames[index]);
    else
        std::snprintf(buffer, sizeof buffer, "%.3g %s", value, kNames[index]);
    return buffer;
}

std::optional<TimeUnit> parse_time_unit(std::string_view text) {
    if (text == "ns") return TimeUnit::Nanoseconds;
    if (text == "us" || text == "µs") return TimeUnit::Microseconds;
    if (text == "ms") return TimeUnit::Milliseconds;
    if (text == "s") return TimeUnit::Seconds;
    if (text == "cycles") return TimeUnit::Cycles;
    return std::nullopt;
}

std::string_view time_unit_name(TimeUnit unit) {
    switch (unit) {
        case TimeUnit::Nanoseconds: return "ns";
        case TimeUnit::Microseconds: return "us";
        case TimeUnit::Milliseconds: return "ms";
        case TimeUnit::Seconds: return "s";
        case TimeUnit::Cycles: return "cycles";
    }
    return "?";
}

double nanoseconds_to(TimeUnit unit, double ns) {
    switch (unit) {
        case TimeUnit::Nanoseconds:
        case TimeUnit::Cycles: return ns;
        case TimeUnit::Microseconds: return ns * 1e-3;
        case TimeUnit::Milliseconds: return ns * 1e-6;
        case TimeUnit::Seconds: return ns * 1e-9;
    }
    return ns;
}

std::string format_time(TimeUnit unit, double ns) {
    const double v = nanoseconds_to(unit, ns);
    switch (unit) {
        case TimeUnit::Cycles:
        case TimeUnit::Nanoseconds: return v == std::floor(v) ? fmt::format("{:.0f}", v) : fmt::format("{:.1f}", v);
        case TimeUnit::Microseconds: return fmt::format("{:.3f}", v);
        case TimeUnit::Milliseconds: return fmt::format("{:.6f}", v);
        case TimeUnit::Seconds: return fmt::format("{:.9f}", v);
    }
    return fmt::format("{}", v);
}

}  // namespace dtcalc
