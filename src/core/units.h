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

// Input bounds, and why no integer product can overflow.
//
// Every size, count and rate that enters dtcalc is checked against these
// bounds where it is read (flag, config file, workload, trace), and an input
// outside them is an InputError that names the key or flag and the accepted
// range ("out of range"). They come from physics, with a wide margin:
//   - a message or buffer is at most 1 PiB (2^50 B): no device holds more;
//   - a network has at most 2^24 = 16,777,216 NPUs in all (and in one
//     dimension): ten times the largest machines being planned;
//   - a link runs at 1e-6 GB/s (1 kB/s) to 1e12 GB/s (1 ZB/s, far above any
//     link; "free" in practice); so does the local memory bus (local-mem-bw);
//   - a hop's latency and an endpoint delay are 0 to 1e9 ns (1 s);
//   - a collective is cut into at most 1,024 chunks (preferred-dataset-splits),
//     at most 1,024 in flight per dimension (active-chunks-per-dimension);
//   - a workload's compute or update time is 0 to 1e18 cycles (32 years).
// The NPU count is read dimension by dimension (network files, --nodes and
// --gpus-per-node) with the running product checked against 2^24 before the
// next factor (<= 2^24) multiplies it, so the product of the dimensions never
// exceeds 2^24 and fits in int32. Hence, in 64 bits:
//   - bytes x NPUs <= 2^50 x 2^24 = 2^74 would NOT fit, so it is never formed
//     unchecked: a collective divides its buffer by the group (a chunk is
//     bytes / splits raised to at most P; a block is chunk / P; an all-gather's
//     chunk is bytes / P / splits, so chunk x P <= max(bytes, P) <= 2^50); the
//     places that multiply a per-NPU size by a group size (ASTRA-sim 1.0's and
//     Chakra's all-gather sizes) check the product against 2^50 and throw;
//   - step counts: ring all-to-all's P(P-1)/2 < 2^47; halving-doubling
//     log2 P <= 24 steps of distance 2^s <= 2^23;
//   - NPU ids, coordinates and group sizes < 2^24 fit in int;
//   - a sweep holds at most 2^40 points per case (design_space.h), and `run`
//     and `gen-workload --evaluate` at most 1e6 layer passes, so point and op
//     counts fit too.
// Times are doubles in ns. The longest collective, a ring all-to-all moving
// (P-1)/2 x 2^50 B through one link at 1e-6 GB/s, takes about 1e28 ns: far
// from overflow, and never NaN (no division by zero: rates are >= 1e-6).
// Where a time must become an integer (Chakra cycles, trace microseconds) the
// conversion is checked: 2^63 ns (292 years) or more is an out-of-range error.
inline constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 50;  ///< 1 PiB
inline constexpr std::int64_t kMaxNpus = std::int64_t{1} << 24;            ///< 16,777,216
inline constexpr double kMinBandwidthGbps = 1e-6;
inline constexpr double kMaxBandwidthGbps = 1e12;
inline constexpr double kMaxLatencyNs = 1e9;
inline constexpr int kMaxChunks = 1024;

/// "out of range (got 1 EiB): sizes from 0 B to 1 PiB (2^50 B) are accepted"
std::string byte_size_out_of_range(std::uint64_t bytes);
/// "out of range (got 1e-09): accepted are 1e-06 to 1e+12 GB/s" for a number and its accepted interval.
std::string number_out_of_range(double value, double lo, double hi, std::string_view unit);

/// Parses "1048576", "1MiB", "4KB", "1.5GiB" (IEC suffixes are powers of 1024,
/// SI ones powers of 1000, up to EiB/EB; a bare "B" is bytes). Returns nullopt
/// on anything else, including negative, non-integral or overflowing sizes
/// (above 9e18). Callers check the result against kMaxMessageBytes.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

/// A memory size: a number with an explicit unit, B, KB, MB, GB, TB (powers
/// of 10: 80GB = 80 x 10^9 bytes) or KiB, MiB, GiB, TiB (powers of 2: 80GiB =
/// 80 x 2^30). A bare number, or K/M/G alone, is refused: nothing says which.
std::optional<std::uint64_t> parse_memory_size(std::string_view text);

/// What a memory size must be, suggesting the units for what was given:
/// "a memory size with its unit: 80GiB (80 x 2^30 bytes) or 80GB (80 x 10^9 bytes)".
std::string memory_size_expectation(std::string_view text);

/// Parses a size or a doubling range "LO:HI" (also "LO:HI:xF" for factor F)
/// into the list of sizes it names. Nullopt on malformed text, LO > HI, or a
/// range of more than 4096 sizes.
std::optional<std::vector<std::uint64_t>> parse_byte_size_range(std::string_view text);

/// "1 MiB", "256 B", "1.5 KiB": the shortest exact-ish IEC spelling.
std::string format_byte_size(std::uint64_t bytes);

enum class TimeUnit { Nanoseconds, Microseconds, Milliseconds, Seconds, Cycles };

std::optional<TimeUnit> parse_time_unit(std::string_view text);
std::string_view time_unit_name(TimeUnit unit);  ///< "ns", "us", "ms", "s", "cycles"
double nanoseconds_to(TimeUnit unit, double ns);
/// A time for a person, in `unit`: whole cycles and ns (one decimal when the
/// value has a fraction), three decimals of a us, six of a ms, nine of a s.
std::string format_time(TimeUnit unit, double ns);

}  // namespace dtcalc
