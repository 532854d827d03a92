#pragma once
// The words of a line of a program's text output, as the log readers
// (nccl_tests_log.h, nccl_debug_lines.h) take them apart.
#include <optional>
#include <string_view>
#include <vector>

namespace dtcalc {

/// The pieces of `line` between blanks (spaces, tabs, '\r').
std::vector<std::string_view> split_blanks(std::string_view line);

/// `line` without the tag a launcher put before each line of a rank's output:
/// Open MPI's `--tag-output` ("[1,0]<stdout>:"), MPICH's and Intel MPI's
/// `-prepend-rank` ("[0] "), Slurm's `srun --label` ("0: ", padded or not).
/// A line without one comes back as it is.
std::string_view strip_launcher_tag(std::string_view line);

/// The whole number `s` spells exactly (a sign allowed, nothing around it), or nullopt.
std::optional<long long> whole_number(std::string_view s);

}  // namespace dtcalc
