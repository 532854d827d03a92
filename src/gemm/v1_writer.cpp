#include "gemm/v1_writer.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <sstream>

namespace dtcalc {
namespace {

std::string_view parallelism_keyword(V1Parallelism p) {
    switch (p) {
        case V1Parallelism::Data: return "DATA";
        case V1Parallelism::Model: return "MODEL";
        case V1Parallelism::HybridDataModel: return "HYBRID_DATA_MODEL";
        case V1Parallelism::HybridModelData: return "HYBRID_MODEL_DATA";
        case V1Parallelism::HybridDlrm: return "HYBRID_DLRM";
    }
    return "DATA";
}

std::string_view comm_keyword(const V1Comm& c) {
    if (!c.kind) return "NONE";
    switch (*c.kind) {
        case CollectiveKind::AllReduce: return "ALLREDUCE";
        case CollectiveKind::AllGather: return "ALLGATHER";
        case CollectiveKind::ReduceScatter: return "REDUCESCATTER";
        case CollectiveKind::AllToAll: return "ALLTOALL";
        case CollectiveKind::SendRecv: break;
    }
    return "NONE";
}

}  // namespace

void write_v1_workload(std::ostream& out, const V1Workload& w) {
    fmt::print(out, "{}", parallelism_keyword(w.parallelism));
    if (w.parameter > 0) fmt::print(out, " {}", w.parameter);
    fmt::print(out, "\n{}\n", w.layers.size());
    for (const V1Layer& l : w.layers)
        fmt::print(out, "{} -1 {} {} {} {} {} {} {} {} {} {}\n", l.name, l.fwd_compute_ns, comm_keyword(l.fwd),
                   l.fwd.kind ? l.fwd.bytes : 0, l.ig_compute_ns, comm_keyword(l.ig), l.ig.kind ? l.ig.bytes : 0,
                   l.wg_compute_ns, comm_keyword(l.wg), l.wg.kind ? l.wg.bytes : 0, l.update_ns);
}

std::string v1_workload_text(const V1Workload& w) {
    std::ostringstream out;
    write_v1_workload(out, w);
    return out.str();
}

}  // namespace dtcalc
