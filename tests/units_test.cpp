#include <doctest/doctest.h>

#include "core/units.h"

using namespace dtcalc;

TEST_CASE("byte sizes parse with IEC and SI suffixes") {
    CHECK(parse_byte_size("1048576") == 1048576u);
    CHECK(parse_byte_size("1MiB") == 1048576u);
    CHECK(parse_byte_size("1 MiB") == 1048576u);
    CHECK(parse_byte_size("4KB") == 4000u);
    CHECK(parse_byte_size("1.5GiB") == 1610612736u);  // 1.5 x 2^30
    CHECK(parse_byte_size("2GB") == 2000000000u);
    CHECK(parse_byte_size("64B") == 64u);
    CHECK(parse_byte_size("1K") == 1024u);
    CHECK_FALSE(parse_byte_size(""));
    CHECK_FALSE(parse_byte_size("-1"));
    CHECK_FALSE(parse_byte_size("MiB"));
    CHECK_FALSE(parse_byte_size("1.5"));     // not a whole byte
    CHECK_FALSE(parse_byte_size("1e30"));    // overflow
    CHECK_FALSE(parse_byte_size("12 apples"));
    CHECK_FALSE(parse_byte_size("nan"));
}

TEST_CASE("size ranges double from LO to HI inclusive") {
    const auto r = parse_byte_size_range("1KiB:8KiB");
    REQUIRE(r);
    CHECK(*r == std::vector<std::uint64_t>{1024, 2048, 4096, 8192});
    const auto x4 = parse_byte_size_range("1KiB:64KiB:x4");
    REQUIRE(x4);
    CHECK(*x4 == std::vector<std::uint64_t>{1024, 4096, 16384, 65536});
    CHECK(parse_byte_size_range("1MiB")->size() == 1);
    CHECK_FALSE(parse_byte_size_range("8KiB:1KiB"));
    CHECK_FALSE(parse_byte_size_range("0:1KiB"));
    CHECK_FALSE(parse_byte_size_range("1KiB:2KiB:x1"));
    CHECK_FALSE(parse_byte_size_range("1KiB:"));
}

TEST_CASE("time units convert from nanoseconds") {
    CHECK(nanoseconds_to(TimeUnit::Microseconds, 55222) == doctest::Approx(55.222));
    CHECK(nanoseconds_to(TimeUnit::Cycles, 55222) == 55222);  // one ASTRA-sim cycle is 1 ns
    CHECK(nanoseconds_to(TimeUnit::Milliseconds, 2.5e6) == doctest::Approx(2.5));
    CHECK(nanoseconds_to(TimeUnit::Seconds, 3e9) == doctest::Approx(3.0));
    CHECK(parse_time_unit("cycles") == TimeUnit::Cycles);
    CHECK_FALSE(parse_time_unit("hours"));
    CHECK(format_byte_size(1048576) == "1 MiB");
    CHECK(format_byte_size(1536) == "1.5 KiB");
    CHECK(format_byte_size(100) == "100 B");
}
