#pragma once
// nccl-tests' programs and the collectives they time: which collective a
// program name or a log's file name names, and the program that times a
// collective (nccl-tests' all_reduce_perf, all_gather_perf,
// reduce_scatter_perf, alltoall_perf, sendrecv_perf).
#include <optional>
#include <string>
#include <string_view>

#include "core/collective_kind.h"

namespace dtcalc {

/// The collective a program name ("all_reduce_perf", "./build/alltoall_perf",
/// "all_reduce_perf_mpi") times; nullopt for a name that is not one dtcalc
/// prices. `*priced` says whether the name was one of them.
std::optional<CollectiveKind> program_collective(std::string_view program, bool* priced);

/// The one collective a file name names (all_reduce, allreduce, all-reduce,
/// ...), or nullopt for none or several.
std::optional<CollectiveKind> file_name_collective(const std::string& path);

/// The nccl-tests program that times `kind` ("all_reduce_perf").
std::string program_of(CollectiveKind kind);

}  // namespace dtcalc
