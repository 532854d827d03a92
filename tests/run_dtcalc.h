#pragma once
// Runs the dtcalc binary for end-to-end tests: its exit code and its output.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>
#include <sys/wait.h>

namespace dtcalc::testing {

struct Run {
    int exit_code;
    std::string out;  ///< stdout, and stderr unless left out
};

inline Run run_dtcalc(const std::string& args, bool with_stderr = true) {
    const std::string command = std::string(DTCALC_BINARY) + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    std::array<char, 4096> buffer;
    while (std::fgets(buffer.data(), buffer.size(), pipe)) out += buffer.data();
    const int status = pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// A command that must fail as bad input, and the whole message it must print
/// after "dtcalc: error: ".
struct ErrorCase {
    std::string args;
    std::string expected;
};

/// Each case exits with 2 and prints exactly "dtcalc: error: EXPECTED\n".
inline void check_errors(const std::vector<ErrorCase>& cases) {
    for (const ErrorCase& c : cases) {
        CAPTURE(c.args);
        const Run r = run_dtcalc(c.args);
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + c.expected + "\n");
    }
}

}  // namespace dtcalc::testing
