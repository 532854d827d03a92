#pragma once
// How a dtcalc run ends: its exit code, and the one line it writes when it
// fails.
//   0   a result;
//   1   a result outside a bound (`validate`);
//   2   bad input: one line "dtcalc: error: FILE:LINE:COLUMN: KEY: WHAT", or
//       out of memory (an input that asks for more than the machine has);
//   70  a defect: an exception no input should raise ("dtcalc: internal error:").
#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>

namespace dtcalc::cli {

/// Thrown by a command that has printed its result and must end with a
/// non-zero status that is not an input error (the run ends with `code`).
struct ExitStatus {
    int code = 1;
};

/// Runs `parse_and_run` (parsing the command line with `app` and running the
/// command it names) and returns the exit code for how it ended. Help and the
/// version go to `out`; an error's one line goes to `err`.
int run_command_line(CLI::App& app, const std::function<void()>& parse_and_run, std::ostream& out, std::ostream& err);

}  // namespace dtcalc::cli
