#include "validate/nccl_tests_run.h"

#include <fmt/format.h>

#include <map>

#include "validate/nccl_tests_programs.h"

namespace dtcalc {
namespace {

[[noreturn]] void fail(const InputLocation& at, const std::string& what) { throw InputError(at, what); }

// How nccl-tests prints count for a collective: the whole size (1) or one
// rank's share (ranks).
bool per_rank_count(CollectiveKind kind) {
    return kind == CollectiveKind::AllGather || kind == CollectiveKind::ReduceScatter ||
           kind == CollectiveKind::AllToAll;
}
bool reducing(CollectiveKind kind) { return kind != CollectiveKind::AllGather && kind != CollectiveKind::AllToAll; }

struct Shape {
    int nodes = 1;
    int gpus_per_node = 1;
};

Shape run_shape(const NcclTestsRun& run, const NcclLogShape& given) {
    if (run.rank_hosts.empty()) {
        if (given.nodes && given.gpus_per_node) return {*given.nodes, *given.gpus_per_node};
        fail(run.header_at, "the run lists no " + run.hosts_expected +
                                " to count nodes and GPUs from; give --nodes and --gpus-per-node");
    }
    if (run.rank_hosts.size() > (1u << 24))
        fail(run.rank_hosts.back().second, "more than 2^24 ranks: larger than any network dtcalc takes");
    std::map<std::string, int> per_host;
    for (const auto& [host, at] : run.rank_hosts) ++per_host[host];
    const int ranks = static_cast<int>(run.rank_hosts.size());
    const int nodes = static_cast<int>(per_host.size());
    for (const auto& [host, count] : per_host)
        if (static_cast<long long>(count) * nodes != ranks)
            fail(run.rank_hosts.front().second,
                 fmt::format("the {} put {} ranks on {} but {} ranks on {} hosts cannot be as many on each; "
                             "dtcalc models nodes of equal GPU counts",
                             run.hosts_named_by, count, host, ranks, nodes));
    const Shape shape{nodes, ranks / nodes};
    if (given.nodes && *given.nodes != shape.nodes)
        throw InputError({"--nodes", 0, 0, ""},
                         fmt::format("{} disagrees with {}, whose {} name {} host(s)", *given.nodes,
                                     nccl_input_place(run.rank_hosts.front().second), run.hosts_named_by, shape.nodes));
    if (given.gpus_per_node && *given.gpus_per_node != shape.gpus_per_node)
        throw InputError({"--gpus-per-node", 0, 0, ""},
                         fmt::format("{} disagrees with {}, whose {} put {} rank(s) on each host",
                                     *given.gpus_per_node, nccl_input_place(run.rank_hosts.front().second),
                                     run.hosts_named_by, shape.gpus_per_node));
    return shape;
}

CollectiveKind run_collective(const NcclTestsRun& run, const std::string& path, int ranks) {
    if (!run.program.empty()) {
        bool priced = false;
        const auto kind = program_collective(run.program, &priced);
        if (!kind)
            fail(run.program_at,
                 "'" + run.program +
                     "': dtcalc prices all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf and "
                     "sendrecv_perf only; leave this run out");
        return *kind;
    }
    if (const auto kind = file_name_collective(path)) return *kind;
    // The table: only a reduce-scatter prints a reducing op with a rank's share as count.
    const NcclTestsRow& first = run.rows.front();
    const int bytes = nccl_tests_type_bytes(first.type);
    if (first.root && *first.root >= 0)
        fail(first.at, "a rooted collective (root " + std::to_string(*first.root) +
                           ": broadcast, reduce, gather or scatter); dtcalc prices none of them");
    if (first.count && bytes > 0 && !first.redop.empty()) {
        const bool share = static_cast<std::uint64_t>(*first.count) * bytes * ranks == first.bytes && ranks > 1;
        if (share && first.redop != "none") return CollectiveKind::ReduceScatter;
        fail(run.header_at,
             std::string("cannot tell which collective this run measured: it has no '# Collective test starting:' "
                         "line (nccl-tests before 2.14 prints none), the file name names none, and its table fits ") +
                 (share ? "all_gather_perf and alltoall_perf alike" : "all_reduce_perf and sendrecv_perf alike") +
                 "; name the file after the program, e.g. " + (share ? "all_gather_perf.log" : "all_reduce_perf.log"));
    }
    fail(run.header_at,
         "cannot tell which collective this run measured: no '# Collective test starting:' line, and the file name "
         "names none; name the file after the program, e.g. all_reduce_perf.log");
}

void check_row_fits(const NcclTestsRow& row, CollectiveKind kind, int ranks) {
    const std::string program = program_of(kind);
    if (row.root && *row.root >= 0)
        fail(row.at, fmt::format("root {}: {} has no root (nccl-tests prints -1)", *row.root, program));
    if (!row.redop.empty() && (row.redop == "none") == reducing(kind))
        fail(row.at, fmt::format("redop '{}' does not fit {}, which prints {}", row.redop, program,
                                 reducing(kind) ? "a reduction op" : "'none'"));
    const int bytes = nccl_tests_type_bytes(row.type);
    if (!row.count || bytes == 0) return;
    const std::uint64_t expected = static_cast<std::uint64_t>(*row.count) * static_cast<std::uint64_t>(bytes) *
                                   static_cast<std::uint64_t>(per_rank_count(kind) ? ranks : 1);
    if (expected != row.bytes)
        fail(row.at, fmt::format("count {} of {} ({} B each) does not fit size {} for {} on {} ranks (nccl-tests "
                                 "prints size = count x type size{})",
                                 *row.count, row.type, bytes, row.bytes, program, ranks,
                                 per_rank_count(kind) ? " x ranks" : ""));
}

// The type and op a row states (nccl-tests' "type" and "redop"; float and
// sum, its defaults, where it prints none). A non-reducing collective's op
// is "none" and reduces nothing.
NcclReduction row_reduction(const NcclTestsRow& row, CollectiveKind kind) {
    NcclReduction r;
    if (!row.type.empty()) {
        const auto type = parse_nccl_datatype(row.type);
        if (!type)
            fail(row.at, "unknown type '" + row.type + "': expected nccl-tests' " + nccl_datatype_choices());
        r.type = *type;
    }
    if (reducing(kind) && !row.redop.empty()) {
        const auto op = parse_nccl_redop(row.redop);
        if (!op) fail(row.at, "unknown redop '" + row.redop + "': expected nccl-tests' " + nccl_redop_choices());
        r.op = *op;
    }
    return r;
}

}  // namespace

int nccl_tests_type_bytes(const std::string& type) {
    // nccl-tests' src/common.cu test_typenames, both spellings.
    if (type == "int8" || type == "uint8" || type == "char" || type == "f8e4m3" || type == "f8e5m2") return 1;
    if (type == "half" || type == "bfloat16") return 2;
    if (type == "int32" || type == "uint32" || type == "float" || type == "int") return 4;
    if (type == "int64" || type == "uint64" || type == "double") return 8;
    return 0;
}

void append_nccl_tests_run(const NcclTestsRun& run, const std::string& path, const NcclLogShape& given,
                           std::vector<NcclMeasurement>& out) {
    if (run.rows.empty()) return;  // a run that stopped before its table (e.g. out of memory)
    const Shape shape = run_shape(run, given);
    const int ranks = shape.nodes * shape.gpus_per_node;
    const CollectiveKind kind = run_collective(run, path, ranks);
    // NCCL's own choice per size, where the run printed it (the first call
    // of a size decides; every later one is the same).
    const std::string function = kind == CollectiveKind::AllReduce       ? "AllReduce"
                                 : kind == CollectiveKind::AllGather     ? "AllGather"
                                 : kind == CollectiveKind::ReduceScatter ? "ReduceScatter"
                                                                         : "";
    const std::uint64_t share = per_rank_count(kind) ? static_cast<std::uint64_t>(ranks) : 1;
    auto ran = [&](std::uint64_t bytes) -> const NcclTuningLine* {
        for (const NcclTuningLine& t : run.tuning)
            if (t.function == function && t.bytes * share == bytes) return &t;
        return nullptr;
    };
    const StatedNcclForce stated = stated_nccl_force(run.settings);
    for (const NcclTestsRow& row : run.rows) {
        check_row_fits(row, kind, ranks);
        NcclMeasurement m;
        m.kind = kind;
        m.nodes = shape.nodes;
        m.gpus_per_node = shape.gpus_per_node;
        m.bytes = row.bytes;
        m.time_us = row.time_us;
        m.where = row.at;
        m.source = row.at.line > 0 ? path + ":" + std::to_string(row.at.line) : path + " " + row.at.key;
        m.force = stated.force;
        m.force_origin = stated.origin;
        m.reduction = row_reduction(row, kind);
        m.unmodelled_settings = run.unmodelled_settings;
        m.gpus_per_thread = run.gpus_per_thread;
        m.timed_operations = run.timed_operations;
        if (const NcclTuningLine* t = ran(row.bytes)) {
            m.nccl_ran = t->choice;
            m.nccl_ran_channels = t->channels;
        }
        out.push_back(std::move(m));
    }
}

}  // namespace dtcalc
