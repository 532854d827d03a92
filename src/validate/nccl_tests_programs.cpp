#include "validate/nccl_tests_programs.h"

#include "core/name_key.h"

namespace dtcalc {

std::optional<CollectiveKind> program_collective(std::string_view program, bool* priced) {
    const std::size_t slash = program.find_last_of('/');
    if (slash != std::string_view::npos) program = program.substr(slash + 1);
    std::string key = name_key(program);
    if (key.ends_with("mpi")) key.resize(key.size() - 3);  // all_reduce_perf_mpi: the MPI build's name
    if (key.ends_with("perf")) key.resize(key.size() - 4);
    *priced = true;
    if (key == "allreduce") return CollectiveKind::AllReduce;
    if (key == "reducescatter") return CollectiveKind::ReduceScatter;
    if (key == "allgather") return CollectiveKind::AllGather;
    if (key == "alltoall") return CollectiveKind::AllToAll;
    if (key == "sendrecv") return CollectiveKind::SendRecv;
    *priced = false;
    return std::nullopt;
}

std::optional<CollectiveKind> file_name_collective(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    const std::string name = name_key(slash == std::string::npos ? path : path.substr(slash + 1));
    std::optional<CollectiveKind> found;
    int hits = 0;
    auto look = [&](std::string_view word, CollectiveKind kind, std::string_view unless = {}) {
        std::size_t at = name.find(word);
        while (at != std::string::npos) {
            if (unless.empty() || name.compare(at, unless.size(), unless) != 0) {
                if (!found || *found != kind) ++hits;
                found = kind;
                return;
            }
            at = name.find(word, at + 1);
        }
    };
    look("allreduce", CollectiveKind::AllReduce);
    look("reducescatter", CollectiveKind::ReduceScatter);
    look("allgather", CollectiveKind::AllGather);
    look("alltoall", CollectiveKind::AllToAll, "alltoallv");
    look("sendrecv", CollectiveKind::SendRecv);
    if (hits != 1) return std::nullopt;
    return found;
}

std::string program_of(CollectiveKind kind) {
    switch (kind) {
        case CollectiveKind::AllReduce: return "all_reduce_perf";
        case CollectiveKind::ReduceScatter: return "reduce_scatter_perf";
        case CollectiveKind::AllGather: return "all_gather_perf";
        case CollectiveKind::AllToAll: return "alltoall_perf";
        case CollectiveKind::SendRecv: return "sendrecv_perf";
    }
    return "";
}

}  // namespace dtcalc
