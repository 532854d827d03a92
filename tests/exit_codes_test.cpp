// How a run ends: the exit code and the one line written for each way a
// command can fail, including the two that no input reaches (out of memory,
// an internal error), provoked here by commands that throw.
#include <doctest/doctest.h>

#include <new>
#include <sstream>
#include <stdexcept>

#include "cli/exit_codes.h"
#include "core/error.h"

using namespace dtcalc;
using dtcalc::cli::run_command_line;

namespace {

struct Ending {
    int code;
    std::string out, err;
};

// An app with one command, "go", whose action is `action`.
Ending run(std::vector<std::string> args, const std::function<void()>& action) {
    CLI::App app{"test"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "dtcalc 9.9.9");
    app.add_subcommand("go", "runs the action")->callback(action);
    std::vector<const char*> argv = {"dtcalc"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    const int code = run_command_line(app, [&] { app.parse(static_cast<int>(argv.size()), argv.data()); }, out, err);
    return {code, out.str(), err.str()};
}

}  // namespace

TEST_CASE("exit codes: a result is 0, a validate bound 1") {
    const Ending ok = run({"go"}, [] {});
    CHECK(ok.code == 0);
    CHECK(ok.err.empty());
    CHECK(run({"go"}, [] { throw cli::ExitStatus{1}; }).code == 1);
    CHECK(run({"--version"}, [] {}).out == "dtcalc 9.9.9\n");
}

TEST_CASE("exit codes: bad input is 2 with one line") {
    const Ending input = run({"go"}, [] { throw InputError({"net.yml", 3, 7, "latency"}, "expected a number"); });
    CHECK(input.code == 2);
    CHECK(input.err == "dtcalc: error: net.yml:3:7: latency: expected a number\n");
    const Ending none = run({}, [] {});
    CHECK(none.code == 2);
    CHECK(none.err == "dtcalc: error: expected a command: go (`dtcalc --help` says what each does)\n");
}

TEST_CASE("exit codes: out of memory is 2, any other exception a defect (70)") {
    const Ending memory = run({"go"}, [] { throw std::bad_alloc(); });
    CHECK(memory.code == 2);
    CHECK(memory.err == "dtcalc: error: out of memory (the input asks for more than this machine has)\n");
    const Ending defect = run({"go"}, [] { throw std::logic_error("phase plan without phases"); });
    CHECK(defect.code == 70);
    CHECK(defect.err ==
          "dtcalc: internal error: phase plan without phases (please report it with the command and its inputs)\n");
    CHECK(defect.out.empty());
}
