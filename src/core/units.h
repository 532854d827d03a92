#pragma once
// Units at the edges. Inside dtcalc: durations in nanoseconds (double; one
// ASTRA-sim cycle is one nanosecond), sizes in bytes, bandwidths in GB/s as
// the inputs state them (each backend says how it reads a GB).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtcalc {

/// Parses "1048576", "1MiB", "4KB", "1.5GiB" (IEC suffixes are powers of 1024,
/// SI ones powers of 1000; a bare "B" is bytes). Returns nullopt on anything
/// else, including negative, non-integral or overflowing sizes.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

/// Parses a size or a doubling range "LO:HI" (also "LO:HI:xF" for factor F)
/// into the list of sizes it names. Nullopt on malformed text or LO > HI.
std::optional<std::vector<std::uint64_t>> parse_byte_size_range(std::string_view text);

/// "1 MiB", "256 B", "1.5 KiB": the shortest exact-ish IEC spelling.
std::string format_byte_size(std::uint64_t bytes);

enum class TimeUnit { Nanoseconds, Microseconds, Milliseconds, Seconds, Cycles };

std::optional<TimeUnit> parse_time_unit(std::string_view text);
std::string_view time_unit_name(TimeUnit unit);  ///< "ns", "us", "ms", "s", "cycles"
double nanoseconds_to(TimeUnit unit, double ns);

}  // namespace dtcalc
